// CAMediaTiming for layers and animations (docs/ANIMATION.md section 2): a layer's own
// time, an animation's phase (before, active, after), its fill and removal, and the local
// time and iteration count a curve is sampled at.

/// What an animation shows outside its active duration (`CAMediaTimingFillMode`).
public enum FillMode: String, CaseIterable, Hashable, Sendable {
    /// Nothing before it starts or after it ends (Core Animation's default).
    case removed
    /// Its end value after it ends (when it is not removed on completion).
    case forwards
    /// Its start value before it starts.
    case backwards
    /// Both `forwards` and `backwards`.
    case both

    var fillsBackwards: Bool { self == .backwards || self == .both }
    var fillsForwards: Bool { self == .forwards || self == .both }
}

/// A layer's own timing (the three `CAMediaTiming` properties a layer has in version 1,
/// docs/ANIMATION.md 2.1): `t(layer) = (t(superlayer) − beginTime) · speed + timeOffset`,
/// seconds. The default maps its superlayer's time unchanged.
public struct LayerTiming: Hashable, Sendable {
    /// Seconds of the superlayer's time at which the layer's time starts. Default 0.
    public var beginTime: Double
    /// The rate of the layer's time against its superlayer's; 0 freezes the subtree at
    /// `timeOffset`. Default 1.
    public var speed: Double
    /// Seconds added after the speed. Default 0.
    public var timeOffset: Double

    /// A layer timing; every value must be finite (checked where it is set:
    /// `AnimationStore.setTiming(_:of:)`).
    public init(beginTime: Double = 0, speed: Double = 1, timeOffset: Double = 0) {
        self.beginTime = beginTime
        self.speed = speed
        self.timeOffset = timeOffset
    }

    /// The identity mapping: begin 0, speed 1, offset 0.
    public static let `default` = LayerTiming()

    /// The layer's time for its superlayer's time `parentTime`. O(1).
    @inline(__always)
    public func localTime(_ parentTime: Double) -> Double { (parentTime - beginTime) * speed + timeOffset }
}

/// An animation's `CAMediaTiming` (docs/ANIMATION.md 2.2), in the time of the layer it is
/// added to. Seconds throughout.
public struct AnimationTiming: Hashable, Sendable {
    /// When the animation starts, in the layer's time (0 means time 0: there is no "now").
    public var beginTime: Double = 0
    /// One iteration's length; 0 means 0.25 s (Core Animation's default). ≥ 0.
    public var duration: Double = 0
    /// The animation's rate: 0 freezes it at `timeOffset`, negative plays it backward.
    public var speed: Double = 1
    /// Seconds of local time added after the speed (shifts the phase, not the span).
    public var timeOffset: Double = 0
    /// Iterations to play (fractional allowed, `.infinity` forever); 0 means 1. ≥ 0.
    public var repeatCount: Double = 0
    /// Seconds of active time to play instead of a count; 0 means unused. ≥ 0, and not
    /// together with `repeatCount`.
    public var repeatDuration: Double = 0
    /// Whether each iteration plays forward then back.
    public var autoreverses = false
    /// What shows before the start and after the end.
    public var fillMode = FillMode.removed
    /// Whether the animation leaves the store at the first sample after its end.
    public var removedOnCompletion = true

    /// The default timing: begins at 0, lasts 0.25 s, once, removed on completion.
    public init() {}

    /// The problem with these values, naming the field, or nil when they are valid: every
    /// number finite (repeatCount may be `+infinity`), duration, repeatCount and
    /// repeatDuration ≥ 0, not both repeatCount and repeatDuration. O(1).
    func problem() -> AnimationError? {
        for (field, value) in [("beginTime", beginTime), ("speed", speed), ("timeOffset", timeOffset)]
        where !value.isFinite {
            return AnimationError(field: field, message: "expected a finite number, got \(shownNumber(value))")
        }
        for (field, value) in [("duration", duration), ("repeatDuration", repeatDuration)]
        where !(value.isFinite && value >= 0) {
            return AnimationError(field: field, message: "must be a finite number ≥ 0, got \(shownNumber(value))")
        }
        guard repeatCount >= 0 && (repeatCount.isFinite || repeatCount == .infinity) else {
            return AnimationError(field: "repeatCount", message: "must be ≥ 0, got \(shownNumber(repeatCount))")
        }
        if repeatCount > 0 && repeatDuration > 0 {
            return AnimationError(
                field: "repeatDuration", message: "repeatCount and repeatDuration cannot both be set (Apple: undefined)"
            )
        }
        return nil
    }
}

/// Where an animation is at one sample (docs/ANIMATION.md 2.3, 2.4).
enum AnimationPhase: Equatable {
    /// It contributes nothing (before without a backward fill, after without a forward fill).
    case silent
    /// It contributes its value at local time `local` (seconds in `[0, d]`) after
    /// `iteration` completed iterations.
    case showing(local: Double, iteration: Double)
}

/// An animation's timing with the derived lengths resolved once when it is added.
struct ResolvedTiming: Sendable {
    var beginTime: Double
    /// `d`: the duration, 0.25 when 0 was given.
    var duration: Double
    var speed: Double
    var timeOffset: Double
    /// `I`: one iteration, forward and back when autoreversing.
    var iteration: Double
    /// `D`: the active duration.
    var active: Double
    var autoreverses: Bool
    var fillMode: FillMode
    var removedOnCompletion: Bool

    init(_ timing: AnimationTiming) {
        beginTime = timing.beginTime
        duration = timing.duration == 0 ? 0.25 : timing.duration
        speed = timing.speed
        timeOffset = timing.timeOffset
        iteration = timing.autoreverses ? duration + duration : duration
        if timing.repeatDuration > 0 {
            active = timing.repeatDuration
        } else if timing.repeatCount > 0 {
            active = timing.repeatCount * iteration
        } else {
            active = iteration
        }
        autoreverses = timing.autoreverses
        fillMode = timing.fillMode
        removedOnCompletion = timing.removedOnCompletion
    }

    /// Whether the animation is after its end at layer time `parentTime` (2.3). O(1).
    @inline(__always)
    func isAfterEnd(_ parentTime: Double) -> Bool {
        parentTime >= beginTime && (parentTime - beginTime) * Swift.abs(speed) > active
    }

    /// The phase at layer time `parentTime` for an animation that is not after its end
    /// or is kept after it (2.3). O(1).
    func phase(_ parentTime: Double) -> AnimationPhase {
        if parentTime < beginTime {
            return fillMode.fillsBackwards ? localTime(activeTime: 0) : .silent
        }
        let tau = (parentTime - beginTime) * Swift.abs(speed)
        if tau > active {
            return fillMode.fillsForwards ? localTime(activeTime: active) : .silent
        }
        return localTime(activeTime: tau)
    }

    /// The local time λ and iteration k at active time τ (2.4), in the spec's order.
    func localTime(activeTime tau: Double) -> AnimationPhase {
        let l = (speed < 0 ? -tau : tau) + timeOffset
        var k = roundedDown(l / iteration)
        var r = l - k * iteration
        if tau == active && speed > 0 && r == 0 {
            r = iteration
            k = k - 1
        }
        r = Swift.min(Swift.max(r, 0), iteration)
        if autoreverses {
            return .showing(local: r <= duration ? r : iteration - r, iteration: 0)
        }
        return .showing(local: r, iteration: k)
    }
}

/// `x.rounded(.down)`, the same number (its sign too). On x86-64 the baseline has no
/// rounding instruction (SSE4.1's `roundsd`), so `rounded(.down)` is a call to libm's
/// `floor`, with the registers of the timing loops spilled around it (~20 instructions a
/// sample): below 2^52 in magnitude the integer part is exact by truncation, one less
/// when that is above x; 0 keeps x's sign (x · 0); larger numbers and NaN go to libm.
@inline(__always)
func roundedDown(_ x: Double) -> Double {
    #if arch(x86_64)
    guard Swift.abs(x) < 0x1p52 else { return x.rounded(.down) }
    let t = Double(Int64(x))
    if t > x { return t - 1 }
    return t == 0 ? x * 0 : t
    #else
    return x.rounded(.down)
    #endif
}
