// Core Animation's spring (CASpringAnimation, docs/ANIMATION.md section 5): the closed-form
// damped oscillator in Apple's operation order, its durations, and the sampled
// settling search. Values use the package's exp and sincos (CAffineKernels' `BGExp`,
// `BGSinCosOf`: the lane kernels' bits); durations the C library's exp, log, sin and cos
// (not Foundation's), which Apple's printed durations are checked against to the bit.

import CAffineKernels

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#elseif canImport(ucrt)
import ucrt
#endif

/// A Core Animation spring (`CASpringAnimation`'s physics): a mass on a spring with
/// damping, moving from 0 toward 1. ``value(at:)`` is its position after `t` seconds.
///
/// Invalid parameters are replaced as Core Animation's setters replace them: a mass ≤ 0 by
/// 1, a stiffness ≤ 0 by 100, a damping < 0 by 10 (NaN is kept). The damping ratio
/// ζ = damping / (2·√(stiffness·mass)) picks the ``Regime-swift.enum``; above 1 the spring is
/// critically damped unless ``allowsOverdamping`` is true, as in Core Animation.
///
/// Everything is computed in docs/ANIMATION.md section 5's operation order, so that
/// Apple's printed durations (1.0999999999999999 for `duration(forEpsilon: 0.01)` of the
/// damping ratio 1, response 1 spring) come out to the bit. The coefficients are computed
/// once, at initialization; a value is a few doubles.
public struct Spring: Hashable, Sendable {
    /// How the spring comes to rest.
    public enum Regime: Hashable, Sendable {
        /// ζ < 1: it oscillates about 1 with a decaying amplitude.
        case underdamped
        /// ζ = 1, or ζ > 1 without ``Spring/allowsOverdamping``: the fastest approach
        /// without oscillating (what Core Animation uses for every ζ ≥ 1 by default).
        case criticallyDamped
        /// ζ > 1 with ``Spring/allowsOverdamping``: Core Animation's overdamped formula
        /// (transcribed from Apple's code, not checked against a device).
        case overdamped
    }

    /// The mass, in Core Animation's units (default 1).
    public let mass: Double
    /// The spring's stiffness k (default 100).
    public let stiffness: Double
    /// The damping coefficient c (default 10).
    public let damping: Double
    /// The velocity at time 0, in units of the whole 0 → 1 change per second (positive
    /// moves toward 1).
    public let initialVelocity: Double
    /// Whether a damping ratio above 1 is overdamped (true) or treated as critical damping
    /// (false, Core Animation's default).
    public let allowsOverdamping: Bool
    /// ζ = damping / (r + r) with r = √(stiffness·mass).
    public let dampingRatio: Double
    /// ω0 = √(stiffness / mass), radians per second.
    public let naturalFrequency: Double
    /// Which formula ``value(at:)`` uses.
    public let regime: Regime

    /// The closed form's constants: A, B, and ωd (underdamped) or σ (overdamped); h = ω0·ζ.
    let coefficientA: Double
    let coefficientB: Double
    let frequency: Double
    let decay: Double

    /// A spring with Core Animation's parameters and defaults (`CASpringAnimation`'s mass 1,
    /// stiffness 100, damping 10, initial velocity 0). Invalid values are replaced (see the
    /// type's documentation). O(1), no allocation.
    public init(
        mass: Double = 1, stiffness: Double = 100, damping: Double = 10, initialVelocity: Double = 0,
        allowsOverdamping: Bool = false
    ) {
        let m = mass <= 0 ? 1 : mass
        let k = stiffness <= 0 ? 100 : stiffness
        let c = damping < 0 ? 10 : damping
        let v = initialVelocity
        self.mass = m
        self.stiffness = k
        self.damping = c
        self.initialVelocity = v
        self.allowsOverdamping = allowsOverdamping
        let w0 = (k / m).squareRoot()
        let r = (k * m).squareRoot()
        let zeta = c / (r + r)
        naturalFrequency = w0
        dampingRatio = zeta
        if zeta < 1 {
            regime = .underdamped
            let wd = (-(zeta * zeta + -1)).squareRoot() * w0
            coefficientA = 1
            coefficientB = -(v - zeta * w0) / wd
            frequency = wd
            decay = 0
        } else if zeta > 1 && allowsOverdamping {
            regime = .overdamped
            let sigma = (zeta * zeta + -1).squareRoot() * w0
            let q = v + zeta * w0
            coefficientA = (q + sigma) / (sigma + sigma)
            coefficientB = (sigma - q) / (sigma + sigma)
            frequency = sigma
            decay = w0 * zeta
        } else {
            // ζ == 1, ζ > 1 without overdamping, and a NaN ζ (whose values are NaN anyway).
            regime = .criticallyDamped
            coefficientA = 1
            coefficientB = w0 - v
            frequency = 0
            decay = 0
        }
    }

    /// The spring's position x(t) after `time` seconds, from 0 at time 0 toward 1
    /// (docs/ANIMATION.md section 5.2), in double precision:
    ///
    /// - underdamped: `1 − (sin(ωd·t)·B + cos(ωd·t)·A) · exp(−(t·ζ)·ω0)`;
    /// - critically damped: `1 − exp(−(t·ω0)) · (A + B·t)`;
    /// - overdamped: `1 − (exp((σ − h)·t)·B + exp(−(t·(h + σ)))·A)`.
    ///
    /// exp, sin and cos are the package's own (within 1 ulp of the correctly rounded
    /// result; the same bits on every platform and in the batch sampler's lanes), not the
    /// C library's: docs/ANIMATION.md section 5.2. O(1), no allocation.
    public func value(at time: Double) -> Double {
        value(at: time, exp: { BGExp($0) }, sinCos: { BGSinCosOf($0) })
    }

    /// ``value(at:)`` with the C library's exp, sin and cos: for the settling search of
    /// `duration(forEpsilon:speed:)`, whose durations are Apple's to the double bit. O(1).
    func libraryValue(at t: Double) -> Double {
        value(at: t, exp: { exp($0) }, sinCos: { BGSinCos(sin: sin($0), cos: cos($0)) })
    }

    /// The spring's formula with the given exp and sine-cosine (one body, so that both
    /// callers keep the same operation order). O(1).
    @inline(__always)
    private func value(at t: Double, exp: (Double) -> Double, sinCos: (Double) -> BGSinCos) -> Double {
        switch regime {
        case .underdamped:
            let sc = sinCos(frequency * t)
            return 1 - (sc.sin * coefficientB + sc.cos * coefficientA) * exp(-(t * dampingRatio) * naturalFrequency)
        case .criticallyDamped:
            return 1 - exp(-(t * naturalFrequency)) * (coefficientA + coefficientB * t)
        case .overdamped:
            let sigma = frequency
            return 1 - (exp((sigma - decay) * t) * coefficientB + exp(-(t * (decay + sigma))) * coefficientA)
        }
    }

    /// The eight coefficients of `BGSpringValue` and `BGSpringProgress` (regime 0, 1 or
    /// 2, ω0, ζ, ωd or σ, A, B, h, 0): the batch sampler's spring table.
    var kernelCoefficients: (Double, Double, Double, Double, Double, Double, Double, Double) {
        let code: Double = regime == .underdamped ? 0 : (regime == .criticallyDamped ? 1 : 2)
        return (code, naturalFrequency, dampingRatio, frequency, coefficientA, coefficientB, decay, 0)
    }

    /// A spring animation's progress after `time` seconds of its local time:
    /// ``value(at:)`` rounded to a float, as Core Animation keeps it (docs/ANIMATION.md
    /// section 5.4). The spring runs in seconds; an animation's duration only cuts it.
    /// O(1), no allocation.
    public func progress(at time: Double) -> Float { Float(value(at: time)) }

    /// What Core Animation's private `-[CASpringAnimation _solveForInput:]` returns for an
    /// animation of this spring lasting `duration` seconds: the progress at
    /// `duration · f32(input)` seconds, a float. O(1), no allocation.
    public func progress(forInput input: Double, duration: Double) -> Float {
        Float(value(at: duration * Double(Float(input))))
    }
}

extension Spring {
    /// The largest finite float, `FLT_MAX`: durations are capped to it.
    static let floatMax = Double(Float.greatestFiniteMagnitude)

    /// Core Animation's `durationForEpsilon:`: how long, in seconds of the animation's
    /// parent time at `speed`, until the spring stays within `epsilon` of its end
    /// (docs/ANIMATION.md section 5.3). `epsilon` below 1e-6 counts as 1e-6.
    ///
    /// Underdamped springs use the envelope, `−log(ε / (|B| + |A|)) / (ω0·ζ)` (0 at least);
    /// an undamped spring (ζ = 0) never settles. Critically damped and overdamped springs
    /// are sampled every 0.1 s (the time accumulated by repeated addition, hence
    /// 1.0999999999999999): the answer is the first sample from which |1 − x| stays
    /// below ε at every sample up to and including the first more than 1 s later. The
    /// result is divided by `|speed|` and capped to `FLT_MAX`; `speed` 0 gives `FLT_MAX`.
    ///
    /// Underdamped: O(1). Otherwise O(duration / 0.1 s) evaluations (a few dozen for
    /// usual springs), at most 10,000,000. No allocation.
    public func duration(forEpsilon epsilon: Double, speed: Double = 1) -> Double {
        var r: Double
        if dampingRatio == 0 {
            r = .infinity
        } else {
            let e = Swift.max(epsilon, 1e-6)
            if regime == .underdamped {
                let amplitude = Swift.abs(coefficientB) + Swift.abs(coefficientA)
                r = Swift.max(-log(e / amplitude) / (naturalFrequency * dampingRatio), 0)
            } else {
                r = sampledSettlingTime(epsilon: e)
            }
        }
        return speed == 0 ? Self.floatMax : Swift.min(Swift.abs(r / speed), Self.floatMax)
    }

    /// The 0.1 s search of `duration(forEpsilon:speed:)` for ζ ≥ 1.
    private func sampledSettlingTime(epsilon e: Double) -> Double {
        var r = -1.0
        var best = Double.infinity
        var t = 0.0
        for _ in 0..<10_000_000 {
            let delta = Swift.abs(1 - libraryValue(at: t))
            if !delta.isFinite { return 0 }
            if best >= e {
                if delta < best {
                    r = t
                    best = delta
                }
            } else if delta >= e {
                best = .infinity
            } else if t - r > 1 {
                break
            }
            t = t + 0.1
        }
        return r
    }

    /// Core Animation's `settlingDuration`: ``duration(forEpsilon:speed:)`` with
    /// ε = 0.001 at speed 1. Same cost.
    public var settlingDuration: Double { duration(forEpsilon: 0.001) }

    /// Core Animation's `perceptualDuration` (SwiftUI's `Spring.duration`, the response):
    /// `√(mass / stiffness) · 2π` seconds; 0 when the stiffness is not finite. O(1).
    public var perceptualDuration: Double {
        stiffness.isFinite ? (mass / stiffness).squareRoot() * 6.283185307179586 : 0
    }
}

extension Spring {
    /// This spring's ``progress(at:)`` at every time, written to `results` (resized to
    /// `times.count`). O(times); no allocation once `results` has the capacity.
    public func progress(at times: [Double], into results: inout [Float]) {
        sampleCurve(at: times, into: &results) { progress(at: $0) }
    }

    /// Samples many springs at once, as an engine does for its running spring
    /// animations: entry i of `results` (resized to `times.count`) is
    /// `springs[i].progress(at: times[i])`, bit for bit. O(count); no allocation once
    /// `results` has the capacity.
    ///
    /// - Precondition: `springs.count == times.count` (else the program stops with a
    ///   message).
    public static func progress(of springs: [Spring], at times: [Double], into results: inout [Float]) {
        sampleCurves(springs, at: times, into: &results, names: ("Spring.progress(of:at:into:)", "springs", "times")) {
            $0.progress(at: $1)
        }
    }
}
