"""`attention-viz worksheet`: a print-ready sheet of practice problems with an answer key that gives
every intermediate, the same for the same seed; and the exported file's practice bank."""

import pytest
import numpy as np

from app.export import page_state
from app.constants import PRACTICE_BANK
from app.worksheet import MAX_COUNT, worksheet_html, worksheet_numbers
from attention_core.answer import three_decimals
from attention_core.practice import check_rows, practice_problem, worked_solution
from support import cli_command, run_export, run_together


def vector(values) -> str:
    return "(" + ", ".join(three_decimals(x) for x in values) + ")"


def test_the_same_seed_gives_the_same_sheet_and_another_seed_another():
    assert worksheet_html(10, 1, "ko") == worksheet_html(10, 1, "ko")
    assert worksheet_numbers(10, 1) != worksheet_numbers(10, 2)
    assert len(set(worksheet_numbers(PRACTICE_BANK, 3))) == PRACTICE_BANK
    assert len(set(worksheet_numbers(MAX_COUNT, 3, every=True))) == MAX_COUNT


def test_every_number_a_default_sheet_prints_is_one_the_exported_file_can_check():
    numbers = {n for seed in range(20) for n in worksheet_numbers(10, seed)}
    assert numbers <= set(range(1, PRACTICE_BANK + 1)) and len(numbers) > 50
    assert max(n for seed in range(20) for n in worksheet_numbers(10, seed, every=True)) > PRACTICE_BANK
    # the sheet says where its numbers can be checked
    assert "(the exported file too)" in worksheet_html(10, 1, "en")
    assert f"problems 1–{PRACTICE_BANK} only" in worksheet_html(10, 1, "en", every=True)


def test_the_sheet_gives_the_problems_and_the_key_every_intermediate():
    page = worksheet_html(4, 7, "en")
    sheet, key = page.split("data-testid=answer-key")
    for number in worksheet_numbers(4, 7):
        problem, steps = practice_problem(number), worked_solution(practice_problem(number))
        assert f'data-number="{number}"' in sheet and f"practice problem {number}" in sheet
        for i, token in enumerate(problem.tokens):
            given = "".join(f"<td>({int(m[i][0])}, {int(m[i][1])})</td>" for m in (problem.q, problem.k, problem.v))
            assert f"<th>{token}</th>{given}" in sheet
        for name in ("scores", "scaled", "exp", "weights", "output"):
            assert vector(steps[name]) in key and vector(steps[name]) not in sheet, name
        assert three_decimals(steps["sum"]) in key


REFUSED = [(["--count", "0"], f"--count must be 1 to {PRACTICE_BANK} (or use --every-problem)"),
           (["--count", "101"], f"--count must be 1 to {PRACTICE_BANK} (or use --every-problem)"),
           (["--count", "201", "--every-problem"], "--count must be 1 to 200"),
           (["--seed", "-1"], "--seed must be 0 or more")]


@pytest.fixture(scope="module")
def refused(tmp_path_factory):
    """Each refused command line, run once as a user types it (side by side, each its own process):
    {args: (the sheet it would have written, the run)}."""
    folder = tmp_path_factory.mktemp("worksheet")
    outs = [folder / f"sheet-{i}.html" for i in range(len(REFUSED))]
    runs = run_together(*(cli_command("worksheet", out, *args) for out, (args, _) in zip(outs, REFUSED)))
    return {tuple(args): (out, run) for out, (args, _), run in zip(outs, REFUSED, runs)}


@pytest.mark.parametrize("args, message", REFUSED)
def test_the_command_refuses_a_bad_count_or_seed_and_writes_nothing(refused, args, message):
    out, done = refused[tuple(args)]
    assert done.returncode == 2 and message in done.stderr and not out.exists()


def test_an_export_carries_the_practice_problems_asked_for(tmp_path):
    out = tmp_path / "five.html"
    run_export(out, "--preset", "cat-fish", "--practice", "5")
    state = page_state(out.read_text(encoding="utf-8"))
    assert [entry["practice"]["number"] for entry in state["practice_bank"]] == [1, 2, 3, 4, 5]
    shipped = state["practice_bank"][2]["cube"]["tokens"]
    assert shipped == list(practice_problem(3).tokens)
    lean = tmp_path / "none.html"
    run_export(lean, "--preset", "cat-fish", "--practice", "0")
    assert (out.stat().st_size - lean.stat().st_size) / 5 < 2_500   # bytes a problem costs the file


def test_the_key_says_how_rows_are_marked_and_the_checker_marks_them_so():
    """The key's marking note, and what it promises, on the sheet's first problem: 1.41 for √2 and
    two decimals are right; a row computed from a wrong row above is credited ('carried')."""
    page = worksheet_html(1, 7, "ko")
    assert "data-testid=key-marking" in page.split("data-testid=answer-key")[1]
    assert "이어받은 실수" in page and "√2 ≈ 1.41" in page
    problem = practice_problem(worksheet_numbers(1, 7)[0])
    scores = problem.q[problem.query] @ problem.k.T
    rounded = check_rows(problem, {"scores": ", ".join(f"{x:g}" for x in scores),
                                   "scaled": ", ".join(f"{x / 1.41:.2f}" for x in scores)})
    assert [v.status for v in rounded.values()] == ["correct", "rounded"]
    slipped = scores + np.array([1, 0, 0])
    carried = check_rows(problem, {"scores": ", ".join(f"{x:g}" for x in slipped),
                                   "scaled": ", ".join(f"{x / 1.414:.3f}" for x in slipped)})
    assert [v.status for v in carried.values()] == ["wrong", "carried"]
