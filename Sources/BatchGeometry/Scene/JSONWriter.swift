// Writing JSON text: numbers in shortest round-trip form, strings escaped.

/// Appends `value` as JSON: the shortest decimal that reads back to the same double
/// (`Double.description`, e.g. `375.0`, `-0.0`, `5e-324`, `1.7976931348623157e+308`),
/// or one of the strings `"NaN"`, `"+Infinity"`, `"-Infinity"` (JSON has no non-finite
/// numbers; the scene reader accepts these strings back).
func appendJSONNumber(_ value: Double, to output: inout String) {
    if value.isNaN {
        output += "\"NaN\""
    } else if value.isInfinite {
        output += value > 0 ? "\"+Infinity\"" : "\"-Infinity\""
    } else {
        // Swift's description is shortest round-trip, and its forms ("1e-05", "-0.0",
        // "1e+16") are all valid JSON numbers.
        output += value.description
    }
}

/// Appends the numbers as a JSON array, `[a, b, ...]`.
func appendJSONNumbers(_ values: [Double], to output: inout String) {
    output += "["
    for (index, value) in values.enumerated() {
        if index > 0 { output += ", " }
        appendJSONNumber(value, to: &output)
    }
    output += "]"
}

/// Appends the characters of `text` escaped for a JSON string (without the quotes):
/// `"` and `\` escaped, control characters as `\n`, `\t`, ... or `\u00XX`; everything
/// else as UTF-8.
func appendJSONEscaped(_ text: String, to output: inout String) {
    for scalar in text.unicodeScalars {
        switch scalar {
        case "\"": output += "\\\""
        case "\\": output += "\\\\"
        case "\n": output += "\\n"
        case "\r": output += "\\r"
        case "\t": output += "\\t"
        case "\u{08}": output += "\\b"
        case "\u{0C}": output += "\\f"
        default:
            if scalar.value < 0x20 {
                let hex = String(scalar.value, radix: 16, uppercase: true)
                output += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            } else {
                output.unicodeScalars.append(scalar)
            }
        }
    }
}
