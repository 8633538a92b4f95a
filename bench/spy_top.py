"""The hot spots of py-spy's raw recordings (bench/room.py --py-spy DIR): the lines where the samples
were (self), and the functions they were under (inclusive), as shares of every sample.

    .venv/bin/python bench/spy_top.py DIR/2000-joining-*.txt [--top 25] [--match app/]

py-spy's raw format is one line per distinct stack, root first, frames separated by `;`, each
`function (file:line)`, the number of samples last.
"""
from __future__ import annotations

import argparse
import re
from collections import Counter

FRAME = re.compile(r"^(?P<function>.*) \((?P<where>[^()]*)\)$")


def stacks(paths):
    for path in paths:
        with open(path, errors="replace") as lines:
            for line in lines:
                stack, _, count = line.rstrip("\n").rpartition(" ")
                if stack and count.isdigit():
                    yield stack.split(";"), int(count)


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("paths", nargs="+")
    parser.add_argument("--top", type=int, default=25)
    parser.add_argument("--match", default="", help="inclusive: only frames whose file contains this (app/, tornado/, redis/)")
    args = parser.parse_args(argv)
    total, own, under, functions = 0, Counter(), Counter(), Counter()
    for frames, count in stacks(args.paths):
        total += count
        own[frames[-1]] += count
        named = set()
        for frame in set(frames):
            found = FRAME.match(frame)
            if found and args.match in found.group("where"):
                under[frame] += count
                named.add(f"{found.group('function')} ({found.group('where').rsplit(':', 1)[0]})")
        for function in named:
            functions[function] += count
    if not total:
        print("no samples")
        return 1
    print(f"{total} samples in {len(args.paths)} file(s)")
    print("\nself (where the samples were):")
    for frame, count in own.most_common(args.top):
        print(f"  {100 * count / total:5.1f}%  {frame}")
    print("\ninclusive, by function (the samples under it" + (f", in {args.match}" if args.match else "") + "):")
    for function, count in functions.most_common(args.top):
        print(f"  {100 * count / total:5.1f}%  {function}")
    print("\ninclusive, by line (the samples under each frame" + (f", in {args.match}" if args.match else "") + "):")
    for frame, count in under.most_common(args.top):
        print(f"  {100 * count / total:5.1f}%  {frame}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
