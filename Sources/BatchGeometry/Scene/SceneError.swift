// The one error type of scene decoding and evaluation: where (a path into the scene
// file) and what.

/// A malformed scene: `path` names the field (`layers[3].transform`, `operations[2].set`,
/// `scene` for the document itself) and `message` says what is wrong with it
/// (`expected 6 or 16 numbers, got 5`). `batchbench eval` prints
/// `error: <description>` and exits with status 2.
public struct SceneError: Error, CustomStringConvertible, Equatable, Sendable {
    /// Where in the scene file: a top-level key, an index into an array, a field.
    public var path: String
    /// What is wrong there, in plain words.
    public var message: String

    public init(path: String, message: String) {
        self.path = path
        self.message = message
    }

    /// `"<path>: <message>"`, one line.
    public var description: String { "\(path): \(message)" }
}

/// A location in the scene file, rendered only when an error is thrown, so that the
/// decoder builds no string per element: `key[index].field[element]`, each part
/// optional. Every location in the scene schema has this shape.
struct ScenePath {
    /// The top-level key (`layers`, `operations`, `hitTests`, ...), or nil for the
    /// document itself (rendered `scene`).
    var key: StaticString?
    var index: Int?
    var field: String?
    var element: Int?

    static let document = ScenePath(key: nil)

    init(key: StaticString?, index: Int? = nil, field: String? = nil, element: Int? = nil) {
        self.key = key
        self.index = index
        self.field = field
        self.element = element
    }

    func at(index: Int) -> ScenePath {
        var path = self
        if path.index == nil && path.field == nil { path.index = index } else { path.element = index }
        return path
    }

    func field(_ name: String) -> ScenePath {
        var path = self
        path.field = name
        path.element = nil
        return path
    }

    var rendered: String {
        guard let key else { return field.map(Self.printable) ?? "scene" }
        var text = "\(key)"
        if let index { text += "[\(index)]" }
        if let field { text += "." + Self.printable(field) }
        if let element { text += "[\(element)]" }
        return text
    }

    /// A key from the input as it can be shown on one line: control characters escaped.
    private static func printable(_ name: String) -> String {
        guard name.unicodeScalars.contains(where: { $0.value < 0x20 || $0.value == 0x7F }) else { return name }
        return quoted(name)
    }

    func error(_ message: String) -> SceneError { SceneError(path: rendered, message: message) }
}

/// A number as a message shows it: whole numbers without a fraction (`64`, `-1`), others
/// in shortest round-trip form, non-finite ones as the scene format writes them.
func shownNumber(_ value: Double) -> String {
    if value.isFinite && value == value.rounded(.towardZero) && Swift.abs(value) < 9_007_199_254_740_992 {
        return value == 0 && value.sign == .minus ? "-0" : String(Int64(value))
    }
    var shown = ""
    appendJSONNumber(value, to: &shown)
    return shown
}
