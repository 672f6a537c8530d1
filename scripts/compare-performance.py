#!/usr/bin/env python3
"""Puts the previous run's ratio beside each figure of a new docs/performance.md.

    compare-performance.py PREVIOUS.md NEW.md

Every table row whose first cell names a figure gets a column "previous" with the ratio the same
figure had in PREVIOUS (matched by the figure's text up to its first " — ", so that counts and CPU
times in the text do not break the match), or "new" when PREVIOUS had no such figure. NEW is
rewritten in place; a note under the title says which run it is compared with.
"""

import re
import sys


def figure_key(cell):
    return cell.split(" — ")[0].strip()


def ratios(markdown):
    """Maps (section, figure) to its ratio cell, for every table with a 'ratio' column."""
    found = {}
    section = ""
    columns = None
    for line in markdown.splitlines():
        if line.startswith("#"):
            section = line.strip("# ").strip()
            columns = None
            continue
        if not line.startswith("|"):
            columns = None
            continue
        cells = [cell.strip() for cell in line.strip().strip("|").split("|")]
        if columns is None:
            columns = cells
            continue
        if set(cells[0]) <= set("-: "):
            continue
        # The first table of a section and figure: the kept notes at the end repeat some
        # sections' tables from older runs.
        if "ratio" in columns and len(cells) == len(columns):
            found.setdefault((section, figure_key(cells[0])), cells[columns.index("ratio")])
    return found


def main():
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    previous_path, new_path = sys.argv[1], sys.argv[2]
    previous_text = open(previous_path).read()
    previous = ratios(previous_text)
    date = re.search(r"^- date: (\S+)", previous_text, re.MULTILINE)
    lines = open(new_path).read().splitlines()
    out = []
    section = ""
    columns = None
    for line in lines:
        if line.startswith("#"):
            section = line.strip("# ").strip()
            columns = None
            out.append(line)
            continue
        if not line.startswith("|"):
            columns = None
            out.append(line)
            continue
        cells = [cell.strip() for cell in line.strip().strip("|").split("|")]
        if columns is None:
            columns = cells
            out.append(line.rstrip() + (" previous |" if "ratio" in columns else ""))
            continue
        if "ratio" not in columns:
            out.append(line)
            continue
        if set(cells[0]) <= set("-: "):
            out.append(line.rstrip() + " ---: |")
            continue
        out.append(line.rstrip() + f" {previous.get((section, figure_key(cells[0])), 'new')} |")
    text = "\n".join(out) + "\n"
    note = (f"The column *previous* is each figure's ratio in the run before "
            f"({date.group(1) if date else previous_path}).\n")
    text = re.sub(r"(\n## Machine and run\n)", "\n" + note + r"\1", text, count=1)
    open(new_path, "w").write(text)


if __name__ == "__main__":
    main()
