#!/usr/bin/env bash
# Checks that misuse of the API (a stale snapshot, an index out of range) stops the
# program with its message in a release build too, where `precondition` messages are
# stripped: builds Tests/MisuseMessages (misuse-messages) with -c release (or the
# configuration given), runs each case, and expects a non-zero exit and the message on
# standard error. The cases and messages are MisuseMessageTests.expectations.
# usage: scripts/misuse-messages.sh [release|debug]
set -u
config=${1:-release}
cd "$(dirname "$0")/.."
swift build -c "$config" --product misuse-messages >/dev/null || { echo "misuse-messages: build failed"; exit 1; }
bin="$(swift build -c "$config" --show-bin-path)/misuse-messages"
# The expectations, read from the test so the two lists cannot drift apart.
expectations=$(sed -n 's/^ *("\([a-z-]*\)", "\(.*\)"),$/\1\t\2/p' Tests/BatchGeometryTests/MisuseMessageTests.swift)
[ -n "$expectations" ] || { echo "misuse-messages: no expectations found in MisuseMessageTests.swift"; exit 1; }
passed=0 failed=0
while IFS=$'\t' read -r name message; do
    stderr=$("$bin" "$name" 2>&1 >/dev/null)
    status=$?
    if [ "$status" -ne 0 ] && printf '%s' "$stderr" | grep -qF -- "$message"; then
        passed=$((passed + 1))
        echo "ok   $name: $(printf '%s' "$stderr" | grep -F -- "$message" | head -1 | cut -c1-160)"
    else
        failed=$((failed + 1))
        echo "FAIL $name: exit $status, stderr: $(printf '%s' "$stderr" | head -c 300)"
    fi
done <<< "$expectations"
echo "misuse-messages ($config): $passed passed, $failed failed"
[ "$failed" -eq 0 ]
