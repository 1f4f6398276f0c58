// The curve queries of SCENE-FORMAT.md "Animations and time": `timingFunctions`,
// `springs`, `viewSprings`, `decelerations` and `rubberBands`. Every number they take must
// be finite; each error names the query's index and the field.

/// A `decelerations` entry before the scene's `scale` is known (it may come later in the
/// file): the deceleration is built at the end of decoding.
struct PendingDeceleration {
    var offset: Point
    var velocity: Point
    var rate: Double
    var scale: Double?
    var scrollRange: (x: ClosedRange<Double>, y: ClosedRange<Double>)?
    var times: [Double]?
}

extension SceneDecoder {
    /// Reads the objects of a top-level array, calling `readKey` for each key of each
    /// object (duplicates and unknown keys are errors), then `finish` for the object.
    /// `kind` names an object in messages ("spring query"), `keys` lists its keys.
    private mutating func readQueryObjects(
        _ path: ScenePath, kind: String, keys: String,
        readKey: (inout SceneDecoder, String, ScenePath) throws(SceneError) -> Bool,
        finish: (inout SceneDecoder, ScenePath) throws(SceneError) -> Void
    ) throws(SceneError) {
        try reader.beginArray(path, expected: "an array of \(kind) objects")
        var index = 0
        var first = true
        while try reader.nextElement(first: &first, path) {
            let itemPath = path.at(index: index)
            try reader.beginObject(itemPath, expected: "a \(kind) object")
            var seen = Set<String>()
            var firstKey = true
            while let key = try reader.nextKey(first: &firstKey, itemPath) {
                let keyPath = itemPath.field(key)
                guard seen.insert(key).inserted else { throw keyPath.error("duplicate key") }
                guard try readKey(&self, key, keyPath) else {
                    throw keyPath.error("unknown key (a \(kind) has \(keys))")
                }
            }
            try finish(&self, itemPath)
            index += 1
        }
    }

    /// A finite number.
    mutating func readFiniteNumber(_ path: ScenePath) throws(SceneError) -> Double {
        let value = try reader.readNumber(path)
        guard value.isFinite else { throw path.error("expected a finite number, got \(shownNumber(value))") }
        return value
    }

    /// A finite number ≥ 0.
    mutating func readNonNegativeNumber(_ path: ScenePath) throws(SceneError) -> Double {
        let value = try readFiniteNumber(path)
        guard value >= 0 else { throw path.error("must be 0 or more, got \(shownNumber(value))") }
        return value
    }

    /// A finite number > 0.
    mutating func readPositiveNumber(_ path: ScenePath) throws(SceneError) -> Double {
        let value = try readFiniteNumber(path)
        guard value > 0 else { throw path.error("must be positive, got \(shownNumber(value))") }
        return value
    }

    /// An array of finite numbers (any length), each ≥ 0 when `nonNegative`.
    mutating func readFiniteNumbers(_ path: ScenePath, nonNegative: Bool = false) throws(SceneError) -> [Double] {
        try reader.beginArray(path, expected: "an array of numbers")
        var values: [Double] = []
        var first = true
        while try reader.nextElement(first: &first, path) {
            let elementPath = path.at(index: values.count)
            values.append(try nonNegative ? readNonNegativeNumber(elementPath) : readFiniteNumber(elementPath))
        }
        return values
    }

    /// Exactly `count` finite numbers, into `numbers`.
    mutating func readFiniteExactly(_ count: Int, _ path: ScenePath, _ shape: String) throws(SceneError) {
        let expected = "\(count) numbers \(shape)"
        let found = try readNumberArray(path, expected: expected)
        guard found == count else { throw path.error("expected \(expected), got \(found)") }
        for (index, value) in numbers.enumerated() where !value.isFinite {
            throw path.at(index: index).error("expected a finite number, got \(shownNumber(value))")
        }
    }

    /// A timing function: a name (`"easeIn"`, ...) or `[x1, y1, x2, y2]` with x1 and x2 in
    /// [0, 1].
    mutating func readTimingFunction(_ path: ScenePath) throws(SceneError) -> TimingFunction {
        let names = TimingFunction.Name.allCases.map(\.rawValue).joined(separator: ", ")
        switch reader.peekKind() {
        case .string:
            let name = try reader.readString(path)
            guard let named = TimingFunction.Name(rawValue: name) else {
                throw path.error("unknown timing function \(singleQuoted(name)) (the names are \(names))")
            }
            return TimingFunction(named)
        case .array:
            try readFiniteExactly(4, path, "[x1, y1, x2, y2]")
            for (index, label) in [(0, "x1"), (2, "x2")] where !(numbers[index] >= 0 && numbers[index] <= 1) {
                throw path.at(index: index).error("\(label) must be in [0, 1], got \(shownNumber(numbers[index]))")
            }
            return TimingFunction(controlPoints: numbers[0], numbers[1], numbers[2], numbers[3])!
        default:
            throw reader.typeError(expected: "a timing function name (\(names)) or [x1, y1, x2, y2]", path)
        }
    }

    // MARK: The queries

    mutating func decodeTimingFunctionQueries() throws(SceneError) {
        var queries: [SceneTimingFunctionQuery] = []
        var function: TimingFunction?
        var inputs: [Double] = []
        try readQueryObjects(
            ScenePath(key: "timingFunctions"), kind: "timing-function query", keys: "function, inputs",
            readKey: { (decoder, key, path) throws(SceneError) in
                switch key {
                case "function": function = try decoder.readTimingFunction(path)
                case "inputs": inputs = try decoder.readFiniteNumbers(path)
                default: return false
                }
                return true
            },
            finish: { (_, path) throws(SceneError) in
                guard let found = function else { throw path.error("missing \"function\"") }
                queries.append(SceneTimingFunctionQuery(function: found, inputs: inputs))
                function = nil
                inputs = []
            })
        curveQueries.timingFunctions = queries
    }

    mutating func decodeSpringQueries() throws(SceneError) {
        var queries: [SceneSpringQuery] = []
        var fields = (mass: 1.0, stiffness: 100.0, damping: 10.0, velocity: 0.0, overdamping: false)
        var epsilons: [Double] = []
        var inputs: [Double] = []
        var duration = 1.0
        try readQueryObjects(
            ScenePath(key: "springs"),
            kind: "spring query",
            keys: "mass, stiffness, damping, initialVelocity, allowsOverdamping, epsilons, inputs, duration",
            readKey: { (decoder, key, path) throws(SceneError) in
                switch key {
                case "mass": fields.mass = try decoder.readFiniteNumber(path)
                case "stiffness": fields.stiffness = try decoder.readFiniteNumber(path)
                case "damping": fields.damping = try decoder.readFiniteNumber(path)
                case "initialVelocity": fields.velocity = try decoder.readFiniteNumber(path)
                case "allowsOverdamping": fields.overdamping = try decoder.reader.readBool(path)
                case "epsilons": epsilons = try decoder.readFiniteNumbers(path)
                case "inputs": inputs = try decoder.readFiniteNumbers(path)
                case "duration": duration = try decoder.readNonNegativeNumber(path)
                default: return false
                }
                return true
            },
            finish: { _, _ in
                let spring = Spring(
                    mass: fields.mass, stiffness: fields.stiffness, damping: fields.damping,
                    initialVelocity: fields.velocity, allowsOverdamping: fields.overdamping)
                queries.append(SceneSpringQuery(spring: spring, epsilons: epsilons, inputs: inputs, duration: duration))
                fields = (1, 100, 10, 0, false)
                epsilons = []
                inputs = []
                duration = 1
            })
        curveQueries.springs = queries
    }

    mutating func decodeViewSpringQueries() throws(SceneError) {
        var queries: [SceneViewSpringQuery] = []
        var duration: Double?
        var ratio: Double?
        var velocity = 0.0
        try readQueryObjects(
            ScenePath(key: "viewSprings"), kind: "view-spring query", keys: "duration, dampingRatio, initialVelocity",
            readKey: { (decoder, key, path) throws(SceneError) in
                switch key {
                case "duration": duration = try decoder.readNonNegativeNumber(path)
                case "dampingRatio": ratio = try decoder.readFiniteNumber(path)
                case "initialVelocity": velocity = try decoder.readFiniteNumber(path)
                default: return false
                }
                return true
            },
            finish: { (_, path) throws(SceneError) in
                guard let foundDuration = duration else { throw path.error("missing \"duration\"") }
                guard let foundRatio = ratio else { throw path.error("missing \"dampingRatio\"") }
                queries.append(
                    SceneViewSpringQuery(duration: foundDuration, dampingRatio: foundRatio, initialVelocity: velocity))
                (duration, ratio, velocity) = (nil, nil, 0)
            })
        curveQueries.viewSprings = queries
    }

    mutating func decodeRubberBandQueries() throws(SceneError) {
        var queries: [SceneRubberBandQuery] = []
        var offset: Double?
        var dimension: Double?
        var constant = 0.55
        try readQueryObjects(
            ScenePath(key: "rubberBands"), kind: "rubber-band query", keys: "offset, dimension, constant",
            readKey: { (decoder, key, path) throws(SceneError) in
                switch key {
                case "offset": offset = try decoder.readFiniteNumber(path)
                case "dimension": dimension = try decoder.readPositiveNumber(path)
                case "constant": constant = try decoder.readFiniteNumber(path)
                default: return false
                }
                return true
            },
            finish: { (_, path) throws(SceneError) in
                guard let foundOffset = offset else { throw path.error("missing \"offset\"") }
                guard let foundDimension = dimension else { throw path.error("missing \"dimension\"") }
                queries.append(SceneRubberBandQuery(offset: foundOffset, dimension: foundDimension, constant: constant))
                (offset, dimension, constant) = (nil, nil, 0.55)
            })
        curveQueries.rubberBands = queries
    }
}

extension SceneDecoder {
    mutating func decodeDecelerationQueries() throws(SceneError) {
        var pending: [PendingDeceleration] = []
        var offset: Point?
        var velocity: Point?
        var rate = ScrollDeceleration.normalRate
        var scale: Double?
        var boundsSize: Size?
        var contentSize: Size?
        var inset = EdgeInsets.zero
        var times: [Double]?
        try readQueryObjects(
            ScenePath(key: "decelerations"),
            kind: "deceleration query",
            keys: "offset, velocity, rate, scale, boundsSize, contentSize, contentInset, times",
            readKey: { (decoder, key, path) throws(SceneError) in
                switch key {
                case "offset": offset = try decoder.readFinitePoint(path, "[x, y]")
                case "velocity": velocity = try decoder.readFinitePoint(path, "[vx, vy]")
                case "rate":
                    rate = try decoder.readFiniteNumber(path)
                    guard rate > 0 && rate < 1 else {
                        throw path.error("must be between 0 and 1 (exclusive), got \(shownNumber(rate))")
                    }
                case "scale": scale = try decoder.readPositiveNumber(path)
                case "boundsSize": boundsSize = try decoder.readFiniteSize(path)
                case "contentSize": contentSize = try decoder.readFiniteSize(path)
                case "contentInset":
                    try decoder.readFiniteExactly(4, path, "[top, left, bottom, right]")
                    let n = decoder.numbers
                    inset = EdgeInsets(top: n[0], left: n[1], bottom: n[2], right: n[3])
                case "times": times = try decoder.readFiniteNumbers(path, nonNegative: true)
                default: return false
                }
                return true
            },
            finish: { (_, path) throws(SceneError) in
                guard let foundOffset = offset else { throw path.error("missing \"offset\"") }
                guard let foundVelocity = velocity else { throw path.error("missing \"velocity\"") }
                var range: (x: ClosedRange<Double>, y: ClosedRange<Double>)?
                switch (boundsSize, contentSize) {
                case (let bounds?, let content?):
                    range = ScrollDeceleration.scrollRange(
                        contentSize: content, boundsSize: bounds, contentInset: inset)
                case (nil, nil): range = nil
                case (nil, _?): throw path.field("contentSize").error("needs boundsSize (give both or neither)")
                case (_?, nil): throw path.field("boundsSize").error("needs contentSize (give both or neither)")
                }
                pending.append(
                    PendingDeceleration(
                        offset: foundOffset, velocity: foundVelocity, rate: rate, scale: scale, scrollRange: range,
                        times: times))
                (offset, velocity, rate, scale, boundsSize, contentSize) = (
                    nil, nil, ScrollDeceleration.normalRate, nil, nil, nil
                )
                (inset, times) = (.zero, nil)
            })
        pendingDecelerations = pending
    }

    /// Builds the decelerations, once the scene's `scale` (their default) is known.
    mutating func finishDecelerations() {
        guard let pending = pendingDecelerations else { return }
        curveQueries.decelerations = pending.map {
            SceneDecelerationQuery(
                deceleration: ScrollDeceleration(
                    offset: $0.offset, velocity: $0.velocity, rate: $0.rate,
                    displayScale: $0.scale ?? store.columns.displayScale, scrollRange: $0.scrollRange),
                times: $0.times)
        }
    }

    private mutating func readFinitePoint(_ path: ScenePath, _ shape: String) throws(SceneError) -> Point {
        try readFiniteExactly(2, path, shape)
        return Point(x: numbers[0], y: numbers[1])
    }

    private mutating func readFiniteSize(_ path: ScenePath) throws(SceneError) -> Size {
        try readFiniteExactly(2, path, "[width, height]")
        return Size(width: numbers[0], height: numbers[1])
    }
}
