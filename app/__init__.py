"""Attention Explorer's web app: Panel component, server entry point, exporter and CLI.

The component is imported when first asked for (`from app import AttentionExplorer`), so that a
module that needs no Panel (app.view_params, app.rooms, …) is imported without it."""

__all__ = ["AttentionExplorer", "AttentionView"]


def __getattr__(name):
    if name in __all__:
        from . import explorer
        return getattr(explorer, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
