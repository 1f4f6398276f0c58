// A pull reader for JSON (RFC 8259) over UTF-8 bytes, without Foundation.
//
// The scene decoder asks for what the schema expects next ("an object", "a number"),
// so no document tree is ever built and nothing recurses: a value of the wrong type is
// reported where it starts, whatever is nested inside it. That bounds both memory (a
// 100 MB scene costs its layer store, not a tree of boxed values) and stack depth
// (`[[[[…` a million deep is a type error at its first bracket, not a stack overflow).

/// What kind of JSON value starts at the reader's position.
enum JSONValueKind {
    case object, array, string, number, `true`, `false`, null

    /// "an object", "true", ... for "expected X, got Y" messages.
    var phrase: String {
        switch self {
        case .object: return "an object"
        case .array: return "an array"
        case .string: return "a string"
        case .number: return "a number"
        case .true: return "true"
        case .false: return "false"
        case .null: return "null"
        }
    }
}

struct JSONReader {
    let bytes: RawList<UInt8>
    private(set) var offset = 0

    init(bytes: RawList<UInt8>) {
        self.bytes = bytes
        // A UTF-8 byte order mark is allowed and ignored (RFC 8259 section 8.1).
        if bytes.count >= 3 && bytes[0] == 0xEF && bytes[1] == 0xBB && bytes[2] == 0xBF { offset = 3 }
    }

    // MARK: Errors

    /// A syntax error at the current offset, with line and column (1-based, columns in
    /// bytes) so the spot can be found in an editor.
    func syntaxError(_ detail: String, _ path: ScenePath) -> SceneError {
        var line = 1
        var lineStart = 0
        for index in 0..<Swift.min(offset, bytes.count) where bytes[index] == 0x0A {
            line += 1
            lineStart = index + 1
        }
        return path.error("invalid JSON at line \(line), column \(offset - lineStart + 1) (byte \(offset)): \(detail)")
    }

    /// "found 'x'" or "found end of input" for the byte at the current offset.
    private var found: String {
        guard offset < bytes.count else { return "found end of input" }
        let byte = bytes[offset]
        if byte >= 0x20 && byte < 0x7F { return "found '\(Character(Unicode.Scalar(byte)))'" }
        return "found byte 0x\(String(byte, radix: 16, uppercase: true))"
    }

    func typeError(expected: String, _ path: ScenePath) -> SceneError {
        var atValue = self
        atValue.skipWhitespace()
        guard let kind = peekKind() else { return atValue.syntaxError("expected a value, \(atValue.found)", path) }
        // `tru` or `nul` starts like a literal but is not one: a syntax error, not a type.
        let literal: StaticString? = kind == .true ? "true" : kind == .false ? "false" : kind == .null ? "null" : nil
        if let literal, !atValue.matchLiteral(literal) {
            return atValue.syntaxError("invalid literal (expected \(literal))", path)
        }
        return path.error("expected \(expected), got \(kind.phrase)")
    }

    // MARK: Structure

    mutating func skipWhitespace() {
        while offset < bytes.count {
            switch bytes[offset] {
            case 0x20, 0x0A, 0x0D, 0x09: offset += 1
            default: return
            }
        }
    }

    /// The kind of the value at the current position (after whitespace), or nil when no
    /// value starts there.
    func peekKind() -> JSONValueKind? {
        var position = offset
        while position < bytes.count, [0x20, 0x0A, 0x0D, 0x09].contains(bytes[position]) { position += 1 }
        guard position < bytes.count else { return nil }
        switch bytes[position] {
        case UInt8(ascii: "{"): return .object
        case UInt8(ascii: "["): return .array
        case UInt8(ascii: "\""): return .string
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return .number
        case UInt8(ascii: "t"): return .true
        case UInt8(ascii: "f"): return .false
        case UInt8(ascii: "n"): return .null
        default: return nil
        }
    }

    /// Consumes `{`; a value of another type is a type error naming `expected`.
    mutating func beginObject(_ path: ScenePath, expected: String = "an object") throws(SceneError) {
        skipWhitespace()
        guard offset < bytes.count, bytes[offset] == UInt8(ascii: "{") else {
            throw typeError(expected: expected, path)
        }
        offset += 1
    }

    /// The next key of the object (after its `:`), or nil at the closing `}`. `first`
    /// starts true and tracks whether a `,` is due.
    mutating func nextKey(first: inout Bool, _ path: ScenePath) throws(SceneError) -> String? {
        skipWhitespace()
        if offset < bytes.count && bytes[offset] == UInt8(ascii: "}") {
            offset += 1
            return nil
        }
        if !first {
            guard offset < bytes.count, bytes[offset] == UInt8(ascii: ",") else {
                throw syntaxError("expected ',' or '}' after an object member, \(found)", path)
            }
            offset += 1
            skipWhitespace()
        }
        first = false
        guard offset < bytes.count, bytes[offset] == UInt8(ascii: "\"") else {
            throw syntaxError("expected a key in double quotes, \(found)", path)
        }
        let key = try readStringToken(path)
        skipWhitespace()
        guard offset < bytes.count, bytes[offset] == UInt8(ascii: ":") else {
            throw syntaxError("expected ':' after the key, \(found)", path)
        }
        offset += 1
        return key
    }

    /// Consumes `[`; a value of another type is a type error naming `expected`.
    mutating func beginArray(_ path: ScenePath, expected: String = "an array") throws(SceneError) {
        skipWhitespace()
        guard offset < bytes.count, bytes[offset] == UInt8(ascii: "[") else {
            throw typeError(expected: expected, path)
        }
        offset += 1
    }

    /// True when another element follows (the reader is then at it), false at the
    /// closing `]` (consumed).
    mutating func nextElement(first: inout Bool, _ path: ScenePath) throws(SceneError) -> Bool {
        skipWhitespace()
        if offset < bytes.count && bytes[offset] == UInt8(ascii: "]") {
            offset += 1
            return false
        }
        if !first {
            guard offset < bytes.count, bytes[offset] == UInt8(ascii: ",") else {
                throw syntaxError("expected ',' or ']' after an array element, \(found)", path)
            }
            offset += 1
        }
        first = false
        return true
    }

    /// Fails unless only whitespace is left.
    mutating func expectEnd() throws(SceneError) {
        skipWhitespace()
        if offset < bytes.count { throw syntaxError("unexpected data after the scene object, \(found)", .document) }
    }

    // MARK: Scalars

    /// Consumes `null` if it is next; true if it was.
    mutating func skipNull() -> Bool {
        guard peekKind() == .null else { return false }
        skipWhitespace()
        guard matchLiteral("null") else { return false }
        return true
    }

    mutating func readBool(_ path: ScenePath) throws(SceneError) -> Bool {
        skipWhitespace()
        if matchLiteral("true") { return true }
        if matchLiteral("false") { return false }
        throw typeError(expected: "true or false", path)
    }

    mutating func readString(_ path: ScenePath, expected: String = "a string") throws(SceneError) -> String {
        skipWhitespace()
        guard offset < bytes.count, bytes[offset] == UInt8(ascii: "\"") else {
            throw typeError(expected: expected, path)
        }
        return try readStringToken(path)
    }

    /// A number: a JSON number, or one of the strings "NaN", "+Infinity", "-Infinity".
    mutating func readNumber(_ path: ScenePath) throws(SceneError) -> Double {
        skipWhitespace()
        if offset < bytes.count && bytes[offset] == UInt8(ascii: "\"") {
            let text = try readStringToken(path)
            switch text {
            case "NaN": return .nan
            case "+Infinity": return .infinity
            case "-Infinity": return -.infinity
            default:
                throw path.error(
                    "expected a number, got the string \(quoted(text)) (only \"NaN\", \"+Infinity\" and \"-Infinity\" stand for numbers)"
                )
            }
        }
        guard peekKind() == .number else { throw typeError(expected: "a number", path) }
        return try readNumberToken(path).value
    }

    /// A layer index: a number with an integral value (`3`, `3.0`). `text` is the number
    /// as written, for messages.
    mutating func readIndex(_ path: ScenePath) throws(SceneError) -> Int {
        skipWhitespace()
        guard peekKind() == .number else { throw typeError(expected: "a layer index", path) }
        let (value, text) = try readNumberToken(path)
        // 2^53: every integer up to here is exact, and any such index is out of range.
        guard value == value.rounded(.towardZero), Swift.abs(value) <= 9_007_199_254_740_992 else {
            throw path.error("expected a layer index (a whole number), got \(text)")
        }
        return Int(value)
    }

    // MARK: Tokens

    private mutating func matchLiteral(_ literal: StaticString) -> Bool {
        let count = literal.utf8CodeUnitCount
        guard offset + count <= bytes.count else { return false }
        let start = literal.utf8Start
        for index in 0..<count where bytes[offset + index] != start[index] { return false }
        offset += count
        return true
    }

    /// Reads a number token (RFC 8259 grammar) and converts it, correctly rounded, with
    /// the standard library's parser. A finite token too large for a Double is an error
    /// rather than a silent infinity.
    private mutating func readNumberToken(_ path: ScenePath) throws(SceneError) -> (value: Double, text: String) {
        let start = offset
        func digits() -> Int {
            let first = offset
            while offset < bytes.count, bytes[offset] >= UInt8(ascii: "0"), bytes[offset] <= UInt8(ascii: "9") {
                offset += 1
            }
            return offset - first
        }
        if offset < bytes.count && bytes[offset] == UInt8(ascii: "-") { offset += 1 }
        let integerStart = offset
        let integerDigits = digits()
        guard integerDigits > 0 else { throw syntaxError("invalid number: expected a digit, \(found)", path) }
        if integerDigits > 1 && bytes[integerStart] == UInt8(ascii: "0") {
            offset = integerStart + 1
            throw syntaxError("invalid number: leading zero", path)
        }
        if offset < bytes.count && bytes[offset] == UInt8(ascii: ".") {
            offset += 1
            guard digits() > 0 else { throw syntaxError("invalid number: expected a digit after '.', \(found)", path) }
        }
        if offset < bytes.count && (bytes[offset] == UInt8(ascii: "e") || bytes[offset] == UInt8(ascii: "E")) {
            offset += 1
            if offset < bytes.count && (bytes[offset] == UInt8(ascii: "+") || bytes[offset] == UInt8(ascii: "-")) {
                offset += 1
            }
            guard digits() > 0 else {
                throw syntaxError("invalid number: expected a digit in the exponent, \(found)", path)
            }
        }
        let text = bytes.string(start..<offset)
        guard let value = Double(text) else { throw syntaxError("invalid number \(text)", path) }
        if !value.isFinite {
            throw path.error("\(text) is too large for a double (write \"+Infinity\" or \"-Infinity\" for infinity)")
        }
        return (value, text)
    }

    /// Reads a string token starting at its opening quote: escapes decoded (surrogate
    /// pairs joined), raw control characters and invalid UTF-8 rejected.
    private mutating func readStringToken(_ path: ScenePath) throws(SceneError) -> String {
        offset += 1  // the opening quote
        let start = offset
        var hasEscapes = false
        while true {
            guard offset < bytes.count else { throw syntaxError("unterminated string", path) }
            let byte = bytes[offset]
            if byte == UInt8(ascii: "\"") { break }
            if byte < 0x20 { throw syntaxError("control character in a string (escape it)", path) }
            if byte == UInt8(ascii: "\\") {
                hasEscapes = true
                offset += 2
                continue
            }
            offset += 1
        }
        let end = offset
        offset += 1  // the closing quote
        let raw = bytes.slice(start..<end)
        let text: String?
        if hasEscapes {
            var decoded: [UInt8] = []
            decoded.reserveCapacity(raw.count)
            if let (index, detail) = Self.decodeEscapes(raw, into: &decoded) {
                offset = start + index
                throw syntaxError(detail, path)
            }
            text = String(validating: decoded, as: UTF8.self)
        } else {
            text = String(validating: raw, as: UTF8.self)
        }
        guard let text else {
            offset = start
            throw syntaxError("invalid UTF-8 in a string", path)
        }
        return text
    }

    /// Appends the bytes of the string body `raw` to `decoded` with its escapes decoded.
    /// Returns nil, or the offset in `raw` of a bad escape and what is wrong with it.
    private static func decodeEscapes(
        _ raw: RawList<UInt8>, into decoded: inout [UInt8]
    ) -> (index: Int, detail: String)? {
        var index = 0
        while index < raw.count {
            let byte = raw[index]
            guard byte == UInt8(ascii: "\\") else {
                decoded.append(byte)
                index += 1
                continue
            }
            guard index + 1 < raw.count else { return (index, "invalid escape") }
            let escape = raw[index + 1]
            switch escape {
            case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): decoded.append(escape)
            case UInt8(ascii: "b"): decoded.append(0x08)
            case UInt8(ascii: "f"): decoded.append(0x0C)
            case UInt8(ascii: "n"): decoded.append(0x0A)
            case UInt8(ascii: "r"): decoded.append(0x0D)
            case UInt8(ascii: "t"): decoded.append(0x09)
            case UInt8(ascii: "u"):
                switch unicodeEscape(raw, at: index) {
                case .success(let (scalar, length)):
                    decoded.append(contentsOf: Array(String(Character(scalar)).utf8))
                    index += length
                    continue
                case .failure(let problem): return (index, problem.detail)
                }
            default:
                // Quote the byte only when it is printable ASCII: a raw newline or tab here
                // would break the one-line error contract (found by the scene fuzzer).
                if escape > 0x20 && escape < 0x7F {
                    return (index, "invalid escape '\\\(Character(Unicode.Scalar(escape)))'")
                }
                return (index, "invalid escape: '\\' followed by byte 0x\(String(escape, radix: 16, uppercase: true))")
            }
            index += 2
        }
        return nil
    }

    private struct EscapeProblem: Error {
        let detail: String
    }

    /// The scalar of the `\u` escape at `index` of `raw` (a surrogate pair joined) and the
    /// escape's length in bytes (6, or 12 for a pair).
    private static func unicodeEscape(
        _ raw: RawList<UInt8>, at index: Int
    ) -> Result<(Unicode.Scalar, Int), EscapeProblem> {
        guard var value = hex4(raw, at: index + 2) else {
            return .failure(EscapeProblem(detail: "invalid \\u escape (expected 4 hex digits)"))
        }
        var length = 6
        if (0xD800...0xDBFF).contains(value) {
            guard index + 12 <= raw.count, raw[index + 6] == UInt8(ascii: "\\"), raw[index + 7] == UInt8(ascii: "u"),
                let low = hex4(raw, at: index + 8), (0xDC00...0xDFFF).contains(low)
            else {
                return .failure(EscapeProblem(detail: "unpaired surrogate in a \\u escape"))
            }
            value = 0x10000 + ((value - 0xD800) << 10) + (low - 0xDC00)
            length = 12
        }
        guard let scalar = Unicode.Scalar(value) else {
            return .failure(EscapeProblem(detail: "unpaired surrogate in a \\u escape"))
        }
        return .success((scalar, length))
    }

    /// The four hex digits at `position` of `raw` as a number, or nil.
    private static func hex4(_ raw: RawList<UInt8>, at position: Int) -> UInt32? {
        guard position + 4 <= raw.count else { return nil }
        var value: UInt32 = 0
        for byte in raw.slice(position..<position + 4) {
            let digit: UInt8
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = byte - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = byte - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = byte - UInt8(ascii: "A") + 10
            default: return nil
            }
            value = value * 16 + UInt32(digit)
        }
        return value
    }
}

/// `text` in double quotes with JSON escapes, for messages that quote input.
func quoted(_ text: String) -> String {
    var result = "\""
    appendJSONEscaped(text, to: &result)
    result += "\""
    return result
}
