"""The worksheet printed to PDF by the test browser, as a lecturer prints it: A4 pages, the problems
first, the answer key from a page of its own, every number the core's."""
import subprocess
import sys

import pytest
from pypdf import PdfReader

from attention_core.answer import three_decimals
from attention_core.practice import practice_problem, worked_solution
from app.worksheet import worksheet_numbers
from support import ROOT

pytestmark = pytest.mark.browser
A4 = (595.0, 842.0)  # points


def vector(values) -> str:
    return "(" + ", ".join(three_decimals(x) for x in values) + ")"


@pytest.mark.parametrize("lang, key_title", [("ko", "정답과 풀이"), ("en", "Answer key")])
def test_the_worksheet_prints_on_a4_with_the_key_on_its_own_pages(page, tmp_path, lang, key_title):
    sheet, pdf = tmp_path / "sheet.html", tmp_path / "sheet.pdf"
    subprocess.run([sys.executable, "-m", "app.cli", "worksheet", str(sheet), "--count", "10", "--seed", "1",
                    "--lang", lang], cwd=ROOT, check=True, capture_output=True)
    page.goto(sheet.as_uri())
    page.pdf(path=str(pdf), prefer_css_page_size=True)
    reader = PdfReader(str(pdf))
    for pdf_page in reader.pages:
        assert abs(float(pdf_page.mediabox.width) - A4[0]) < 1 and abs(float(pdf_page.mediabox.height) - A4[1]) < 1
    texts = [pdf_page.extract_text() for pdf_page in reader.pages]
    first_key = next(i for i, text in enumerate(texts) if key_title in text)
    problems, key = "\n".join(texts[:first_key]), "\n".join(texts[first_key:])
    assert 3 <= first_key <= 6 and len(texts) - first_key <= 4   # two or three problems a page; a compact key
    assert not texts[first_key].split(key_title)[0].strip()      # the key starts its page
    numbers = worksheet_numbers(10, 1)
    for number in numbers:
        problem, steps = practice_problem(number), worked_solution(practice_problem(number))
        assert str(number) in problems and problem.tokens[problem.query] in problems
        for name in ("scores", "scaled", "weights", "output"):
            assert vector(steps[name]) in key.replace("\n", " "), (number, name)
            assert vector(steps[name]) not in problems
    # each problem sits whole on one page
    for number in numbers:
        tokens = practice_problem(number).tokens
        assert any(str(number) in text and all(t in text for t in tokens) for text in texts[:first_key]), number
