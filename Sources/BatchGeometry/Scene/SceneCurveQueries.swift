// The standalone curve queries of a scene file (SCENE-FORMAT.md "Animations and time"):
// timing functions, springs, UIKit's spring mapping, scroll deceleration and the rubber
// band, each answered by the Time/ functions, and their part of the output document.

/// The curve queries of a scene file (the top-level `timingFunctions`, `springs`,
/// `viewSprings`, `decelerations` and `rubberBands`), already validated. Each is nil when
/// the scene does not have its key, and then its output is absent too.
public struct SceneCurveQueries: Sendable, Equatable {
    /// `timingFunctions`: a function and the inputs to solve it at.
    public var timingFunctions: [SceneTimingFunctionQuery]?
    /// `springs`: a spring, the epsilons for its durations and `_solveForInput:` inputs.
    public var springs: [SceneSpringQuery]?
    /// `viewSprings`: UIKit's duration and damping ratio, to map to a spring.
    public var viewSprings: [SceneViewSpringQuery]?
    /// `decelerations`: a scroll deceleration (its scale already resolved to the scene's
    /// when the query has none) and the times to sample it at.
    public var decelerations: [SceneDecelerationQuery]?
    /// `rubberBands`.
    public var rubberBands: [SceneRubberBandQuery]?

    /// No queries. O(1).
    public init() {}
}

/// One entry of `timingFunctions`: `function` solved at each of `inputs`.
public struct SceneTimingFunctionQuery: Sendable, Equatable {
    /// The timing function (named, or custom control points, snapped as Core Animation does).
    public var function: TimingFunction
    /// The time fractions to solve it at.
    public var inputs: [Double]

    public init(function: TimingFunction, inputs: [Double]) {
        self.function = function
        self.inputs = inputs
    }
}

/// One entry of `springs`.
public struct SceneSpringQuery: Sendable, Equatable {
    /// The spring (invalid parameters already replaced, as Core Animation does).
    public var spring: Spring
    /// The epsilons of `durationForEpsilon`.
    public var epsilons: [Double]
    /// The inputs of `_solveForInput:`, fractions of `duration`.
    public var inputs: [Double]
    /// The animation's duration that `_solveForInput:` scales its input by, in seconds.
    public var duration: Double

    public init(spring: Spring, epsilons: [Double], inputs: [Double], duration: Double) {
        self.spring = spring
        self.epsilons = epsilons
        self.inputs = inputs
        self.duration = duration
    }
}

/// One entry of `viewSprings`: the arguments of
/// `UIView.animate(withDuration:delay:usingSpringWithDamping:initialSpringVelocity:…)`.
public struct SceneViewSpringQuery: Sendable, Equatable {
    /// The animation's duration, in seconds.
    public var duration: Double
    /// The damping ratio (`usingSpringWithDamping`).
    public var dampingRatio: Double
    /// `initialSpringVelocity`.
    public var initialVelocity: Double

    public init(duration: Double, dampingRatio: Double, initialVelocity: Double) {
        self.duration = duration
        self.dampingRatio = dampingRatio
        self.initialVelocity = initialVelocity
    }
}

/// One entry of `decelerations`.
public struct SceneDecelerationQuery: Sendable, Equatable {
    /// The deceleration, with its scroll range when the query gave the sizes.
    public var deceleration: ScrollDeceleration
    /// The times, in seconds after release, to report the offset at; nil when the query
    /// has no `times` (then the output has no `offsets`).
    public var times: [Double]?

    public init(deceleration: ScrollDeceleration, times: [Double]?) {
        self.deceleration = deceleration
        self.times = times
    }
}

/// One entry of `rubberBands`: `rubberBandOffset(overscroll:dimension:constant:)`'s arguments.
public struct SceneRubberBandQuery: Sendable, Equatable {
    /// How far the drag pulls beyond the edge, in points (signed).
    public var offset: Double
    /// The viewport's size along the axis, positive.
    public var dimension: Double
    /// The resistance constant (0.55 by default).
    public var constant: Double

    public init(offset: Double, dimension: Double, constant: Double) {
        self.offset = offset
        self.dimension = dimension
        self.constant = constant
    }
}

/// The answers to a scene's curve queries, one entry per query, in order; each nil when
/// the scene did not have its key.
public struct SceneCurveOutputs: Sendable, Equatable {
    /// `timingFunctionOutputs`: per query, the value at each input (floats).
    public internal(set) var timingFunctions: [[Float]]?
    /// `springOutputs`.
    public internal(set) var springs: [SceneSpringOutput]?
    /// `viewSpringOutputs`.
    public internal(set) var viewSprings: [SceneViewSpringOutput]?
    /// `decelerationOutputs`.
    public internal(set) var decelerations: [SceneDecelerationOutput]?
    /// `rubberBandOutputs`: one number per query.
    public internal(set) var rubberBands: [Double]?

    /// No outputs. O(1).
    public init() {}
}

/// The answers for one `springs` query.
public struct SceneSpringOutput: Sendable, Equatable {
    /// `Spring.settlingDuration`, seconds.
    public internal(set) var settlingDuration: Double
    /// `Spring.perceptualDuration`, seconds.
    public internal(set) var perceptualDuration: Double
    /// `Spring.duration(forEpsilon:)` for each epsilon, seconds.
    public internal(set) var durationForEpsilon: [Double]
    /// `Spring.progress(forInput:duration:)` for each input (floats).
    public internal(set) var values: [Float]
}

/// The answers for one `viewSprings` query: `Spring.viewAnimationParameters(…)`.
public struct SceneViewSpringOutput: Sendable, Equatable {
    /// Always 1.
    public internal(set) var mass: Double
    /// ω².
    public internal(set) var stiffness: Double
    /// 2ζω.
    public internal(set) var damping: Double
}

/// The answers for one `decelerations` query.
public struct SceneDecelerationOutput: Sendable, Equatable {
    /// `ScrollDeceleration.target`: the resting offset, clamped and rounded.
    public internal(set) var target: Point
    /// `ScrollDeceleration.duration`, seconds.
    public internal(set) var duration: Double
    /// The offset at each of the query's times; nil when it had none.
    public internal(set) var offsets: [Point]?
}

extension SceneCurveQueries {
    /// Answers every query with the Time/ functions. O(inputs + epsilons + times), each
    /// critically damped spring's durations O(duration / 0.1 s). Never fails: the decoder
    /// rejected what could not be answered.
    public func evaluate() -> SceneCurveOutputs {
        var outputs = SceneCurveOutputs()
        outputs.timingFunctions = timingFunctions?.map { query in query.inputs.map { query.function.value(at: $0) } }
        outputs.springs = springs?.map { query in
            SceneSpringOutput(
                settlingDuration: query.spring.settlingDuration,
                perceptualDuration: query.spring.perceptualDuration,
                durationForEpsilon: query.epsilons.map { query.spring.duration(forEpsilon: $0) },
                values: query.inputs.map { query.spring.progress(forInput: $0, duration: query.duration) })
        }
        outputs.viewSprings = viewSprings?.map { query in
            let parameters = Spring.viewAnimationParameters(
                duration: query.duration, dampingRatio: query.dampingRatio, initialVelocity: query.initialVelocity)
            return SceneViewSpringOutput(
                mass: parameters.mass, stiffness: parameters.stiffness, damping: parameters.damping)
        }
        outputs.decelerations = decelerations?.map { query in
            SceneDecelerationOutput(
                target: query.deceleration.target, duration: query.deceleration.duration,
                offsets: query.times?.map { query.deceleration.offset(at: $0) })
        }
        outputs.rubberBands = rubberBands?.map {
            rubberBandOffset(overscroll: $0.offset, dimension: $0.dimension, constant: $0.constant)
        }
        return outputs
    }
}

extension SceneCurveOutputs {
    /// Appends the present outputs as top-level members of the output document, each
    /// starting with `,\n "key": `, in the order of SCENE-FORMAT.md. Floats are written as
    /// the doubles they are.
    func appendJSON(to output: inout String) {
        if let timingFunctions {
            output += ",\n \"timingFunctionOutputs\": ["
            for (index, values) in timingFunctions.enumerated() {
                output += index > 0 ? ", " : ""
                appendJSONNumbers(values.map(Double.init), to: &output)
            }
            output += "]"
        }
        if let springs {
            output += ",\n \"springOutputs\": ["
            for (index, spring) in springs.enumerated() {
                output += index > 0 ? ",\n  {\"settlingDuration\": " : "\n  {\"settlingDuration\": "
                appendJSONNumber(spring.settlingDuration, to: &output)
                output += ", \"perceptualDuration\": "
                appendJSONNumber(spring.perceptualDuration, to: &output)
                output += ", \"durationForEpsilon\": "
                appendJSONNumbers(spring.durationForEpsilon, to: &output)
                output += ", \"values\": "
                appendJSONNumbers(spring.values.map(Double.init), to: &output)
                output += "}"
            }
            output += springs.isEmpty ? "]" : "\n ]"
        }
        if let viewSprings {
            output += ",\n \"viewSpringOutputs\": ["
            for (index, spring) in viewSprings.enumerated() {
                output += index > 0 ? ",\n  {\"mass\": " : "\n  {\"mass\": "
                appendJSONNumber(spring.mass, to: &output)
                output += ", \"stiffness\": "
                appendJSONNumber(spring.stiffness, to: &output)
                output += ", \"damping\": "
                appendJSONNumber(spring.damping, to: &output)
                output += "}"
            }
            output += viewSprings.isEmpty ? "]" : "\n ]"
        }
        appendDecelerations(to: &output)
        if let rubberBands {
            output += ",\n \"rubberBandOutputs\": "
            appendJSONNumbers(rubberBands, to: &output)
        }
    }

    private func appendDecelerations(to output: inout String) {
        guard let decelerations else { return }
        func appendPoint(_ point: Point) {
            output += "["
            appendJSONNumber(point.x, to: &output)
            output += ", "
            appendJSONNumber(point.y, to: &output)
            output += "]"
        }
        output += ",\n \"decelerationOutputs\": ["
        for (index, deceleration) in decelerations.enumerated() {
            output += index > 0 ? ",\n  {\"target\": " : "\n  {\"target\": "
            appendPoint(deceleration.target)
            output += ", \"duration\": "
            appendJSONNumber(deceleration.duration, to: &output)
            if let offsets = deceleration.offsets {
                output += ", \"offsets\": ["
                for (index, offset) in offsets.enumerated() {
                    output += index > 0 ? ", " : ""
                    appendPoint(offset)
                }
                output += "]"
            }
            output += "}"
        }
        output += decelerations.isEmpty ? "]" : "\n ]"
    }
}
