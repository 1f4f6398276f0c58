// `animations` and `times` (SCENE-FORMAT.md "Animations and time"): each animation object
// read into its fields, checked against its kind, built into an `Animation` and checked by
// `Animation.problem()`, so the library and the scene format reject the same things. Every
// error names `animations[i].field`.

/// The keys of one animation object, before its kind is known.
private struct AnimationFields {
    var layer: Int?
    var keyPath: AnimationKeyPath?
    var kind = "basic"
    var timing = AnimationTiming()
    var hasDuration = false
    var additive = false
    var cumulative = false
    var from: [Double]?
    var to: [Double]?
    var by: [Double]?
    var timingFunction: TimingFunction?
    var spring = (mass: 1.0, stiffness: 100.0, damping: 10.0, velocity: 0.0, overdamping: false)
    var values: [[Double]]?
    var keyTimes: [Double]?
    var timingFunctions: [TimingFunction]?
    var calculationMode = CalculationMode.linear
}

private let commonAnimationKeys = [
    "layer", "keyPath", "kind", "beginTime", "timeOffset", "duration", "speed", "repeatCount", "repeatDuration",
    "autoreverses", "removedOnCompletion", "additive", "cumulative", "fillMode",
]
private let kindKeys: [String: [String]] = [
    "basic": ["fromValue", "toValue", "byValue", "timingFunction"],
    "spring": [
        "fromValue", "toValue", "byValue", "mass", "stiffness", "damping", "initialVelocity", "allowsOverdamping",
    ],
    "keyframe": ["values", "keyTimes", "timingFunctions", "calculationMode", "timingFunction"],
]

extension SceneDecoder {
    mutating func decodeAnimations() throws(SceneError) {
        hasAnimationKeys = true
        let path = ScenePath(key: "animations")
        try reader.beginArray(path, expected: "an array of animation objects")
        var first = true
        while try reader.nextElement(first: &first, path) {
            let itemPath = path.at(index: animations.count)
            try reader.beginObject(itemPath, expected: "an animation object")
            var fields = AnimationFields()
            var seen: [String] = []
            var firstKey = true
            while let key = try reader.nextKey(first: &firstKey, itemPath) {
                let keyPath = itemPath.field(key)
                guard !seen.contains(key) else { throw keyPath.error("duplicate key") }
                seen.append(key)
                try readAnimationKey(key, into: &fields, keyPath)
            }
            animations.append(try makeAnimation(fields, seen: seen, itemPath))
        }
    }

    mutating func decodeTimes() throws(SceneError) {
        hasAnimationKeys = true
        let path = ScenePath(key: "times")
        let values = try readFiniteNumbers(path)
        for index in values.indices.dropFirst() where values[index] < values[index - 1] {
            throw path.at(index: index).error(
                "sample times must not decrease (\(shownNumber(values[index])) after \(shownNumber(values[index - 1])))"
            )
        }
        times = values
    }

    /// Every animation's layer exists and is not removed by an operation.
    func validateAnimationLayers() throws(SceneError) {
        for (index, animation) in animations.enumerated() {
            let path = ScenePath(key: "animations", index: index, field: "layer")
            guard animation.layer >= 0 && animation.layer < store.count else {
                throw path.error("\(animation.layer) is out of range (\(layerCountPhrase))")
            }
            if !removedBy.isEmpty, let operation = removedBy[animation.layer] {
                throw path.error("layer \(animation.layer) was removed by operations[\(operation)]")
            }
        }
    }

    private mutating func readAnimationKey(
        _ key: String, into fields: inout AnimationFields, _ path: ScenePath
    ) throws(SceneError) {
        switch key {
        case "layer": fields.layer = try reader.readIndex(path)
        case "keyPath":
            let name = try reader.readString(path)
            guard let keyPath = AnimationKeyPath(rawValue: name) else {
                throw path.error(
                    "unknown key path \(singleQuoted(name)) (the key paths are "
                        + AnimationKeyPath.allCases.map(\.rawValue).joined(separator: ", ") + ")")
            }
            fields.keyPath = keyPath
        case "kind":
            fields.kind = try reader.readString(path)
            guard kindKeys[fields.kind] != nil else {
                throw path.error("unknown kind \(singleQuoted(fields.kind)) (basic, keyframe or spring)")
            }
        case "beginTime": fields.timing.beginTime = try reader.readNumber(path)
        case "timeOffset": fields.timing.timeOffset = try reader.readNumber(path)
        case "duration":
            fields.timing.duration = try reader.readNumber(path)
            fields.hasDuration = true
        case "speed": fields.timing.speed = try reader.readNumber(path)
        case "repeatCount": fields.timing.repeatCount = try reader.readNumber(path)
        case "repeatDuration": fields.timing.repeatDuration = try reader.readNumber(path)
        case "autoreverses": fields.timing.autoreverses = try reader.readBool(path)
        case "removedOnCompletion": fields.timing.removedOnCompletion = try reader.readBool(path)
        case "additive": fields.additive = try reader.readBool(path)
        case "cumulative": fields.cumulative = try reader.readBool(path)
        case "fillMode":
            let name = try reader.readString(path)
            guard let mode = FillMode(rawValue: name) else {
                throw path.error("unknown fill mode \(singleQuoted(name)) (removed, forwards, backwards, both)")
            }
            fields.timing.fillMode = mode
        default: try readCurveKey(key, into: &fields, path)
        }
    }

    /// The keys that belong to one kind (checked against the kind in `makeAnimation`).
    private mutating func readCurveKey(
        _ key: String, into fields: inout AnimationFields, _ path: ScenePath
    ) throws(SceneError) {
        switch key {
        case "fromValue": fields.from = try readAnimationValue(path)
        case "toValue": fields.to = try readAnimationValue(path)
        case "byValue": fields.by = try readAnimationValue(path)
        case "timingFunction": fields.timingFunction = try readTimingFunction(path)
        case "mass": fields.spring.mass = try readFiniteNumber(path)
        case "stiffness": fields.spring.stiffness = try readFiniteNumber(path)
        case "damping": fields.spring.damping = try readFiniteNumber(path)
        case "initialVelocity": fields.spring.velocity = try readFiniteNumber(path)
        case "allowsOverdamping": fields.spring.overdamping = try reader.readBool(path)
        case "values":
            try reader.beginArray(path, expected: "an array of values")
            var values: [[Double]] = []
            var first = true
            while try reader.nextElement(first: &first, path) {
                values.append(try readAnimationValue(path.at(index: values.count)))
            }
            fields.values = values
        case "keyTimes": fields.keyTimes = try readFiniteNumbers(path)
        case "timingFunctions":
            try reader.beginArray(path, expected: "an array of timing functions")
            var functions: [TimingFunction] = []
            var first = true
            while try reader.nextElement(first: &first, path) {
                functions.append(try readTimingFunction(path.at(index: functions.count)))
            }
            fields.timingFunctions = functions
        case "calculationMode":
            let name = try reader.readString(path)
            guard let mode = CalculationMode(rawValue: name) else {
                let hint = name == "cubicPaced" ? "cubicPaced is not in version 1" : "linear, discrete, paced or cubic"
                throw path.error("unknown calculation mode \(singleQuoted(name)) (\(hint))")
            }
            fields.calculationMode = mode
        default:
            throw path.error(
                "unknown key (an animation has "
                    + (commonAnimationKeys + ["fromValue", "toValue", "byValue", "timingFunction"]
                    + kindKeys["spring"]!.dropFirst(3) + kindKeys["keyframe"]!.dropLast()).joined(separator: ", ")
                    + ")")
        }
    }

    /// A value: a number, or an array of numbers (its count is checked against the key
    /// path by `Animation.problem()`).
    private mutating func readAnimationValue(_ path: ScenePath) throws(SceneError) -> [Double] {
        switch reader.peekKind() {
        case .number, .string: return [try reader.readNumber(path)]
        default:
            let count = try readNumberArray(path, expected: "a number or an array of numbers")
            guard count <= 16 else { throw path.error("expected at most 16 numbers, got \(count)") }
            return numbers
        }
    }

    /// The animation of `fields`, or the first problem: a missing key, a key of another
    /// kind, anything `Animation.problem()` rejects.
    private func makeAnimation(
        _ fields: AnimationFields, seen: [String], _ path: ScenePath
    ) throws(SceneError) -> SceneAnimation {
        guard let layer = fields.layer else { throw path.error("missing \"layer\"") }
        guard let keyPath = fields.keyPath else { throw path.error("missing \"keyPath\"") }
        let allowed = commonAnimationKeys + kindKeys[fields.kind]!
        for key in seen where !allowed.contains(key) {
            throw path.field(key).error("not a key of a \(fields.kind) animation")
        }
        var timing = fields.timing
        let content: Animation.Content
        switch fields.kind {
        case "spring":
            let s = fields.spring
            let spring = Spring(
                mass: s.mass, stiffness: s.stiffness, damping: s.damping, initialVelocity: s.velocity,
                allowsOverdamping: s.overdamping)
            if !fields.hasDuration && timing.speed.isFinite {
                timing.duration = spring.duration(forEpsilon: 0.001, speed: timing.speed)
            }
            content = .spring(spring, from: fields.from, to: fields.to, by: fields.by)
        case "keyframe":
            guard let values = fields.values else { throw path.error("missing \"values\"") }
            content = .keyframe(
                Keyframes(
                    values: values, keyTimes: fields.keyTimes, timingFunctions: fields.timingFunctions,
                    calculationMode: fields.calculationMode))
        default: content = .basic(from: fields.from, to: fields.to, by: fields.by)
        }
        let animation = Animation(
            keyPath: keyPath, content: content, timing: timing, timingFunction: fields.timingFunction,
            isAdditive: fields.additive, isCumulative: fields.cumulative)
        if let problem = animation.problem() {
            let field = path.field(problem.field)
            throw (problem.element.map { field.at(index: $0) } ?? field).error(problem.message)
        }
        return SceneAnimation(layer: layer, animation: animation)
    }
}
