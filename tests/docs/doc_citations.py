#!/usr/bin/env python3
"""Every place that cites a section of docs/ names one that exists.

    doc_citations.py SOURCE_DIR

Reads the sources (code, tests, scripts, build files, the man page, README.md) and the
documents themselves, and checks each citation against the headings of the document it names:

- `docs/X.md, "Title"` (also across comment lines): X.md has a heading whose text, without its
  section number and backticks, is Title, or begins with Title followed by a parenthesis
  or a colon ("Run directory" names "Run directory (`tscaudit-rundir/1`)", "The quick check"
  names "The quick check: `tscaudit_bench_quick`"), or, where Title ends in a
  colon, begins with Title ("lib:" names "`lib:` libtscaudit as its users have it");
- `docs/X.md §N.M` (and the `§` numbers that follow it, "§6, §3.5"): X.md has a heading
  numbered N.M;
- `docs/X.md#anchor`, and in README.md, docs/*.md and the READMEs next to the code the Markdown
  links `(X.md#anchor)`, `(#anchor)`: X.md has a heading with that anchor, as GitHub makes them;
- any other `docs/PATH.md`, and a Markdown link to a .md file: the file exists.

Prints one line per citation that does not resolve (file:line: what), and a count.
Exit 0 when every citation resolves, 1 otherwise, 2 on a usage error.
"""
import os
import re
import sys

SOURCE_DIRS = ["src", "analysis", "tests", "include", "man", "contrib", "scripts", "bench",
               "fuzz", "plots", "cmake", ".ci", "packaging"]
SOURCE_FILES = ["Makefile", "CMakeLists.txt", "README.md"]
# The checker's own examples are not citations.
SELF = os.path.join("tests", "docs", "doc_citations.py")


def headings(path):
    """The headings of a Markdown file outside code blocks: (text, anchor) in order."""
    out = []
    seen = {}
    in_code = False
    with open(path, encoding="utf-8") as f:
        for line in f:
            if line.startswith("```"):
                in_code = not in_code
                continue
            m = None if in_code else re.match(r"(#{1,6}) +(.*?)\s*#*\s*$", line)
            if not m:
                continue
            text = m.group(2)
            anchor = re.sub(r"[^\w\- ]", "", text.lower()).replace(" ", "-")
            n = seen.get(anchor, 0)
            seen[anchor] = n + 1
            out.append((text, anchor if n == 0 else f"{anchor}-{n}"))
    return out


def plain(text):
    """A heading's or a title's words: no backticks, no section number."""
    text = text.replace("`", "").strip()
    return re.sub(r"^\d+(\.\d+)*\.? +", "", text)


def number_of(text):
    m = re.match(r"(\d+(?:\.\d+)*)\.? ", text.strip())
    return m.group(1) if m else None


def title_matches(title, heading):
    t, h = plain(title), plain(heading)
    if h == t or h.startswith(t + " (") or h.startswith(t + ": "):
        return True
    return t.endswith(":") and h.startswith(t + " ")


class Docs:
    def __init__(self, root):
        self.root = root
        self.cache = {}

    def get(self, rel):
        """Headings of docs/rel, or None when the file does not exist."""
        if rel not in self.cache:
            path = os.path.join(self.root, "docs", rel)
            self.cache[rel] = headings(path) if os.path.isfile(path) else None
        return self.cache[rel]


def flatten(text):
    """The text with each line end, and the comment marker that continues it, made one space,
    so that a citation broken over comment lines reads whole; a map back to line numbers."""
    pieces, starts = [], []
    pos = 0
    for m in re.finditer(r"\n[ \t]*(?:///?|#+|\*|\.\\\"|;+|--)?[ \t]*", text):
        pieces.append(text[pos:m.start()])
        pieces.append(" ")
        starts.append(sum(len(p) for p in pieces))
        pos = m.end()
    pieces.append(text[pos:])
    return "".join(pieces), starts


def line_of(starts, offset):
    lo, hi = 0, len(starts)
    while lo < hi:
        mid = (lo + hi) // 2
        if starts[mid] <= offset:
            lo = mid + 1
        else:
            hi = mid
    return lo + 1


def check_anchor(docs, rel, anchor):
    hs = docs.get(rel)
    if hs is None:
        return f"docs/{rel} does not exist"
    if anchor not in {a for _, a in hs}:
        return f"docs/{rel} has no heading with the anchor #{anchor}"
    return None


def check_sources(root, docs, report):
    cite = re.compile(r'docs/([a-z0-9_/\-]+\.md)(#[\w\-]+)?'
                      r'(?:(?:, *| +)"([^"]{1,120})"| *((?:§\d+(?:\.\d+)*(?:,? *(?:and )?)?)+))?')
    files = [os.path.join(root, f) for f in SOURCE_FILES]
    for d in SOURCE_DIRS:
        for dirpath, dirnames, filenames in os.walk(os.path.join(root, d)):
            dirnames[:] = [n for n in dirnames if not n.startswith("build")]
            files += [os.path.join(dirpath, n) for n in filenames]
    for path in sorted(files):
        rel_path = os.path.relpath(path, root)
        if rel_path == SELF or not os.path.isfile(path):
            continue
        try:
            with open(path, encoding="utf-8") as f:
                text = f.read()
        except (UnicodeDecodeError, OSError):
            continue
        if "docs/" not in text:
            continue
        flat, starts = flatten(text)
        for m in cite.finditer(flat):
            rel, anchor, title, numbers = m.group(1), m.group(2), m.group(3), m.group(4)
            where = f"{rel_path}:{line_of(starts, m.start())}"
            hs = docs.get(rel)
            if hs is None:
                report(where, f"docs/{rel} does not exist")
                continue
            if anchor:
                problem = check_anchor(docs, rel, anchor[1:])
                if problem:
                    report(where, problem)
            if title is not None and not any(title_matches(title, h) for h, _ in hs):
                report(where, f'docs/{rel} has no section "{title}"')
            if numbers:
                have = {number_of(h) for h, _ in hs}
                for n in re.findall(r"§(\d+(?:\.\d+)*)", numbers):
                    if n not in have:
                        report(where, f"docs/{rel} has no section §{n}")


def check_markdown(root, docs, report):
    link = re.compile(r"\]\(([^()\s]*?)(#[\w\-]+)?\)")
    mds = [os.path.join(root, "README.md")]
    mds += [os.path.join(root, "docs", n) for n in sorted(os.listdir(os.path.join(root, "docs")))
            if n.endswith(".md")]
    results = os.path.join(root, "docs", "results")
    if os.path.isdir(results):
        mds += [os.path.join(results, n) for n in sorted(os.listdir(results)) if n.endswith(".md")]
    # The READMEs next to the code (src/README.md, tests/cli/README.md, ...).
    for d in SOURCE_DIRS:
        for dirpath, dirnames, filenames in os.walk(os.path.join(root, d)):
            dirnames[:] = sorted(n for n in dirnames if not n.startswith("build"))
            mds += [os.path.join(dirpath, n) for n in sorted(filenames) if n == "README.md"]
    for path in mds:
        if not os.path.isfile(path):
            continue
        base = os.path.dirname(path)
        in_code = False
        with open(path, encoding="utf-8") as f:
            for number, line in enumerate(f, 1):
                if line.startswith("```"):
                    in_code = not in_code
                    continue
                if in_code:
                    continue
                for m in link.finditer(line):
                    target, anchor = m.group(1), m.group(2)
                    if re.match(r"[a-z]+:", target):
                        continue  # http:, https:, mailto:
                    where = f"{os.path.relpath(path, root)}:{number}"
                    full = os.path.normpath(os.path.join(base, target)) if target else path
                    if not os.path.exists(full):
                        report(where, f"the link to {target} goes nowhere")
                        continue
                    if not anchor:
                        continue
                    if not full.endswith(".md"):
                        continue
                    docs_dir = os.path.join(root, "docs")
                    rel = os.path.relpath(full, docs_dir)
                    if rel.startswith(".."):
                        hs = headings(full)
                        if anchor[1:] not in {a for _, a in hs}:
                            report(where, f"{os.path.relpath(full, root)} has no heading with the anchor {anchor}")
                        continue
                    problem = check_anchor(docs, rel, anchor[1:])
                    if problem:
                        report(where, problem)


def main():
    if len(sys.argv) != 2:
        print(__doc__.strip().splitlines()[2].strip(), file=sys.stderr)
        return 2
    root = sys.argv[1]
    docs = Docs(root)
    broken = []

    def report(where, what):
        broken.append(f"{where}: {what}")

    check_sources(root, docs, report)
    check_markdown(root, docs, report)
    broken = list(dict.fromkeys(broken))  # README.md is read both ways
    for line in broken:
        print(line)
    if broken:
        print(f"{len(broken)} citations of docs/ do not resolve")
        return 1
    print("every citation of docs/ resolves")
    return 0


if __name__ == "__main__":
    sys.exit(main())
