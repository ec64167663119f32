"""Nothing measured is lost when text moves between README.md and docs/: a check for a merge or a move.

    git show OTHER_BRANCH:README.md > /tmp/old.md
    python -m tests.docs_figures /tmp/old.md

Every table row of the old file that holds a number must appear verbatim in README.md or docs/*.md,
and every number of its text with two words either side (within one paragraph); what is missing is
printed, and the exit code is 1. Used when the README's guides and measurements moved to docs/.
"""

from __future__ import annotations

import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def missing(old: str, root: Path = ROOT) -> tuple[list[str], list[str], int, int]:
    corpus = "\n".join(p.read_text() for p in [root / "README.md", *sorted((root / "docs").glob("*.md"))])
    flat = " ".join(corpus.split())
    lines = {line.strip() for line in corpus.splitlines()}
    rows = [s for s in (line.strip() for line in old.splitlines()) if s.startswith("|") and re.search(r"\d", s)]
    lost_rows = [row for row in rows if row not in lines]
    lost_numbers, numbers = [], 0
    for paragraph in re.split(r"\n\s*\n", old):
        for block in re.split(r"\n(?=#)", paragraph):  # a heading starts a new block
            words = block.split()
            for i, word in enumerate(words):
                if re.search(r"\d", word):
                    numbers += 1
                    window = " ".join(words[max(0, i - 2): i + 3])
                    if window not in flat:
                        lost_numbers.append(window)
    return lost_rows, lost_numbers, len(rows), numbers


if __name__ == "__main__":
    lost_rows, lost_numbers, rows, numbers = missing(Path(sys.argv[1]).read_text())
    print(f"{rows} table rows with a number, {len(lost_rows)} missing; "
          f"{numbers} numbers with their words, {len(lost_numbers)} missing")
    for row in lost_rows:
        print("row:   ", row)
    for window in lost_numbers:
        print("number:", window)
    sys.exit(1 if lost_rows or lost_numbers else 0)
