"""The served app: one explorer per browser session, at the root path."""
from __future__ import annotations

import panel as pn

from .explorer import AttentionView
from .strings import text


def create_app():
    """Build one session's page. Everything here is per session; only preset cubes are shared."""
    return AttentionView(url_sync=True)


def serve(port: int = 5006, address: str = "127.0.0.1", num_procs: int = 1,
          allow_websocket_origin=None, show: bool = False):
    """Serve the explorer until interrupted."""
    origins = list(allow_websocket_origin or [])
    origins += [f"localhost:{port}", f"127.0.0.1:{port}", f"{address}:{port}"]
    pn.serve(
        {"/": create_app}, port=port, address=address, num_procs=num_procs,
        websocket_origin=sorted(set(origins)), show=show, title=text("app_title", "ko"),
        start=True, threaded=False,
    )
