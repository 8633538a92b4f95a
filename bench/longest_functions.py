"""Measure: the longest functions of the browser client (issue 35: none should pass ~150 lines),
by a brace count from each `function name(`, method `name(…) {` or `const name = (…) => {` to its
closing brace (strings and // comments skipped; a rough count, not a parser).

    .venv/bin/python bench/longest_functions.py [FOLDER] [--top N]

FOLDER defaults to static/explorer; give an older checkout's to measure before and after.
"""
import argparse
import re
from pathlib import Path

OPENING = re.compile(r"(?:function\s*\*?\s*([\w$]*)\s*\(|([\w$]+)\s*\([^()]*\)\s*\{\s*$"
                     r"|(?:const|let)\s+([\w$]+)\s*=\s*(?:async\s*)?\([^()]*\)\s*=>\s*\{)")
NOT_FUNCTIONS = {"if", "for", "while", "switch", "catch"}
QUOTED = re.compile(r'"(?:\\.|[^"\\])*"|\'(?:\\.|[^\'\\])*\'|`(?:\\.|[^`\\])*`|//.*$')


def lengths(folder: Path) -> list[tuple[int, str]]:
    """(lines, "file:line name") of every function found in folder's *.js."""
    rows = []
    for path in sorted(folder.glob("*.js")):
        lines = path.read_text(encoding="utf-8").split("\n")
        for i, line in enumerate(lines):
            match = OPENING.search(line)
            if not match or line.strip().startswith("//"):
                continue
            name = next((group for group in match.groups() if group is not None), "?") or "(anonymous)"
            if name in NOT_FUNCTIONS:
                continue
            depth, started = 0, False
            for j in range(i, len(lines)):
                text = QUOTED.sub("", lines[j][match.start():] if j == i else lines[j])
                depth += text.count("{") - text.count("}")
                started = started or "{" in text
                if started and depth <= 0:
                    rows.append((j - i + 1, f"{path.name}:{i + 1} {name}"))
                    break
    return sorted(rows, reverse=True)


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("folder", nargs="?", type=Path, default=Path(__file__).resolve().parent.parent / "static" / "explorer")
    parser.add_argument("--top", type=int, default=8)
    args = parser.parse_args()
    for length, where in lengths(args.folder)[:args.top]:
        print(f"{length:5d}  {where}")
