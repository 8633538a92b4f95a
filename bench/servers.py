"""Baseline pages the benchmarks compare the explorer with, served exactly as attention-viz serve does."""
from __future__ import annotations

import argparse
import sys


def bare_page():
    """The baseline: one pn.Column with one widget, per session."""
    import panel as pn
    return pn.Column(pn.widgets.TextInput(name="bare"))


def callback_page():
    """The usual Panel way, as the interaction baseline: token buttons whose Python callback
    rewrites an HTML weights table on the server for every click."""
    import panel as pn

    from attention_core import PRESETS, attention

    preset = PRESETS["meet-friend"]
    weights = attention(preset.q, preset.k, preset.v).weights[0]
    buttons = pn.widgets.RadioButtonGroup(options=list(preset.tokens), value=preset.tokens[-1], name="query")

    def table(token):
        i = preset.tokens.index(token)
        rows = "".join(f"<tr><th>{k}</th><td>{w:.3f}</td></tr>" for k, w in zip(preset.tokens, weights[i]))
        return f'<table data-testid="weights-table"><caption>Query: {token}</caption>{rows}</table>'

    return pn.Column(buttons, pn.pane.HTML(pn.bind(table, buttons)))


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description="serve the bare Panel baseline like attention-viz serve")
    parser.add_argument("page", choices=["bare", "callback"])
    parser.add_argument("--port", type=int, required=True)
    parser.add_argument("--num-procs", type=int, default=1)
    parser.add_argument("--unused-session-lifetime", type=int, default=None)
    parser.add_argument("--allow-websocket-origin", action="append", default=[], metavar="HOST[:PORT]")
    args = parser.parse_args(argv)
    from app.server import serve
    serve(port=args.port, num_procs=args.num_procs, app=bare_page if args.page == "bare" else callback_page,
          unused_session_lifetime_ms=args.unused_session_lifetime, allow_websocket_origin=args.allow_websocket_origin)
    return 0


if __name__ == "__main__":
    sys.exit(main())
