// UIKit's duration-and-damping-ratio springs (docs/ANIMATION.md section 5.5): the
// stiffness and damping that `UIView.animate(withDuration:delay:usingSpringWithDamping:
// initialSpringVelocity:...)` hands Core Animation, found by twelve Newton steps. A
// reconstruction, not checked against a device; the contract holds it until one says
// otherwise.

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#elseif canImport(ucrt)
import ucrt
#endif

extension Spring {
    /// The spring parameters UIKit derives for
    /// `UIView.animate(withDuration:delay:usingSpringWithDamping:initialSpringVelocity:…)`
    /// (docs/ANIMATION.md section 5.5): mass 1, and the stiffness ω² and damping 2ζω whose
    /// spring has decayed to 0.001 after `duration` seconds.
    ///
    /// The duration is clamped to [0.01, 10] seconds and the damping ratio ζ to
    /// [`FLT_EPSILON`, 1]; ω starts at 5 / duration and takes twelve Newton steps with no
    /// convergence test, in IEEE arithmetic throughout, so parameters for which the
    /// iteration diverges give NaN or infinities (returned as they are, not replaced).
    ///
    /// - Parameters:
    ///   - duration: the animation's duration, in seconds.
    ///   - dampingRatio: `usingSpringWithDamping`, 1 for no overshoot.
    ///   - initialVelocity: `initialSpringVelocity`, in units of the whole change per second.
    /// - Returns: the mass (always 1), stiffness and damping, before any replacement of
    ///   invalid values (which ``init(viewAnimationDuration:dampingRatio:initialVelocity:)``
    ///   then applies). O(1): twelve steps. No allocation.
    public static func viewAnimationParameters(
        duration: Double, dampingRatio: Double, initialVelocity: Double = 0
    ) -> (mass: Double, stiffness: Double, damping: Double) {
        let d = Swift.min(Swift.max(duration, 0.01), 10)
        let zeta = Swift.min(Swift.max(dampingRatio, Double(Float.ulpOfOne)), 1)
        let v = initialVelocity
        let epsilon = 0.001
        var w = 5 / d
        if zeta < 1 {
            // Find ω with |B|·exp(−ζ·ω·d) = ε, where B = (ζω − v)/(ω·√(1 − ζ²)).
            let q = (1 - zeta * zeta).squareRoot()
            for _ in 0..<12 {
                let a = zeta * w
                let b = (a - v) / (w * q)
                let sign: Double = b < 0 ? -1 : 1
                let e = exp(-(a * d))
                let g = epsilon - (sign * b) * e
                let slope = ((-sign) * e) * (((v + (a * d) * v) - (a * a) * d) / ((w * w) * q))
                w = w - g / slope
            }
        } else {
            // ζ = 1: (1 + (ω − v)·d)·exp(−ω·d) = ε.
            for _ in 0..<12 {
                let e = exp(-(w * d))
                let g = (1 + (w - v) * d) * e - epsilon
                let slope = ((v - w) * (d * d)) * e
                w = w - g / slope
            }
        }
        return (mass: 1, stiffness: w * w, damping: (2 * zeta) * w)
    }

    /// The spring of a UIKit spring animation: the parameters of
    /// ``viewAnimationParameters(duration:dampingRatio:initialVelocity:)`` with
    /// `initialVelocity`, not allowing overdamping. O(1), no allocation.
    public init(viewAnimationDuration duration: Double, dampingRatio: Double, initialVelocity: Double = 0) {
        let parameters = Spring.viewAnimationParameters(
            duration: duration, dampingRatio: dampingRatio, initialVelocity: initialVelocity)
        self.init(
            mass: parameters.mass, stiffness: parameters.stiffness, damping: parameters.damping,
            initialVelocity: initialVelocity)
    }
}
