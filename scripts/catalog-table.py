#!/usr/bin/env python3
"""catalog-table.py — the table of causes in docs/catalog.md, made from patterns/*.toml.

  scripts/catalog-table.py           rewrites the table between the markers in docs/catalog.md
  scripts/catalog-table.py --check   exits 1 when the table there is not what the catalog gives

Each row: the cause's id, its characteristic values (every [[delay]] value, in ascending order;
"after trigger lines" for a cause named through its [[trigger]] lines), its shapes and its title.
"""
import os
import sys
import tomllib

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
DOC = os.path.join(ROOT, "docs", "catalog.md")
BEGIN, END = "<!-- causes:begin -->", "<!-- causes:end -->"


def value(ms):
    if ms >= 1000:
        return f"{ms / 1000:g} s"
    if ms < 1:
        return f"{ms * 1000:g} µs"
    return f"{ms:g} ms"


def table():
    rows = ["| id | values | shapes | what it is |", "|---|---|---|---|"]
    folder = os.path.join(ROOT, "patterns")
    for name in sorted(os.listdir(folder)):
        if not name.endswith(".toml"):
            continue
        with open(os.path.join(folder, name), "rb") as f:
            cause = tomllib.load(f)
        values = sorted({d["value_ms"] for d in cause.get("delay", [])})
        shown = ", ".join(value(v) for v in values[:8]) + (", …" if len(values) > 8 else "")
        if cause.get("trigger"):
            shown = (shown + "; " if shown else "") + "after trigger lines"
        title = cause["title"].replace("|", "\\|")
        rows.append(f"| `{cause['id']}` | {shown} | {', '.join(cause.get('shapes', []))} | {title} |")
    return "\n".join(rows) + "\n"


def main():
    with open(DOC) as f:
        doc = f.read()
    start, stop = doc.index(BEGIN) + len(BEGIN) + 1, doc.index(END)
    new = doc[:start] + table() + doc[stop:]
    if "--check" in sys.argv[1:]:
        if new != doc:
            sys.exit("catalog-table.py: docs/catalog.md's table of causes is out of date "
                     "(run scripts/catalog-table.py)")
        print("catalog-table.py: docs/catalog.md lists every cause")
        return
    with open(DOC, "w") as f:
        f.write(new)


if __name__ == "__main__":
    main()
