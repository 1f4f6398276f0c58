#!/usr/bin/env python3
"""The two checks of scripts/docs.sh that docc does not make itself.

  docs-check.py curation GRAPH_DIR ARCHIVE CATALOG
      Every public symbol in the symbol graphs of GRAPH_DIR (the ones handed to docc) is
      listed in a topic group that the catalog wrote (docc curates a forgotten symbol
      under its type by itself, silently). Read from docc's own output, so links resolve
      exactly as docc resolved them (overloads, relative links, extension files):
      ARCHIVE/data/documentation/**.json gives each page's symbol (metadata.externalID)
      and its topic groups; groups docc generated ("generated": true) do not count.
      Members the compiler synthesizes (Equatable's !=, OptionSet's set algebra, ...)
      are left to docc's "Default Implementations". Symbols declared in
      CoreGraphicsInterop.swift exist only where CoreGraphics can be imported, so the
      catalog names them in code voice (`Point/cgPoint`) instead of linking them (a link
      would not resolve on Linux); on such a platform that mention counts.

  docs-check.py article ARTICLE TEST
      The one ```swift block of ARTICLE appears in TEST: each of its non-blank lines,
      compared without leading and trailing whitespace, is a line of TEST, in the same
      order (TEST may have more lines in between: its assertions).

Prints one line per problem and a summary line; exits 1 when there is a problem.
"""
import json
import os
import re
import sys


def curation(graph_dir, archive, catalog):
    symbols = {}  # precise identifier -> (path, file:line)
    for name in sorted(os.listdir(graph_dir)):
        if not name.endswith(".symbols.json"):
            continue
        with open(os.path.join(graph_dir, name)) as f:
            graph = json.load(f)
        for symbol in graph["symbols"]:
            precise = symbol["identifier"]["precise"]
            if "::SYNTHESIZED::" in precise:
                continue
            location = symbol.get("location", {})
            where = "%s:%d" % (location.get("uri", "?").rsplit("/", 1)[-1],
                               location.get("position", {}).get("line", -1) + 1)
            symbols[precise] = ("/".join(symbol["pathComponents"]), where)
    if not symbols:
        print("docs-check: no symbols in %s" % graph_dir)
        return 1

    pages = {}  # precise identifier -> page URL
    curated = set()
    data = os.path.join(archive, "data", "documentation")
    for root, _, files in os.walk(data):
        for name in files:
            if not name.endswith(".json"):
                continue
            with open(os.path.join(root, name)) as f:
                page = json.load(f)
            external = page.get("metadata", {}).get("externalID")
            if external:
                pages[external] = page["identifier"]["url"]
            for section in page.get("topicSections", []):
                if not section.get("generated", False):
                    curated.update(section.get("identifiers", []))

    text = ""
    for root, _, files in os.walk(catalog):
        for name in files:
            if name.endswith(".md"):
                with open(os.path.join(root, name)) as f:
                    text += f.read()

    missing = []
    for precise, (path, where) in symbols.items():
        if pages.get(precise) in curated:
            continue
        if where.startswith("CoreGraphicsInterop.swift:") and ("`%s`" % path) in text:
            continue
        missing.append((path, where, precise in pages))
    for path, where, has_page in sorted(missing):
        print("docs-check: not in any topic group: ``%s`` (%s)%s"
              % (path, where, "" if has_page else "; docc made no page for it"))
    print("docs-check: %d public symbols, %d not curated" % (len(symbols), len(missing)))
    return 1 if missing else 0


def article(article_path, test_path):
    with open(article_path) as f:
        blocks = re.findall(r"^```swift\n(.*?)^```$", f.read(), re.S | re.M)
    if len(blocks) != 1:
        print("docs-check: %s has %d ```swift blocks, expected 1" % (article_path, len(blocks)))
        return 1
    # Runs of spaces count as one: swift-format realigns end-of-line comments in the test.
    def normalized(line):
        return " ".join(line.split())
    with open(test_path) as f:
        test_lines = [normalized(line) for line in f]
    position = 0
    checked = 0
    for number, line in enumerate(blocks[0].splitlines(), 1):
        line = normalized(line)
        if not line:
            continue
        try:
            position = test_lines.index(line, position) + 1
        except ValueError:
            print("docs-check: line %d of the article's code block is not in %s (in order): %s"
                  % (number, test_path, line))
            print("docs-check: keep the test identical to the article's code block")
            return 1
        checked += 1
    print("docs-check: the article's code block (%d lines) is in %s" % (checked, test_path))
    return 0


if __name__ == "__main__":
    if len(sys.argv) == 5 and sys.argv[1] == "curation":
        sys.exit(curation(*sys.argv[2:]))
    if len(sys.argv) == 4 and sys.argv[1] == "article":
        sys.exit(article(*sys.argv[2:]))
    sys.exit(__doc__)
