"""Attention Explorer's web app: Panel component, server entry point, exporter and CLI."""
from .explorer import AttentionExplorer, AttentionView

__all__ = ["AttentionExplorer", "AttentionView"]
