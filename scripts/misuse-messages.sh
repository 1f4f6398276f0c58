#!/usr/bin/env bash
# Checks that misuse of the API (a stale snapshot, an index out of range) stops the
# program with its message in a release build too, where `precondition` messages are
# stripped: builds Tests/MisuseMessages (misuse-messages) with -c release (or the
# configuration given), runs each case, and expects a non-zero exit and the whole
# expected message on standard error. The cases and messages are
# MisuseMessageTests.expectations, read with their Swift string escapes undone whether
# a tuple takes one line or several (swift-format breaks the long ones), and every case
# the executable knows must have one.
# usage: scripts/misuse-messages.sh [release|debug]
set -u
config=${1:-release}
cd "$(dirname "$0")/.."
swift build -c "$config" --product misuse-messages >/dev/null || { echo "misuse-messages: build failed"; exit 1; }
bin="$(swift build -c "$config" --show-bin-path)/misuse-messages"
# The expectations, read from the test so the two lists cannot drift apart: name, NUL,
# message, NUL for each. The message is one string literal or several joined by `+`.
expectations() {
    python3 - Tests/BatchGeometryTests/MisuseMessageTests.swift <<'PY'
import re, sys
text = open(sys.argv[1], encoding="utf-8").read()
start = text.index("static let expectations")
body = text[text.index("= [", start) + 3:text.index("\n    ]\n", start)]
literal = r'"((?:[^"\\\n]|\\.)*)"'
escapes = {"n": "\n", "t": "\t", "r": "\r", "0": "\0", '"': '"', "'": "'", "\\": "\\"}
def unescape(s):
    s = re.sub(r"\\u\{([0-9a-fA-F]+)\}", lambda m: chr(int(m.group(1), 16)), s)
    return re.sub(r"\\(.)", lambda m: escapes[m.group(1)], s)
pairs = re.findall(r"\(\s*" + literal + r"\s*,\s*((?:" + literal + r"\s*\+?\s*)+)\)\s*,", body)
# Every tuple must be read: its opening parentheses, outside the strings, are counted.
tuples = re.sub(literal, '""', body).count("(")
assert len(pairs) == tuples, f"misuse-messages: read {len(pairs)} of the {tuples} expectations"
for name, message, _ in pairs:
    sys.stdout.write(name + "\0" + "".join(unescape(m) for m in re.findall(literal, message)) + "\0")
PY
}
passed=0 failed=0 names=()
while IFS= read -r -d '' name && IFS= read -r -d '' message; do
    names+=("$name")
    stderr=$("$bin" "$name" 2>&1 >/dev/null)
    status=$?
    # A quoted pattern is literal: the whole message, newlines and all, must appear.
    if [ "$status" -ne 0 ] && [[ "$stderr" == *"$message"* ]]; then
        passed=$((passed + 1))
        echo "ok   $name: $(printf '%s' "$message" | head -1 | cut -c1-160)"
    else
        failed=$((failed + 1))
        echo "FAIL $name: exit $status, expected: $(printf '%s' "$message" | head -c 300)"
        echo "     stderr: $(printf '%s' "$stderr" | head -c 300)"
    fi
done < <(expectations)
# The executable's cases, from its usage line: each must have an expectation.
cases=$("$bin" 2>/dev/null | sed -n 's/.*(cases: \(.*\)).*/\1/p' | tr -d ' ' | tr ',' '\n')
missing=$(comm -23 <(printf '%s\n' "$cases" | sort) <(printf '%s\n' "${names[@]}" | sort))
if [ -z "$cases" ] || [ -n "$missing" ]; then
    failed=$((failed + 1))
    echo "FAIL cases without an expectation (or no usage line from $bin):" $missing
fi
echo "misuse-messages ($config): $passed passed, $failed failed"
[ "$failed" -eq 0 ] && [ "$passed" -gt 0 ]
