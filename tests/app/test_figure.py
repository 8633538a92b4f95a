"""`attention-viz figure` without a browser: what it refuses, and why, before it starts one."""
import re

import pytest

from support import cli_command, run_together

WRONG = [
    (["--preset", "cat-fish", "--query", "7"], "--query 7 is not a token of 'cat-fish'"),
    (["--preset", "cat-fish", "--heads", "4"], "--heads 4 does not divide"),
    (["--preset", "nope"], "unknown preset 'nope'"),
]


@pytest.fixture(scope="module")
def refused(tmp_path_factory):
    """Each refused command line, run once as a user types it (side by side, each its own process):
    {args: (what it would have written, the run)}, the last with a .pdf to write."""
    folder = tmp_path_factory.mktemp("figure")
    cases = [(tuple(args), folder / f"x{i}.svg") for i, (args, _) in enumerate(WRONG)] + [((), folder / "x.pdf")]
    runs = run_together(*(cli_command("figure", out, *args) for args, out in cases))
    return {args: (out, run) for (args, out), run in zip(cases, runs)}


@pytest.mark.parametrize("args, message", WRONG)
def test_the_command_line_says_what_is_wrong(refused, args, message):
    out, result = refused[tuple(args)]
    assert result.returncode == 2 and message in result.stderr
    assert not out.exists()


def test_the_command_line_refuses_another_file_kind(refused):
    _, result = refused[()]
    assert result.returncode == 2 and re.search(r"\.svg or \.png", result.stderr)
