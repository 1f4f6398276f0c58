#!/usr/bin/env python3
"""Checks function size (issues 11 and 21): no function or initializer in any Swift
target longer than MAX_LINES lines, and none with more than MAX_WITH_UNSAFE `withUnsafe…`
calls (nested pointer pyramids belong in one scoped helper, not in the stage that uses
the pointers). The Swift targets are every folder of Sources/ (the library, its C
interface, the workloads, the pictures, batchbench, and any target added later), the
helper executables of Tests/ (the folders whose names do not end in `Tests`:
misuse-messages, the accessor and C-interface benchmarks) and the fuzzers (Fuzz/).
XCTest cases are not checked: a test may read as one long script.

A function's lines run from its `func`/`init` line to its closing brace, found by
brace matching (braces in comments and string literals are skipped). A local function
counts toward the function around it too. Usage: scripts/function-limits.py [ROOT...]
(default: the targets above, `default_roots()`). Exits 1 and lists the
offenders when a limit is exceeded; prints the largest functions either way.
"""
import os
import re
import sys

MAX_LINES = 90
MAX_WITH_UNSAFE = 6

# Functions allowed over a limit for now, each with its reason; the check fails when
# one of them grows past what is listed here.
KNOWN_EXCEPTIONS = {
    # path, function: (lines, withUnsafe) allowed; none today.
}

DECL = re.compile(
    r"^\s*(?:(?:@[A-Za-z_]+(?:\([^)]*\))?|public|internal|private|fileprivate|package|open|static|class|"
    r"mutating|nonmutating|override|final|convenience|required|nonisolated|dynamic)\s+)*"
    r"(?:func\s+[^\s(<]+|init[?!]?)\s*[(<]")


def strip(line, in_block):
    """The line without comments and string-literal contents; and whether a /* */
    comment is still open at its end."""
    out = []
    i, n = 0, len(line)
    in_string = False
    while i < n:
        if in_block:
            end = line.find("*/", i)
            if end < 0:
                return "".join(out), True
            i, in_block = end + 2, False
            continue
        ch = line[i]
        if in_string:
            if ch == "\\":
                i += 2
                continue
            if ch == '"':
                in_string = False
            i += 1
            continue
        if line.startswith("//", i):
            break
        if line.startswith("/*", i):
            in_block = True
            i += 2
            continue
        if ch == '"':
            in_string = True
            out.append('"')
            i += 1
            continue
        out.append(ch)
        i += 1
    return "".join(out), in_block


def functions(path):
    with open(path, encoding="utf-8") as f:
        raw = f.read().split("\n")
    code, in_block = [], False
    for line in raw:
        text, in_block = strip(line, in_block)
        code.append(text)
    for start, text in enumerate(code):
        if not DECL.match(text):
            continue
        # Find the body's opening brace: the first `{` at parenthesis depth 0.
        depth_paren, depth, end, opened = 0, 0, None, False
        for row in range(start, len(code)):
            for ch in code[row]:
                if not opened:
                    if ch in "([":
                        depth_paren += 1
                    elif ch in ")]":
                        depth_paren -= 1
                    elif ch == "{" and depth_paren == 0:
                        opened, depth = True, 1
                    continue
                if ch == "{":
                    depth += 1
                elif ch == "}":
                    depth -= 1
                    if depth == 0:
                        end = row
                        break
            if end is not None:
                break
            # A requirement without a body: the next declaration starts first.
            if not opened and row > start and DECL.match(code[row + 1] if row + 1 < len(code) else ""):
                break
        if end is None:
            continue
        name = re.search(r"(func\s+[^\s(<]+|init[?!]?)", text).group(1)
        body = "\n".join(code[start:end + 1])
        yield name, start + 1, end - start + 1, len(re.findall(r"\bwithUnsafe\w*", body))


def default_roots():
    """Every folder of Sources/, the helper executables of Tests/ and Fuzz/, from the
    repository root (this script's parent folder)."""
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    roots = []
    for parent, keep in (("Sources", lambda name: True), ("Tests", lambda name: not name.endswith("Tests"))):
        folder = os.path.join(root, parent)
        roots += [os.path.join(parent, name) for name in sorted(os.listdir(folder))
                  if os.path.isdir(os.path.join(folder, name)) and keep(name)]
    if os.path.isdir(os.path.join(root, "Fuzz")):
        roots.append("Fuzz")
    os.chdir(root)
    return roots


def main():
    roots = sys.argv[1:] or default_roots()
    found = []
    for root in roots:
        for folder, _, names in os.walk(root):
            for name in sorted(names):
                if name.endswith(".swift"):
                    path = os.path.join(folder, name)
                    found += [(path, *f) for f in functions(path)]
    over = [f for f in found if f[3] > MAX_LINES or f[4] > MAX_WITH_UNSAFE]
    bad = []
    for f in over:
        allowed = KNOWN_EXCEPTIONS.get((f[0], f[1]))
        if allowed and f[3] <= allowed[0] and f[4] <= allowed[1]:
            print(f"known exception: {f[0]}:{f[2]} {f[1]}: {f[3]} lines, {f[4]} withUnsafe")
        else:
            bad.append(f)
    sys.stdout.flush()
    for path, name, line, lines, unsafe in sorted(found, key=lambda f: -f[3])[:5]:
        print(f"largest: {path}:{line} {name}: {lines} lines, {unsafe} withUnsafe")
    for path, name, line, unsafe in [(f[0], f[1], f[2], f[4]) for f in sorted(found, key=lambda f: -f[4])[:3]]:
        print(f"most withUnsafe: {path}:{line} {name}: {unsafe}")
    for path, name, line, lines, unsafe in bad:
        print(f"error: {path}:{line}: {name} has {lines} lines (max {MAX_LINES}) "
              f"and {unsafe} withUnsafe calls (max {MAX_WITH_UNSAFE})", file=sys.stderr)
    print(f"{len(found)} functions checked in {len(roots)} folders; {len(bad)} over the limits "
          f"(max {MAX_LINES} lines, {MAX_WITH_UNSAFE} withUnsafe calls)")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
