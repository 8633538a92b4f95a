"""The example notebook runs top to bottom, headless, and its output holds the explorer."""
import json
from support import ROOT

import nbformat
from nbclient import NotebookClient

NOTEBOOK = ROOT / "examples" / "attention_explorer.ipynb"


def test_example_notebook_executes_and_shows_the_explorer(tmp_path):
    nb = nbformat.read(NOTEBOOK, as_version=4)
    NotebookClient(nb, timeout=120, kernel_name="python3", resources={"metadata": {"path": str(NOTEBOOK.parent.parent)}}).execute()
    outputs = [out for cell in nb.cells if cell.cell_type == "code" for out in cell.get("outputs", [])]
    assert not [out for out in outputs if out.output_type == "error"]
    rendered = json.dumps([out.get("data", {}) for out in outputs], ensure_ascii=False)
    printed = "".join(out.get("text", "") for out in outputs if out.output_type == "stream")
    assert rendered.count("application/vnd.holoviews_exec.v0+json") >= 3  # three explorers displayed
    assert "0.786" in printed and "0.977" in printed  # the core's weights and output for 먹었다
    assert "(0, True)" in rendered
