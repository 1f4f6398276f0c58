// The one place SVG text is written: escaping, number formatting, element syntax.

/// Builds an SVG document as text. Every attribute value and text node goes through
/// `escaped`, every number through `number`, so the output is well-formed XML and the
/// same calls always give the same bytes.
struct SVGWriter {
    /// The document so far.
    private(set) var text = ""
    private var openElements: [String] = []

    /// Starts a document `width` × `height` pixels, with a white background.
    init(width: Double, height: Double) {
        text = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
        open(
            "svg",
            [
                ("xmlns", "http://www.w3.org/2000/svg"), ("width", Self.number(width)),
                ("height", Self.number(height)),
                ("viewBox", "0 0 \(Self.number(width)) \(Self.number(height))"),
                ("font-family", "Helvetica, Arial, sans-serif"),
            ])
        element("rect", [("width", "100%"), ("height", "100%"), ("fill", "#ffffff")])
    }

    /// Opens an element that later calls fill; `close()` ends it.
    mutating func open(_ name: String, _ attributes: [(String, String)] = []) {
        text += indentation + "<" + name + Self.attributeText(attributes) + ">\n"
        openElements.append(name)
    }

    /// Ends the innermost open element.
    mutating func close() {
        let name = openElements.removeLast()
        text += indentation + "</" + name + ">\n"
    }

    /// Another document written by an `SVGWriter`, as a nested `svg` element placed `x`
    /// pixels from the left (its XML declaration dropped).
    mutating func embed(_ document: String, x: Double) {
        var body = Substring(document)
        if body.hasPrefix("<?xml"), let end = body.firstIndex(of: "\n") { body = body[body.index(after: end)...] }
        if body.hasPrefix("<svg ") { body = "<svg x=\"\(Self.number(x))\" y=\"0\" " + body.dropFirst(5) }
        text += body
    }

    /// An empty element, `<name a="v"/>`.
    mutating func element(_ name: String, _ attributes: [(String, String)]) {
        text += indentation + "<" + name + Self.attributeText(attributes) + "/>\n"
    }

    /// An element holding text, `<name a="v">content</name>`.
    mutating func element(_ name: String, _ attributes: [(String, String)], content: String) {
        text +=
            indentation + "<" + name + Self.attributeText(attributes) + ">" + Self.escaped(content) + "</" + name
            + ">\n"
    }

    /// A comment; `--` in it becomes `- -` (XML forbids it there).
    mutating func comment(_ content: String) {
        var safe = ""
        for character in Self.escaped(content) {
            if character == "-" && safe.last == "-" { safe += " " }
            safe.append(character)
        }
        if safe.last == "-" { safe += " " }
        text += indentation + "<!-- " + safe + " -->\n"
    }

    /// Closes every open element and returns the document.
    mutating func finish() -> String {
        while !openElements.isEmpty { close() }
        return text
    }

    private var indentation: String { String(repeating: " ", count: openElements.count) }

    private static func attributeText(_ attributes: [(String, String)]) -> String {
        var result = ""
        for (name, value) in attributes { result += " " + name + "=\"" + escaped(value) + "\"" }
        return result
    }

    /// XML text: `& < > " '` as entities; newline, tab and return as character
    /// references (so attribute values keep them); other control characters, which XML
    /// 1.0 cannot hold at all, as U+FFFD. Everything else, non-ASCII included, as is.
    static func escaped(_ value: String) -> String {
        var result = ""
        result.reserveCapacity(value.utf8.count)
        for scalar in value.unicodeScalars {
            switch scalar {
            case "&": result += "&amp;"
            case "<": result += "&lt;"
            case ">": result += "&gt;"
            case "\"": result += "&quot;"
            case "'": result += "&apos;"
            case "\n": result += "&#10;"
            case "\t": result += "&#9;"
            case "\r": result += "&#13;"
            default:
                let v = scalar.value
                let invalid = v < 0x20 || (v >= 0xFFFE && v <= 0xFFFF)
                result.unicodeScalars.append(invalid ? "\u{FFFD}" : scalar)
            }
        }
        return result
    }

    /// A number with at most three decimals, trailing zeros and a bare point trimmed,
    /// never `-0`: `12.5`, `-0.333`, `7`. Values beyond ±1e12 are clamped there and NaN
    /// prints as `0` (callers clip geometry first; this only keeps the XML valid).
    static func number(_ value: Double) -> String {
        let clamped = value.isNaN ? 0 : Swift.min(Swift.max(value, -1e12), 1e12)
        let thousandths = Int64((clamped * 1000).rounded())
        if thousandths == 0 { return "0" }
        let magnitude = thousandths.magnitude
        var result = thousandths < 0 ? "-" : ""
        result += String(magnitude / 1000)
        var fraction = magnitude % 1000
        if fraction != 0 {
            var digits = 3
            while fraction % 10 == 0 {
                fraction /= 10
                digits -= 1
            }
            let text = String(fraction)
            result += "." + String(repeating: "0", count: digits - text.count) + text
        }
        return result
    }

    /// `x1,y1 x2,y2 …` for a `points` attribute.
    static func points(_ vertices: [Point2D]) -> String {
        vertices.map { number($0.x) + "," + number($0.y) }.joined(separator: " ")
    }
}

/// A point in picture (pixel) space.
struct Point2D: Hashable, Sendable {
    var x: Double
    var y: Double
    init(_ x: Double, _ y: Double) {
        self.x = x
        self.y = y
    }
}
