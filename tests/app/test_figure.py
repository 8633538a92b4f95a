"""`attention-viz figure` without a browser: what it refuses, and why, before it starts one."""
import re
import subprocess
import sys

import pytest

from support import run_figure


@pytest.mark.parametrize("args, message", [
    (["--preset", "cat-fish", "--query", "7"], "--query 7 is not a token of 'cat-fish'"),
    (["--preset", "cat-fish", "--heads", "4"], "--heads 4 does not divide"),
    (["--preset", "nope"], "unknown preset 'nope'"),
])
def test_the_command_line_says_what_is_wrong(tmp_path, args, message):
    result = run_figure(tmp_path / "x.svg", *args)
    assert result.returncode == 2 and message in result.stderr
    assert not (tmp_path / "x.svg").exists()


def test_the_command_line_refuses_another_file_kind(tmp_path):
    result = run_figure(tmp_path / "x.pdf")
    assert result.returncode == 2 and re.search(r"\.svg or \.png", result.stderr)
