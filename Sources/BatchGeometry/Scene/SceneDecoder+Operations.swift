// The `operations` array. An operation's value has a type that depends on its `set`,
// and JSON objects are unordered, so the value is read first into a small untyped form
// (a number, a bool or a flat array of numbers) and checked once the object is read.

/// An operation's `value` before its property is known.
private enum OperationValue {
    case number(Double)
    case bool(Bool)
    case numbers(count: Int)
    case null
    /// An array whose first element is a string other than the three number words
    /// (autoresizing flag names, checked once the property is known).
    case strings([String])
    /// A mask read as one, when `set` came before `value` and named autoresizingMask.
    case mask(AutoresizingMask)

    var phrase: String {
        switch self {
        case .number: return "a number"
        case .bool(let value): return "\(value)"
        case .numbers(let count): return count == 1 ? "an array of 1 number" : "an array of \(count) numbers"
        case .strings(let strings):
            return strings.count == 1 ? "an array of 1 string" : "an array of \(strings.count) strings"
        case .mask: return "an autoresizing mask"
        case .null: return "null"
        }
    }
}

private let propertyNames = [
    "frame", "bounds", "position", "center", "anchorPoint", "transform", "sublayerTransform", "zPosition",
    "anchorPointZ", "contentOffset", "scrollTo", "geometryFlipped", "masksToBounds", "hidden", "isTransformLayer",
    "autoresizingMask", "autoresizesSubviews", "superlayer",
]

extension SceneDecoder {
    mutating func decodeOperations() throws(SceneError) {
        let path = ScenePath(key: "operations")
        try reader.beginArray(path, expected: "an array of operations")
        var first = true
        while try reader.nextElement(first: &first, path) {
            operations.append(try readOperation(path.at(index: operations.count)))
        }
    }

    private mutating func readOperation(_ path: ScenePath) throws(SceneError) -> SceneOperation {
        try reader.beginObject(path, expected: "an operation object {\"layer\", \"set\", \"value\"}")
        var layer: Int?
        var property: String?
        var value: OperationValue?
        var index: Int?
        var remove: Bool?
        var seen = Set<String>()
        var first = true
        while let key = try reader.nextKey(first: &first, path) {
            let keyPath = path.field(key)
            guard seen.insert(key).inserted else { throw keyPath.error("duplicate key") }
            switch key {
            case "layer": layer = try reader.readIndex(keyPath)
            case "set": property = try reader.readString(keyPath, expected: "a property name")
            case "value":
                value =
                    property == "autoresizingMask"
                    ? .mask(try readAutoresizingMask(keyPath))
                    : try readOperationValue(keyPath)
            case "index": index = try reader.readIndex(keyPath)
            case "remove": remove = try reader.readBool(keyPath)
            default: throw keyPath.error("unknown key (an operation has layer, set, value, index; or layer, remove)")
            }
        }
        guard let layer else { throw path.error("missing \"layer\"") }
        if let remove { return try removal(layer, remove, property: property, value: value, index: index, path) }
        guard let property else { throw path.error("missing \"set\" (or \"remove\": true)") }
        guard propertyNames.contains(property) || LayerProperty(name: property) != nil else {
            throw path.field("set").error("unknown property \(singleQuoted(property))")
        }
        guard let value else { throw path.error("missing \"value\"") }
        if property == "superlayer" {
            return SceneOperation(
                layer: layer, change: .superlayer(try superlayer(value, path.field("value")), index: index))
        }
        if index != nil { throw path.field("index").error("only a superlayer operation takes an index") }
        return SceneOperation(layer: layer, change: try change(property, value, path.field("value")))
    }

    /// `{"layer": i, "remove": true}`: nothing else may come with it.
    private func removal(
        _ layer: Int, _ remove: Bool, property: String?, value: OperationValue?, index: Int?,
        _ path: ScenePath
    ) throws(SceneError) -> SceneOperation {
        guard remove else { throw path.field("remove").error("expected true (\"remove\": true removes the layer)") }
        if property != nil || value != nil || index != nil {
            throw path.error("an operation either sets a property or removes the layer, not both")
        }
        return SceneOperation(layer: layer, change: .remove)
    }

    /// The value of a superlayer operation: a layer index, or null for a root.
    private func superlayer(_ value: OperationValue, _ path: ScenePath) throws(SceneError) -> Int? {
        switch value {
        case .null: return nil
        case .number(let number)
        where number == number.rounded(.towardZero) && Swift.abs(number) <= 9_007_199_254_740_992:
            return Int(number)
        case .number(let number):
            throw path.error("expected a layer index or null for superlayer, got \(shownNumber(number))")
        default: throw path.error("expected a layer index or null for superlayer, got \(value.phrase)")
        }
    }

    private mutating func readOperationValue(_ path: ScenePath) throws(SceneError) -> OperationValue {
        switch reader.peekKind() {
        case .array:
            if try arrayHoldsNames(path) { return .strings(try readStrings(path, expected: "a string")) }
            return .numbers(count: try readNumberArray(path, expected: "an array of numbers"))
        case .true, .false: return .bool(try reader.readBool(path))
        case .number, .string: return .number(try reader.readNumber(path))
        case .null:
            _ = reader.skipNull()
            return .null
        default: throw reader.typeError(expected: "a number, an array of numbers, true, false or null", path)
        }
    }

    /// Whether the array ahead holds strings only, the first not a number word ("NaN",
    /// "+Infinity", "-Infinity"): autoresizing flag names. Anything else is read as
    /// numbers, whose errors then name the first element that is not one. Reads nothing.
    private func arrayHoldsNames(_ path: ScenePath) throws(SceneError) -> Bool {
        var probe = reader
        try probe.beginArray(path)
        var first = true
        var index = 0
        while try probe.nextElement(first: &first, path) {
            guard probe.peekKind() == .string else { return false }
            let text = try probe.readString(path)
            if index == 0 && ["NaN", "+Infinity", "-Infinity"].contains(text) { return false }
            index += 1
        }
        return index > 0
    }

    /// The change `property = value`, or an error saying what `property` needs.
    private func change(_ property: String, _ value: OperationValue, _ path: ScenePath) throws(SceneError)
        -> SceneChange
    {
        func numbers(_ count: Int, _ shape: String) throws(SceneError) {
            guard case .numbers(count) = value else {
                throw path.error("expected \(count) numbers \(shape) for \(property), got \(value.phrase)")
            }
        }
        func rect() throws(SceneError) -> Rect {
            try numbers(4, "[x, y, width, height]")
            return Rect(x: self.numbers[0], y: self.numbers[1], width: self.numbers[2], height: self.numbers[3])
        }
        func point() throws(SceneError) -> Point {
            try numbers(2, "[x, y]")
            return Point(x: self.numbers[0], y: self.numbers[1])
        }
        func number() throws(SceneError) -> Double {
            guard case .number(let number) = value else {
                throw path.error("expected a number for \(property), got \(value.phrase)")
            }
            return number
        }
        func bool() throws(SceneError) -> Bool {
            guard case .bool(let flag) = value else {
                throw path.error("expected true or false for \(property), got \(value.phrase)")
            }
            return flag
        }
        func transform() throws(SceneError) -> Transform3D {
            guard case .numbers(let count) = value else {
                throw path.error("expected 6 or 16 numbers for \(property), got \(value.phrase)")
            }
            return try self.transform(fromNumbers: count, path)
        }
        func mask() throws(SceneError) -> AutoresizingMask {
            switch value {
            case .strings(let names): return try autoresizingMask(fromNames: names, path)
            case .mask(let mask): return mask
            case .numbers(count: 0): return []
            case .number(let number): return try autoresizingMask(fromNumber: number, path)
            default:
                throw path.error(
                    "expected an array of autoresizing flag names or an integer 0...63 for \(property), got \(value.phrase)"
                )
            }
        }
        if let tableProperty = LayerProperty(name: property) {
            switch tableProperty.kind {
            case .number: return .property(tableProperty, try number())
            case .bool: return .property(tableProperty, try bool() ? 1 : 0)
            }
        }
        switch property {
        case "autoresizingMask": return .autoresizingMask(try mask())
        case "autoresizesSubviews": return .autoresizesSubviews(try bool())
        case "frame": return .frame(try rect())
        case "bounds": return .bounds(try rect())
        case "position": return .position(try point())
        case "center": return .center(try point())
        case "anchorPoint": return .anchorPoint(try point())
        case "transform": return .transform(try transform())
        case "sublayerTransform": return .sublayerTransform(try transform())
        case "zPosition": return .zPosition(try number())
        case "anchorPointZ": return .anchorPointZ(try number())
        case "contentOffset": return .contentOffset(try point())
        case "scrollTo": return .scrollTo(try point())
        case "geometryFlipped": return .geometryFlipped(try bool())
        case "masksToBounds": return .masksToBounds(try bool())
        case "hidden": return .hidden(try bool())
        default: return .isTransformLayer(try bool())
        }
    }

    /// Operations name existing layers that no earlier operation removed, `scrollTo` only
    /// scroll views (contentSize is set at creation only), and structure operations keep
    /// the forest a forest: checked by playing the structure operations on a model of
    /// the hierarchy (`SceneStructure`), so every error is found before anything runs.
    mutating func validateOperations() throws(SceneError) {
        var structure: SceneStructure? = operations.contains(where: \.isStructural) ? SceneStructure(store) : nil
        for (index, operation) in operations.enumerated() {
            let path = ScenePath(key: "operations", index: index, field: "layer")
            guard operation.layer >= 0 && operation.layer < store.count else {
                throw path.error("\(operation.layer) is out of range (\(layerCountPhrase))")
            }
            try structure?.checkAlive(operation.layer, path)
            if case .scrollTo = operation.change, store.scrollView(of: operation.layer) == nil {
                throw path.error("scrollTo needs a scroll view, and layer \(operation.layer) has no contentSize")
            }
            try structure?.apply(operation, operationIndex: index, layerCountPhrase: layerCountPhrase)
        }
        removedBy = structure?.removedBy ?? []
    }
}

extension SceneOperation {
    /// A superlayer or remove operation.
    var isStructural: Bool {
        switch change {
        case .superlayer, .remove: return true
        default: return false
        }
    }
}

/// `text` in single quotes, control characters escaped, for messages.
func singleQuoted(_ text: String) -> String {
    var escaped = ""
    appendJSONEscaped(text, to: &escaped)
    return "'\(escaped)'"
}
