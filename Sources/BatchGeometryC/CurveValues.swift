// The plain structs of batchgeometry.h's "Curves" section, checked and turned into the
// Swift values they stand for. Each check names the argument and field that breaks a
// rule (`spring.mass must be positive and finite, got -1.0`), so that no struct reaches a
// Swift initializer that would replace or trap on it.

import BatchGeometry
import CBatchGeometry

extension bg_timing_function {
    /// `.invalid` naming `argument` and the field unless x1 and x2 lie in [0, 1] and y1
    /// and y2 are finite.
    @inline(__always)
    func check(_ argument: @autoclosure () -> String) throws(CFailure) {
        guard x1 >= 0 && x1 <= 1 else { throw CFailure.invalid("\(argument()).x1 must be in [0, 1], got \(x1)") }
        guard y1.isFinite else { throw CFailure.invalid("\(argument()).y1 must be finite, got \(y1)") }
        guard x2 >= 0 && x2 <= 1 else { throw CFailure.invalid("\(argument()).x2 must be in [0, 1], got \(x2)") }
        guard y2.isFinite else { throw CFailure.invalid("\(argument()).y2 must be finite, got \(y2)") }
    }

    /// The Swift function of a checked struct (named when within 0.001 of one).
    @inline(__always)
    var curve: TimingFunction {
        // The floats are exact in double, so the initializer's rounding gives them back.
        TimingFunction(controlPoints: Double(x1), Double(y1), Double(x2), Double(y2))!
    }

    /// The struct of a Swift function: its four floats.
    init(_ function: TimingFunction) {
        self.init(x1: function.x1, y1: function.y1, x2: function.x2, y2: function.y2)
    }
}

extension bg_spring {
    /// `.invalid` naming `argument` and the field unless mass and stiffness are positive
    /// and finite, damping ≥ 0 and finite, the velocity finite.
    @inline(__always)
    func check(_ argument: @autoclosure () -> String) throws(CFailure) {
        guard mass > 0 && mass.isFinite else {
            throw CFailure.invalid("\(argument()).mass must be positive and finite, got \(mass)")
        }
        guard stiffness > 0 && stiffness.isFinite else {
            throw CFailure.invalid("\(argument()).stiffness must be positive and finite, got \(stiffness)")
        }
        guard damping >= 0 && damping.isFinite else {
            throw CFailure.invalid("\(argument()).damping must be 0 or more and finite, got \(damping)")
        }
        guard initial_velocity.isFinite else {
            throw CFailure.invalid("\(argument()).initial_velocity must be finite, got \(initial_velocity)")
        }
    }

    /// The Swift spring of a checked struct.
    @inline(__always)
    var curve: Spring {
        Spring(
            mass: mass, stiffness: stiffness, damping: damping, initialVelocity: initial_velocity,
            allowsOverdamping: allows_overdamping)
    }
}

extension bg_spring_durations {
    /// The three durations of `spring` (`duration(forEpsilon:speed:)`, `settlingDuration`,
    /// `perceptualDuration`).
    init(_ spring: Spring, epsilon: Double, speed: Double) {
        self.init(
            for_epsilon: spring.duration(forEpsilon: epsilon, speed: speed), settling: spring.settlingDuration,
            perceptual: spring.perceptualDuration)
    }
}

extension bg_deceleration {
    /// `.invalid` naming `argument` and the field unless offset and velocity are finite,
    /// the rate is not NaN, the display scale is positive and finite, and the scroll range
    /// has no NaN and each minimum at most its maximum.
    func check(_ argument: @autoclosure () -> String) throws(CFailure) {
        try ScrollDeceleration.check(
            offset: Point(x: offset.0, y: offset.1), velocity: Point(x: velocity.0, y: velocity.1), rate: rate,
            displayScale: display_scale, range: scroll_range, field: { argument() + "." + $0 })
    }

    /// The Swift deceleration of a checked struct's inputs.
    var curve: ScrollDeceleration {
        ScrollDeceleration(
            offset: Point(x: offset.0, y: offset.1), velocity: Point(x: velocity.0, y: velocity.1), rate: rate,
            displayScale: display_scale, range: scroll_range)
    }

    /// The struct of a Swift deceleration: its inputs (the rate it used), target and duration.
    init(_ deceleration: ScrollDeceleration) {
        self.init(
            offset: (deceleration.startOffset.x, deceleration.startOffset.y),
            velocity: (deceleration.velocity.x, deceleration.velocity.y), rate: deceleration.rate,
            display_scale: deceleration.displayScale,
            scroll_range: (
                deceleration.minimumOffset.x, deceleration.maximumOffset.x, deceleration.minimumOffset.y,
                deceleration.maximumOffset.y
            ), target: (deceleration.target.x, deceleration.target.y), duration: deceleration.duration)
    }
}

/// A scroll range as batchgeometry.h passes it: `{minX, maxX, minY, maxY}`.
typealias CScrollRange = (Double, Double, Double, Double)

/// No clamp: every offset is in range.
let unboundedScrollRange: CScrollRange = (-.infinity, .infinity, -.infinity, .infinity)

extension ScrollDeceleration {
    /// `.invalid` naming the field (as `field` writes its name; called only on the error
    /// path) unless the inputs are those `init(offset:velocity:rate:displayScale:range:)`
    /// takes.
    static func check(
        offset: Point, velocity: Point, rate: Double, displayScale: Double, range: CScrollRange,
        field: (String) -> String
    ) throws(CFailure) {
        guard offset.x.isFinite && offset.y.isFinite else {
            throw CFailure.invalid("\(field("offset")) must be finite, got {\(offset.x), \(offset.y)}")
        }
        guard velocity.x.isFinite && velocity.y.isFinite else {
            throw CFailure.invalid("\(field("velocity")) must be finite, got {\(velocity.x), \(velocity.y)}")
        }
        guard !rate.isNaN else { throw CFailure.invalid("\(field("rate")) is NaN") }
        guard displayScale > 0 && displayScale.isFinite else {
            throw CFailure.invalid("\(field("display_scale")) must be positive and finite, got \(displayScale)")
        }
        // Comparisons with NaN are false, so this also refuses NaN.
        guard range.0 <= range.1 && range.2 <= range.3 else {
            throw CFailure.invalid(
                "\(field("scroll_range")) must be {minX, maxX, minY, maxY} with each minimum at most its maximum "
                    + "and no NaN, got {\(range.0), \(range.1), \(range.2), \(range.3)}")
        }
    }

    /// A deceleration from inputs that passed `check`; `range` is `{minX, maxX, minY, maxY}`.
    init(offset: Point, velocity: Point, rate: Double, displayScale: Double, range: CScrollRange) {
        self.init(
            offset: offset, velocity: velocity, rate: rate, displayScale: displayScale,
            scrollRange: (x: range.0...range.1, y: range.2...range.3))
    }
}
