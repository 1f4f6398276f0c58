// An animation as the caller describes it (CABasicAnimation, CASpringAnimation,
// CAKeyframeAnimation; docs/ANIMATION.md sections 4-6), and its validation. The store
// (AnimationStore.swift) keeps it in columns once added.

/// A malformed animation: `field` names the property (`keyTimes`, `fromValue`), `element`
/// the index inside it when there is one, and `message` says what is wrong. Adding it
/// changes nothing.
public struct AnimationError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The property at fault, as Core Animation (and the scene format) names it.
    public var field: String
    /// The index inside `field` (a keyframe value, a key time), or nil.
    public var element: Int?
    /// What is wrong, in plain words.
    public var message: String

    /// An error at `field` (and `element` inside it). O(1).
    public init(field: String, element: Int? = nil, message: String) {
        self.field = field
        self.element = element
        self.message = message
    }

    /// `"<field>[<element>]: <message>"`, one line.
    public var description: String {
        "\(field)\(element.map { "[\($0)]" } ?? ""): \(message)"
    }
}

/// How a keyframe animation goes from value to value (`CAAnimationCalculationMode`;
/// `cubicPaced` is not in version 1).
public enum CalculationMode: String, CaseIterable, Hashable, Sendable {
    /// Straight lines between the values, at the key times.
    case linear
    /// Each value held until the next key time.
    case discrete
    /// Straight lines, key times from the distances between the values.
    case paced
    /// Catmull-Rom tangents adjusted for unequal key times (Kochanek–Bartels with zero
    /// tension, continuity and bias).
    case cubic
}

/// The values of a keyframe animation (docs/ANIMATION.md section 6).
public struct Keyframes: Hashable, Sendable {
    /// n ≥ 1 values, each with the key path's arity.
    public var values: [[Double]]
    /// n numbers (n or n + 1 for `discrete`), 0 first, 1 last, non-decreasing (increasing
    /// for `cubic`); nil spaces them evenly.
    public var keyTimes: [Double]?
    /// n − 1 functions, one per segment; nil leaves each segment linear in time.
    public var timingFunctions: [TimingFunction]?
    /// How values are joined.
    public var calculationMode: CalculationMode

    /// Keyframes; checked when the animation is added (`Animation.problem()`). O(1).
    public init(
        values: [[Double]], keyTimes: [Double]? = nil, timingFunctions: [TimingFunction]? = nil,
        calculationMode: CalculationMode = .linear
    ) {
        self.values = values
        self.keyTimes = keyTimes
        self.timingFunctions = timingFunctions
        self.calculationMode = calculationMode
    }
}

/// One animation of one layer property: the key path, its timing, how it composes and
/// its curve. Values are arrays of numbers with the key path's arity
/// (`AnimationKeyPath.arity`; a whole transform also takes 6, an affine transform).
public struct Animation: Hashable, Sendable {
    /// What the animation interpolates.
    public enum Content: Hashable, Sendable {
        /// CABasicAnimation: from, to, by (any may be nil; section 4.1 picks the ends).
        case basic(from: [Double]?, to: [Double]?, by: [Double]?)
        /// CASpringAnimation: a basic animation whose progress is the spring's (5.4).
        case spring(Spring, from: [Double]?, to: [Double]?, by: [Double]?)
        /// CAKeyframeAnimation.
        case keyframe(Keyframes)
    }

    /// The property animated.
    public var keyPath: AnimationKeyPath
    /// What is interpolated, and how.
    public var content: Content
    /// CAMediaTiming.
    public var timing = AnimationTiming()
    /// The animation's own timing function (basic, keyframe); nil: progress = time.
    public var timingFunction: TimingFunction?
    /// Adds to the value underneath instead of replacing it (section 4.3).
    public var isAdditive = false
    /// Each completed iteration adds the iteration's change (section 4.3).
    public var isCumulative = false

    /// An animation; checked when it is added (`problem()`). O(1).
    public init(
        keyPath: AnimationKeyPath, content: Content, timing: AnimationTiming = AnimationTiming(),
        timingFunction: TimingFunction? = nil, isAdditive: Bool = false, isCumulative: Bool = false
    ) {
        self.keyPath = keyPath
        self.content = content
        self.timing = timing
        self.timingFunction = timingFunction
        self.isAdditive = isAdditive
        self.isCumulative = isCumulative
    }

    /// The first problem docs/ANIMATION.md section 12 and SCENE-FORMAT.md reject, or nil.
    /// O(values).
    public func problem() -> AnimationError? {
        if let problem = timing.problem() { return problem }
        if keyPath.isWholeTransform && isCumulative {
            return AnimationError(field: "cumulative", message: "not allowed on \(keyPath.rawValue)")
        }
        switch content {
        case .basic(let from, let to, let by), .spring(_, let from, let to, let by):
            if spring != nil && timingFunction != nil {
                return AnimationError(field: "timingFunction", message: "a spring has no timing function")
            }
            if keyPath.isWholeTransform && by != nil {
                return AnimationError(field: "byValue", message: "not allowed on \(keyPath.rawValue)")
            }
            for (field, value) in [("fromValue", from), ("toValue", to), ("byValue", by)] {
                if let value, let problem = valueProblem(value, field: field, element: nil) { return problem }
            }
            return nil
        case .keyframe(let keyframes): return keyframesProblem(keyframes)
        }
    }

    /// The spring, for a spring animation.
    var spring: Spring? {
        if case .spring(let spring, _, _, _) = content { return spring }
        return nil
    }

    /// A value of the wrong arity or with a non-finite number.
    func valueProblem(_ value: [Double], field: String, element: Int?) -> AnimationError? {
        let allowed = keyPath.isWholeTransform ? [6, 16] : [keyPath.arity]
        guard allowed.contains(value.count) else {
            let expected = keyPath.isWholeTransform ? "6 or 16" : "\(keyPath.arity)"
            return AnimationError(
                field: field, element: element,
                message: "\(keyPath.rawValue) takes \(expected) numbers, got \(value.count)")
        }
        if value.contains(where: { !$0.isFinite }) {
            return AnimationError(field: field, element: element, message: "animation values must be finite")
        }
        return nil
    }

    private func keyframesProblem(_ keyframes: Keyframes) -> AnimationError? {
        let n = keyframes.values.count
        let mode = keyframes.calculationMode
        guard n > 0 else { return AnimationError(field: "values", message: "must not be empty") }
        if keyPath.isWholeTransform && (mode == .paced || mode == .cubic) {
            return AnimationError(
                field: "calculationMode", message: "\(mode.rawValue) is not allowed on \(keyPath.rawValue)")
        }
        for (index, value) in keyframes.values.enumerated() {
            if let problem = valueProblem(value, field: "values", element: index) { return problem }
        }
        if let keyTimes = keyframes.keyTimes, let problem = keyTimesProblem(keyTimes, count: n, mode: mode) {
            return problem
        }
        if let functions = keyframes.timingFunctions, functions.count != Swift.max(n - 1, 0) {
            return AnimationError(
                field: "timingFunctions",
                message: "expected \(Swift.max(n - 1, 0)) (one per segment), got \(functions.count)")
        }
        return nil
    }

    private func keyTimesProblem(_ keyTimes: [Double], count n: Int, mode: CalculationMode) -> AnimationError? {
        let counts = mode == .discrete ? [n, n + 1] : [n]
        guard counts.contains(keyTimes.count) else {
            let expected = mode == .discrete ? "\(n) or \(n + 1)" : "\(n)"
            return AnimationError(
                field: "keyTimes", message: "expected \(expected) (one per value), got \(keyTimes.count)")
        }
        for (index, time) in keyTimes.enumerated() where !time.isFinite {
            return AnimationError(field: "keyTimes", element: index, message: "must be finite")
        }
        if keyTimes[0] != 0 { return AnimationError(field: "keyTimes", element: 0, message: "must be 0") }
        if keyTimes[keyTimes.count - 1] != 1 {
            return AnimationError(field: "keyTimes", element: keyTimes.count - 1, message: "must be 1")
        }
        for index in keyTimes.indices.dropFirst() {
            if keyTimes[index] < keyTimes[index - 1] {
                return AnimationError(field: "keyTimes", element: index, message: "key times must not decrease")
            }
            if mode == .cubic && keyTimes[index] == keyTimes[index - 1] {
                return AnimationError(field: "keyTimes", element: index, message: "cubic key times must increase")
            }
        }
        return nil
    }
}
