#!/usr/bin/env python3
"""The conformance check, in-repo: evaluates every *.scene.json of the given folders
with `BIN eval` and compares the output with the *.expected.json next to it.

usage: scripts/conformance.py [--bin PATH] [DIR ...]

  --bin PATH  the batchbench binary (default .build/release/batchbench)
  DIR         folders of cases (default Tests/BatchGeometryTests/Fixtures/conformance,
              its device/, its opacity/ and its animation/)

Comparison rules (docs/GEOMETRY.md section 1; docs/SCENE-FORMAT.md "Output"):
  - frame, bounds, position, opacity and worldOpacity must be the same doubles, bit for
    bit (so 0.0 and -0.0 differ); every other number may differ by 1e-9 relative, or 1e-9 absolute near 0;
  - NaN matches NaN; an infinity matches only the same infinity;
  - the strings "+Infinity", "-Infinity" and "NaN" stand for those numbers, on both
    sides;
  - a null entry in the expected layers is a removed layer: the output's entry must be
    null too;
  - only the keys the expected file has are compared: for each layer, every key of its
    expected entry; at the top level, drawOrder, hits and conversions when present;
  - presentation (docs/SCENE-FORMAT.md "Animations and time"), when the expected file
    has it: each sample's time and finished list exactly, every layer number (frame,
    bounds and position included: the presentation tree goes through exp, sin, acos)
    within 1e-9, a null layer entry only for a null one;
  - the curve outputs (docs/SCENE-FORMAT.md "Animations and time", docs/ANIMATION.md),
    when the expected file has them: timingFunctionOutputs and spring values bit for
    bit (32-bit floats written as doubles), deceleration target and offsets bit for
    bit, every other number (durations, spring coefficients, rubber bands) within 1e-9.

Prints one line per failing case with its first differences, then a last line
'N passed, M failed'. Exit status 0 when every case passes (and there was at least
one), 1 otherwise, 2 for bad usage. Python 3 standard library only.
"""

import json
import math
import os
import struct
import subprocess
import sys

DEFAULT_BIN = ".build/release/batchbench"
DEFAULT_DIRS = (
    "Tests/BatchGeometryTests/Fixtures/conformance",
    "Tests/BatchGeometryTests/Fixtures/conformance/device",
    "Tests/BatchGeometryTests/Fixtures/conformance/opacity",
    "Tests/BatchGeometryTests/Fixtures/conformance/animation",
)
BIT_EXACT_KEYS = ("frame", "bounds", "position", "opacity", "worldOpacity")
TOP_LEVEL_KEYS = ("drawOrder", "hits", "conversions")
# The curve outputs: per top-level key, the fields compared bit for bit (None: the whole
# value is); every other field of an entry within the tolerance.
CURVE_KEYS = {
    "timingFunctionOutputs": None,
    "springOutputs": ("values",),
    "viewSpringOutputs": (),
    "decelerationOutputs": ("target", "offsets"),
    "rubberBandOutputs": (),
}
TOLERANCE = 1e-9
WORDS = {"+Infinity": math.inf, "-Infinity": -math.inf, "NaN": math.nan}
SHOWN_DIFFERENCES = 3
TIMEOUT_S = 120


def as_number(value):
    """The double a JSON value stands for, or None when it is not a number."""
    if isinstance(value, bool):  # bool is an int in Python; never a number here
        return None
    if isinstance(value, (int, float)):
        return float(value)
    if isinstance(value, str) and value in WORDS:
        return WORDS[value]
    return None


def bits(x):
    return struct.pack("<d", x)


def numbers_match(got, want, exact):
    if math.isnan(want) or math.isnan(got):
        return math.isnan(want) and math.isnan(got)
    if exact:
        return bits(got) == bits(want)
    if math.isinf(want) or math.isinf(got):
        return got == want
    return abs(got - want) <= max(TOLERANCE * max(abs(got), abs(want)), TOLERANCE)


def show(value):
    text = json.dumps(value)
    return text if len(text) <= 120 else text[:117] + "..."


def compare(got, want, path, exact, out):
    """Appends to `out` a description of each place where `got` differs from `want`."""
    want_number, got_number = as_number(want), as_number(got)
    if want_number is not None:
        if got_number is None:
            out.append(f"{path}: got {show(got)}, expected the number {show(want)}")
        elif not numbers_match(got_number, want_number, exact):
            rule = "bit for bit" if exact else "within 1e-9"
            out.append(f"{path}: got {show(got)}, expected {show(want)} ({rule})")
        return
    if isinstance(want, list):
        if not isinstance(got, list):
            out.append(f"{path}: got {show(got)}, expected an array of {len(want)}")
        elif len(got) != len(want):
            out.append(f"{path}: got {len(got)} elements, expected {len(want)}")
        else:
            for index, (g, w) in enumerate(zip(got, want)):
                compare(g, w, f"{path}[{index}]", exact, out)
        return
    if isinstance(want, dict):
        if not isinstance(got, dict):
            out.append(f"{path}: got {show(got)}, expected an object")
            return
        for key, w in want.items():
            if key not in got:
                out.append(f"{path}.{key}: missing")
            else:
                compare(got[key], w, f"{path}.{key}", exact, out)
        return
    # null, bool, or a string that is not a number word: must be the same value and type.
    if type(got) is not type(want) or got != want:
        out.append(f"{path}: got {show(got)}, expected {show(want)}")


def entry_kind(entry):
    return "null (a removed layer)" if entry is None else "an entry"


def differences(output, expected):
    """Every difference between an eval output document and an expected document."""
    out = []
    if not isinstance(output, dict):
        return ["output: not a JSON object"]
    if not isinstance(expected, dict) or not isinstance(expected.get("layers"), list):
        return ["expected file: not an object with a \"layers\" array"]
    got_layers, want_layers = output.get("layers"), expected["layers"]
    if not isinstance(got_layers, list):
        out.append("layers: missing or not an array")
    elif len(got_layers) != len(want_layers):
        out.append(f"layers: got {len(got_layers)} entries, expected {len(want_layers)}")
    else:
        for index, (got, want) in enumerate(zip(got_layers, want_layers)):
            path = f"layers[{index}]"
            if want is None or got is None:
                if not (want is None and got is None):
                    out.append(f"{path}: got {entry_kind(got)}, expected {entry_kind(want)}")
                continue
            if not isinstance(want, dict) or not isinstance(got, dict):
                out.append(f"{path}: got {show(got)}, expected {show(want)}")
                continue
            for key, value in want.items():
                if key not in got:
                    out.append(f"{path}.{key}: missing")
                else:
                    compare(got[key], value, f"{path}.{key}", key in BIT_EXACT_KEYS, out)
    for key in TOP_LEVEL_KEYS:
        if key in expected:
            if key not in output:
                out.append(f"{key}: missing")
            else:
                compare(output[key], expected[key], key, False, out)
    presentation_differences(output, expected, out)
    curve_differences(output, expected, out)
    return out


def presentation_differences(output, expected, out):
    """Appends the differences in `presentation` when the expected document has it."""
    if "presentation" not in expected:
        return
    got_samples, want_samples = output.get("presentation"), expected["presentation"]
    if not isinstance(got_samples, list) or len(got_samples) != len(want_samples):
        out.append(f"presentation: expected {len(want_samples)} samples")
        return
    for index, (got, want) in enumerate(zip(got_samples, want_samples)):
        path = f"presentation[{index}]"
        if not isinstance(got, dict):
            out.append(f"{path}: not an object")
            continue
        compare(got.get("time"), want["time"], f"{path}.time", True, out)
        if "finished" in want and got.get("finished") != want["finished"]:
            out.append(f"{path}.finished: got {show(got.get('finished'))}, expected {show(want['finished'])}")
        got_layers, want_layers = got.get("layers"), want["layers"]
        if not isinstance(got_layers, list) or len(got_layers) != len(want_layers):
            out.append(f"{path}.layers: expected {len(want_layers)} entries")
            continue
        for layer, (g, w) in enumerate(zip(got_layers, want_layers)):
            if g is None or w is None:
                if not (g is None and w is None):
                    out.append(f"{path}.layers[{layer}]: got {entry_kind(g)}, expected {entry_kind(w)}")
                continue
            compare(g, w, f"{path}.layers[{layer}]", False, out)


def curve_differences(output, expected, out):
    """Appends the differences in the curve outputs the expected document has."""
    for key, exact_fields in CURVE_KEYS.items():
        if key not in expected:
            continue
        if key not in output:
            out.append(f"{key}: missing")
        elif exact_fields is None or not isinstance(expected[key], list):
            compare(output[key], expected[key], key, exact_fields is None, out)
        elif not isinstance(output[key], list) or len(output[key]) != len(expected[key]):
            out.append(f"{key}: got {show(output[key])}, expected {len(expected[key])} entries")
        else:
            for index, (got, want) in enumerate(zip(output[key], expected[key])):
                path = f"{key}[{index}]"
                if not isinstance(want, dict) or not isinstance(got, dict):
                    compare(got, want, path, False, out)
                    continue
                for field, value in want.items():
                    if field not in got:
                        out.append(f"{path}.{field}: missing")
                    else:
                        compare(got[field], value, f"{path}.{field}", field in exact_fields, out)


def run_case(binary, scene):
    """The differences for one scene file (empty when it passes)."""
    expected_path = scene[: -len(".scene.json")] + ".expected.json"
    try:
        with open(expected_path, encoding="utf-8") as file:
            expected = json.load(file)
    except (OSError, ValueError) as error:
        return [f"expected file {expected_path}: {error}"]
    try:
        run = subprocess.run([binary, "eval", scene], capture_output=True, timeout=TIMEOUT_S)
    except subprocess.TimeoutExpired:
        return [f"{binary} eval: no answer within {TIMEOUT_S} s"]
    except OSError as error:
        return [f"cannot run {binary}: {error}"]
    if run.returncode != 0:
        stderr = run.stderr.decode("utf-8", "replace").strip().splitlines()
        return [f"{binary} eval exited {run.returncode}" + (f": {stderr[0][:200]}" if stderr else "")]
    try:
        output = json.loads(run.stdout.decode("utf-8"))
    except (UnicodeDecodeError, ValueError) as error:
        return [f"stdout is not JSON: {error}"]
    return differences(output, expected)


def parse_arguments(arguments):
    binary, folders = DEFAULT_BIN, []
    index = 0
    while index < len(arguments):
        argument = arguments[index]
        if argument in ("-h", "--help"):
            print(__doc__.strip())
            sys.exit(0)
        if argument == "--bin":
            if index + 1 >= len(arguments):
                usage("--bin needs a path")
            binary = arguments[index + 1]
            index += 2
        elif argument.startswith("--bin="):
            binary = argument[len("--bin="):]
            index += 1
        elif argument.startswith("-") and argument != "-":
            usage(f"unknown option {argument}")
        else:
            folders.append(argument)
            index += 1
    return binary, folders or list(DEFAULT_DIRS)


def usage(message):
    print(f"error: {message}\nusage: scripts/conformance.py [--bin PATH] [DIR ...]", file=sys.stderr)
    sys.exit(2)


def main():
    binary, folders = parse_arguments(sys.argv[1:])
    if os.sep not in binary:
        binary = os.path.join(".", binary)  # a bare name is a file here, not a PATH lookup
    if not (os.path.isfile(binary) and os.access(binary, os.X_OK)):
        usage(f"{binary} is not an executable file (build it: swift build -c release)")
    scenes = []
    for folder in folders:
        if not os.path.isdir(folder):
            usage(f"{folder} is not a folder")
        names = sorted(n for n in os.listdir(folder) if n.endswith(".scene.json"))
        if not names:
            print(f"warning: no *.scene.json in {folder}", file=sys.stderr)
        scenes.extend(os.path.join(folder, name) for name in names)
    passed = failed = 0
    for scene in scenes:
        problems = run_case(binary, scene)
        if problems:
            failed += 1
            more = len(problems) - SHOWN_DIFFERENCES
            shown = "; ".join(problems[:SHOWN_DIFFERENCES]) + (f"; ... {more} more" if more > 0 else "")
            print(f"FAIL {scene}: {shown}", flush=True)
        else:
            passed += 1
    if not scenes:
        print("error: no cases found", file=sys.stderr)
    print(f"{passed} passed, {failed} failed")
    sys.exit(0 if scenes and failed == 0 else 1)


if __name__ == "__main__":
    main()
