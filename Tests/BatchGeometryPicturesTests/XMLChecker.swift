// A small XML well-formedness checker for the pictures' output (no Foundation
// XMLParser): one root element, tags that balance, attributes quoted and not repeated,
// only the five predefined entities and character references, no `<` in values, and a
// prolog, comments and text only where XML allows them.

/// Why a document is not well-formed, with the offset (in Unicode scalars) of the problem.
struct XMLProblem: Error, CustomStringConvertible {
    var offset: Int
    var message: String
    var description: String { "offset \(offset): \(message)" }
}

struct XMLChecker {
    private let text: [Unicode.Scalar]
    private var index = 0
    private var open: [String] = []
    private var rootSeen = false

    /// Checks `document`; throws the first problem. Returns the number of elements.
    static func check(_ document: String) throws -> Int {
        var checker = XMLChecker(text: Array(document.unicodeScalars))
        return try checker.run()
    }

    private init(text: [Unicode.Scalar]) {
        self.text = text
    }

    private func fail(_ message: String) -> XMLProblem { XMLProblem(offset: index, message: message) }

    private func starts(with prefix: String) -> Bool {
        let scalars = Array(prefix.unicodeScalars)
        return index + scalars.count <= text.count && Array(text[index..<index + scalars.count]) == scalars
    }

    private mutating func run() throws -> Int {
        var elements = 0
        if starts(with: "<?xml") { try skipPast("?>") }
        while index < text.count {
            if starts(with: "<!--") {
                index += 4
                try skipComment()
            } else if starts(with: "</") {
                try readEndTag()
            } else if text[index] == "<" {
                elements += 1
                try readStartTag()
            } else {
                try readText()
            }
        }
        guard open.isEmpty else { throw fail("unclosed elements: \(open)") }
        guard rootSeen else { throw fail("no root element") }
        return elements
    }

    private mutating func skipPast(_ end: String) throws {
        while index < text.count && !starts(with: end) { index += 1 }
        guard index < text.count else { throw fail("missing '\(end)'") }
        index += end.unicodeScalars.count
    }

    private mutating func skipComment() throws {
        while index < text.count && !starts(with: "--") { index += 1 }
        guard starts(with: "-->") else { throw fail("'--' inside a comment, or an unclosed comment") }
        index += 3
    }

    private mutating func readName() throws -> String {
        var name = ""
        while index < text.count, isNameScalar(text[index]) {
            name.unicodeScalars.append(text[index])
            index += 1
        }
        guard let first = name.unicodeScalars.first, !("0"..."9").contains(first), first != "-", first != "." else {
            throw fail("expected a name")
        }
        return name
    }

    private func isNameScalar(_ s: Unicode.Scalar) -> Bool {
        ("a"..."z").contains(s) || ("A"..."Z").contains(s) || ("0"..."9").contains(s) || s == "-" || s == "_"
            || s == ":" || s == "." || s.value > 0x7F
    }

    private mutating func skipSpace() -> Bool {
        let start = index
        while index < text.count, [" ", "\n", "\t", "\r"].contains(text[index]) { index += 1 }
        return index > start
    }

    private mutating func readStartTag() throws {
        guard open.isEmpty ? !rootSeen : true else { throw fail("a second root element") }
        rootSeen = true
        index += 1
        let name = try readName()
        var attributes = Set<String>()
        while true {
            let spaced = skipSpace()
            guard index < text.count else { throw fail("unclosed tag <\(name)") }
            if starts(with: "/>") {
                index += 2
                return
            }
            if text[index] == ">" {
                index += 1
                open.append(name)
                return
            }
            guard spaced else { throw fail("expected space before an attribute in <\(name)") }
            let attribute = try readName()
            guard attributes.insert(attribute).inserted else { throw fail("attribute '\(attribute)' repeated") }
            _ = skipSpace()
            guard index < text.count, text[index] == "=" else { throw fail("expected = after \(attribute)") }
            index += 1
            _ = skipSpace()
            try readQuotedValue()
        }
    }

    private mutating func readQuotedValue() throws {
        guard index < text.count, text[index] == "\"" || text[index] == "'" else {
            throw fail("attribute value not quoted")
        }
        let quote = text[index]
        index += 1
        while index < text.count && text[index] != quote {
            if text[index] == "<" { throw fail("'<' in an attribute value") }
            try readCharacter()
        }
        guard index < text.count else { throw fail("unclosed attribute value") }
        index += 1
    }

    private mutating func readEndTag() throws {
        index += 2
        let name = try readName()
        _ = skipSpace()
        guard index < text.count, text[index] == ">" else { throw fail("expected > after </\(name)") }
        index += 1
        guard let last = open.popLast(), last == name else { throw fail("</\(name)> does not close the open element") }
    }

    private mutating func readText() throws {
        while index < text.count && text[index] != "<" {
            if open.isEmpty && ![" ", "\n", "\t", "\r"].contains(text[index]) {
                throw fail("text outside the root element")
            }
            try readCharacter()
        }
    }

    /// One character of text or of a value: an entity or character reference is
    /// checked whole; a raw character must be one XML 1.0 allows.
    private mutating func readCharacter() throws {
        let scalar = text[index]
        if scalar == "&" {
            var reference = ""
            index += 1
            while index < text.count && text[index] != ";" && reference.count < 12 {
                reference.unicodeScalars.append(text[index])
                index += 1
            }
            guard index < text.count, text[index] == ";" else { throw fail("unterminated reference &\(reference)") }
            index += 1
            guard Self.isValidReference(reference) else { throw fail("invalid reference &\(reference);") }
            return
        }
        let v = scalar.value
        guard v == 0x9 || v == 0xA || v == 0xD || (v >= 0x20 && v != 0xFFFE && v != 0xFFFF) else {
            throw fail("character U+\(String(v, radix: 16)) not allowed in XML")
        }
        index += 1
    }

    static func isValidReference(_ reference: String) -> Bool {
        if ["amp", "lt", "gt", "quot", "apos"].contains(reference) { return true }
        guard reference.hasPrefix("#") else { return false }
        let digits = reference.dropFirst()
        let value = digits.hasPrefix("x") ? UInt32(digits.dropFirst(), radix: 16) : UInt32(digits, radix: 10)
        guard let value, let scalar = Unicode.Scalar(value) else { return false }
        return scalar.value == 0x9 || scalar.value == 0xA || scalar.value == 0xD || scalar.value >= 0x20
    }
}
