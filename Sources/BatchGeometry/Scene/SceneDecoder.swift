// Decodes the top level of a scene file and its query sections; the layers and
// operations have their own files. Schema-directed: each key is read as the type it
// must have, straight into the model, so a wrong type is reported where it is.

struct SceneDecoder: ~Copyable {
    var reader: JSONReader
    /// Reused buffer for arrays of numbers (at most 16 are kept; longer arrays are
    /// still read, to count them for the error message).
    var numbers: [Double] = []

    // What has been decoded so far.
    var store = LayerStore()
    var names: [String?] = []
    /// Layers whose parent index is not below their own (a later layer, or out of
    /// range): linked, or rejected, once every layer exists.
    var lateParents: [(layer: Int, parent: Int)] = []
    var operations: [SceneOperation] = []
    var viewport: Rect?
    var hitTestMode = HitTestRule.layer
    var hitTests: [Point] = []
    var conversions: [SceneConversion] = []
    /// Per layer, the operation that removes it (empty when no operation removes any).
    var removedBy: [Int?] = []
    /// The curve queries (SceneDecoder+Curves.swift); the decelerations wait for `scale`.
    var curveQueries = SceneCurveQueries()
    var pendingDecelerations: [PendingDeceleration]?
    /// `animations`, `times` and the layers' own timings (SceneDecoder+Animations.swift).
    var animations: [SceneAnimation] = []
    var times: [Double] = []
    var layerTimings: [LayerTiming] = []
    var hasAnimationKeys = false

    init(bytes: RawList<UInt8>) {
        reader = JSONReader(bytes: bytes)
        numbers.reserveCapacity(16)
    }

    mutating func decode() throws(SceneError) -> Scene {
        try reader.beginObject(.document, expected: "a JSON object (the scene)")
        var seen = Set<String>()
        var first = true
        while let key = try reader.nextKey(first: &first, .document) {
            guard seen.insert(key).inserted else { throw ScenePath(key: nil, field: key).error("duplicate key") }
            switch key {
            case "viewport":
                let path = ScenePath(key: "viewport")
                viewport = reader.skipNull() ? nil : try readRect(path, "[x, y, width, height]")
            case "hitTestMode":
                let path = ScenePath(key: "hitTestMode")
                let mode = try reader.readString(path, expected: "\"layer\" or \"view\"")
                guard let rule = HitTestRule(rawValue: mode) else {
                    throw path.error("expected \"layer\" or \"view\", got \(quoted(mode))")
                }
                hitTestMode = rule
            case "scale": try decodeScale()
            case "layers": try decodeLayers()
            case "operations": try decodeOperations()
            case "hitTests": try decodeHitTests()
            case "conversions": try decodeConversions()
            case "timingFunctions": try decodeTimingFunctionQueries()
            case "springs": try decodeSpringQueries()
            case "viewSprings": try decodeViewSpringQueries()
            case "decelerations": try decodeDecelerationQueries()
            case "rubberBands": try decodeRubberBandQueries()
            case "animations": try decodeAnimations()
            case "times": try decodeTimes()
            default:
                throw ScenePath(key: nil, field: key).error(
                    "unknown key (a scene has viewport, scale, hitTestMode, layers, operations, hitTests, conversions, "
                        + "animations, times, timingFunctions, springs, viewSprings, decelerations, rubberBands)")
            }
        }
        try reader.expectEnd()
        guard seen.contains("layers") else { throw ScenePath.document.error("missing \"layers\"") }
        try linkLateParents()
        try validateOperations()
        try validateConversions()
        try validateAnimationLayers()
        finishDecelerations()  // reads the store's display scale: before the store moves out
        var built = LayerStore()
        swap(&built, &store)
        return Scene(
            store: built, names: names, operations: operations, viewport: viewport,
            hitTestMode: hitTestMode, hitTests: hitTests, conversions: conversions, curveQueries: curveQueries,
            animations: animations, times: times, layerTimings: layerTimings, hasAnimationKeys: hasAnimationKeys)
    }

    /// `scale`: the display scale that contentOffset and scrollTo round to.
    private mutating func decodeScale() throws(SceneError) {
        let path = ScenePath(key: "scale")
        let scale = try reader.readNumber(path)
        do {
            try store.setDisplayScale(scale)
        } catch {
            throw path.error("expected a positive finite number, got \(shownNumber(scale))")
        }
    }

    // MARK: Queries

    private mutating func decodeHitTests() throws(SceneError) {
        let path = ScenePath(key: "hitTests")
        try reader.beginArray(path, expected: "an array of points")
        var first = true
        while try reader.nextElement(first: &first, path) {
            hitTests.append(try readPoint(path.at(index: hitTests.count), "[x, y]"))
        }
    }

    private mutating func decodeConversions() throws(SceneError) {
        let path = ScenePath(key: "conversions")
        try reader.beginArray(path, expected: "an array of conversions")
        var first = true
        while try reader.nextElement(first: &first, path) {
            let itemPath = path.at(index: conversions.count)
            try reader.beginObject(itemPath, expected: "an object {\"point\", \"from\", \"to\"}")
            var point: Point?
            var from: Int?
            var to: Int?
            var seen = Set<String>()
            var firstKey = true
            while let key = try reader.nextKey(first: &firstKey, itemPath) {
                let keyPath = itemPath.field(key)
                guard seen.insert(key).inserted else { throw keyPath.error("duplicate key") }
                switch key {
                case "point": point = try readPoint(keyPath, "[x, y]")
                case "from": from = reader.skipNull() ? nil : try reader.readIndex(keyPath)
                case "to": to = reader.skipNull() ? nil : try reader.readIndex(keyPath)
                default: throw keyPath.error("unknown key (a conversion has point, from, to)")
                }
            }
            guard let point else { throw itemPath.error("missing \"point\"") }
            conversions.append(SceneConversion(point: point, from: from, to: to))
        }
    }

    private func validateConversions() throws(SceneError) {
        for (index, conversion) in conversions.enumerated() {
            let path = ScenePath(key: "conversions", index: index)
            for (field, layer) in [("from", conversion.from), ("to", conversion.to)] {
                if let layer, layer < 0 || layer >= store.count {
                    throw path.field(field).error("\(layer) is out of range (\(layerCountPhrase))")
                }
                if let layer, !removedBy.isEmpty, let operation = removedBy[layer] {
                    throw path.field(field).error("layer \(layer) was removed by operations[\(operation)]")
                }
            }
        }
    }

    var layerCountPhrase: String { store.count == 1 ? "1 layer" : "\(store.count) layers" }

    // MARK: Arrays of numbers

    /// Reads an array of numbers into `numbers` (the first 16) and returns how many it
    /// had. `expected` describes the array for a type error ("4 numbers [x, y, ...]").
    mutating func readNumberArray(_ path: ScenePath, expected: String) throws(SceneError) -> Int {
        try reader.beginArray(path, expected: expected)
        numbers.removeAll(keepingCapacity: true)
        var count = 0
        var first = true
        while try reader.nextElement(first: &first, path) {
            let value = try reader.readNumber(path.at(index: count))
            if count < 16 { numbers.append(value) }
            count += 1
        }
        return count
    }

    private mutating func readExactly(_ count: Int, _ path: ScenePath, _ shape: String) throws(SceneError) {
        let expected = "\(count) numbers \(shape)"
        let found = try readNumberArray(path, expected: expected)
        guard found == count else { throw path.error("expected \(expected), got \(found)") }
    }

    mutating func readRect(_ path: ScenePath, _ shape: String) throws(SceneError) -> Rect {
        try readExactly(4, path, shape)
        return Rect(x: numbers[0], y: numbers[1], width: numbers[2], height: numbers[3])
    }

    mutating func readPoint(_ path: ScenePath, _ shape: String) throws(SceneError) -> Point {
        try readExactly(2, path, shape)
        return Point(x: numbers[0], y: numbers[1])
    }

    mutating func readSize(_ path: ScenePath) throws(SceneError) -> Size {
        try readExactly(2, path, "[width, height]")
        return Size(width: numbers[0], height: numbers[1])
    }

    mutating func readInsets(_ path: ScenePath) throws(SceneError) -> EdgeInsets {
        try readExactly(4, path, "[top, left, bottom, right]")
        return EdgeInsets(top: numbers[0], left: numbers[1], bottom: numbers[2], right: numbers[3])
    }

    /// An autoresizing mask: an array of UIKit flag names, or the UIViewAutoresizing
    /// integer 0…63.
    mutating func readAutoresizingMask(_ path: ScenePath) throws(SceneError) -> AutoresizingMask {
        switch reader.peekKind() {
        case .array: return try readFlagNames(path)
        case .number, .string: return try autoresizingMask(fromNumber: try reader.readNumber(path), path)
        default: throw reader.typeError(expected: "an array of autoresizing flag names or an integer 0...63", path)
        }
    }

    /// An array of autoresizing flag names (`["flexibleWidth", ...]`).
    mutating func readFlagNames(_ path: ScenePath) throws(SceneError) -> AutoresizingMask {
        try autoresizingMask(fromNames: try readStrings(path, expected: "an autoresizing flag name"), path)
    }

    /// An array of strings; `expected` names what each element must be.
    mutating func readStrings(_ path: ScenePath, expected: String) throws(SceneError) -> [String] {
        try reader.beginArray(path, expected: "an array of strings")
        var strings: [String] = []
        var first = true
        while try reader.nextElement(first: &first, path) {
            strings.append(try reader.readString(path.at(index: strings.count), expected: expected))
        }
        return strings
    }

    /// The mask for flag names; an unknown name is an error at its index in `path`.
    func autoresizingMask(fromNames names: [String], _ path: ScenePath) throws(SceneError) -> AutoresizingMask {
        var mask: AutoresizingMask = []
        for (index, name) in names.enumerated() {
            guard let flag = AutoresizingMask.named.first(where: { $0.name == name })?.flag else {
                throw path.at(index: index).error(
                    "unknown autoresizing flag \(singleQuoted(name)) (the flags are "
                        + AutoresizingMask.named.map(\.name).joined(separator: ", ") + ")")
            }
            mask.insert(flag)
        }
        return mask
    }

    /// The mask for a UIViewAutoresizing integer, which must be a whole number 0…63.
    func autoresizingMask(fromNumber value: Double, _ path: ScenePath) throws(SceneError) -> AutoresizingMask {
        guard value >= 0 && value <= 63 && value == value.rounded(.towardZero) else {
            throw path.error("expected an integer 0...63 (UIViewAutoresizing), got \(shownNumber(value))")
        }
        return AutoresizingMask(rawValue: UInt(value))
    }

    /// A transform: 6 numbers (affine `a b c d tx ty`) or 16 (`m11 … m44`, row-major).
    mutating func readTransform(_ path: ScenePath) throws(SceneError) -> Transform3D {
        let found = try readNumberArray(path, expected: "6 or 16 numbers")
        return try transform(fromNumbers: found, path)
    }

    func transform(fromNumbers count: Int, _ path: ScenePath) throws(SceneError) -> Transform3D {
        switch count {
        case 6:
            return Transform3D(
                AffineTransform(
                    a: numbers[0], b: numbers[1], c: numbers[2], d: numbers[3],
                    tx: numbers[4], ty: numbers[5]))
        case 16: return Transform3D(rowMajor: numbers)
        default: throw path.error("expected 6 or 16 numbers, got \(count)")
        }
    }
}
