import CAffineKernels
import XCTest

@testable import BatchGeometry

/// Springs (docs/ANIMATION.md section 5): Apple's durations and values from the evidence
/// of section 13, the regimes and Core Animation's replacement of invalid parameters, the
/// closed form against a numerically integrated equation of motion, and the 0.1 s
/// settling search against its definition in words.
final class SpringTests: XCTestCase {
    /// A SwiftUI-style spring as ComposeUI builds it: mass 1, stiffness (2π/response)²,
    /// damping 4π·ζ/response.
    private func spring(dampingRatio zeta: Double, response: Double, velocity: Double = 0) -> Spring {
        let stiffness = (2 * Double.pi / response) * (2 * Double.pi / response)
        return Spring(
            mass: 1, stiffness: stiffness, damping: 4 * Double.pi * zeta / response, initialVelocity: velocity)
    }

    /// ChouTiUI: damping ratio 1, response 1; `durationForEpsilon` as exact doubles, and
    /// `_solveForInput:` of the animation lasting 1.2 s as exact floats.
    func testChouTiUIsSpringBitForBit() {
        let spring = spring(dampingRatio: 1, response: 1)
        XCTAssertEqual(spring.regime, .criticallyDamped)
        let durations = [0.01, 0.02, 0.03, 0.04, 0.05].map { spring.duration(forEpsilon: $0) }
        XCTAssertEqual(
            durations.map(\.bitPattern),
            [1.0999999999999999, 0.9999999999999999, 0.8999999999999999, 0.7999999999999999, 0.7999999999999999]
                .map(\.bitPattern))
        XCTAssertEqual(spring.duration(forEpsilon: 0.005), 1.2)
        let values = [0.25, 0.5, 0.75, 1.0].map { spring.progress(forInput: $0, duration: 1.2) }
        XCTAssertEqual(
            values.map(\.bitPattern), ([0.56196046, 0.89003396, 0.976705, 0.99546117] as [Float]).map(\.bitPattern))
    }

    /// ComposeUI's values from Apple's `settlingDuration` and `durationForEpsilon:`: bit
    /// for bit, except 0.3, which the source asserts within 1e-6 (0.30000000000000004 here,
    /// the accumulated 0.1 s samples).
    func testComposeUIsDurations() {
        let cases: [(Spring, Double, Double, Double)] = [  // spring, epsilon, Apple's value, tolerance
            (spring(dampingRatio: 0.8, response: 0.5), 0.001, 0.7714094006693448, 0),
            (spring(dampingRatio: 1, response: 0.2), 0.001, 0.3, 1e-6),
            (spring(dampingRatio: 0.3, response: 1.5), 0.001, 5.71461784505134, 0),
            (spring(dampingRatio: 0.7, response: 0.6), 0.005, 0.8159891974978289, 0),
            (spring(dampingRatio: 0.6, response: 0.5), 0.005, 0.7769325148649515, 0),
            (spring(dampingRatio: 0.5, response: 0.5, velocity: 0.1), 0.005, 0.9148578261552982, 0),
            (Spring(mass: 1, stiffness: 1, damping: 1, initialVelocity: 0.1), 0.005, 11.35608158495006, 0),
            (Spring(mass: 1, stiffness: 1, damping: 1, initialVelocity: 0.1), 0.1, 5.364617037842078, 0),
        ]
        for (spring, epsilon, apple, tolerance) in cases {
            let duration = spring.duration(forEpsilon: epsilon)
            XCTAssertEqual(duration, apple, accuracy: tolerance, "\(spring) at ε \(epsilon)")
            if epsilon == 0.001 { XCTAssertEqual(spring.settlingDuration, duration) }
        }
        XCTAssertEqual(spring(dampingRatio: 0.8, response: 0.5).settlingDuration, 0.7714094006693448)
    }

    /// Apple's documentation of `settlingDuration`: stiffness 100, damping 5 settles in
    /// about 2.85 s; damping 15 in just over 1 s.
    func testAppleDocumentationSettlingDurations() {
        XCTAssertEqual(Spring(stiffness: 100, damping: 5).settlingDuration, 2.85, accuracy: 0.01)
        let stiff = Spring(stiffness: 100, damping: 15).settlingDuration
        XCTAssertGreaterThan(stiff, 1)
        XCTAssertLessThan(stiff, 1.05)
    }

    func testDefaultsAndReplacementOfInvalidParameters() {
        let spring = Spring()
        XCTAssertEqual([spring.mass, spring.stiffness, spring.damping, spring.initialVelocity], [1, 100, 10, 0])
        XCTAssertFalse(spring.allowsOverdamping)
        let invalid = Spring(mass: -2, stiffness: 0, damping: -1)
        XCTAssertEqual([invalid.mass, invalid.stiffness, invalid.damping], [1, 100, 10])
        XCTAssertEqual(invalid, Spring())
        XCTAssertEqual(Spring(mass: 0).mass, 1)
        XCTAssertEqual(Spring(damping: 0).damping, 0, "0 damping is valid (undamped)")
        XCTAssertTrue(Spring(mass: .nan).mass.isNaN, "NaN is not ≤ 0: kept")
    }

    func testRegimes() {
        XCTAssertEqual(Spring(stiffness: 100, damping: 19.99).regime, .underdamped)
        XCTAssertEqual(Spring(stiffness: 100, damping: 20).regime, .criticallyDamped)
        XCTAssertEqual(Spring(stiffness: 100, damping: 20).dampingRatio, 1)
        XCTAssertEqual(Spring(stiffness: 100, damping: 30).regime, .criticallyDamped)
        XCTAssertEqual(Spring(stiffness: 100, damping: 30, allowsOverdamping: true).regime, .overdamped)
        XCTAssertEqual(Spring(stiffness: 100, damping: 20, allowsOverdamping: true).regime, .criticallyDamped)
        XCTAssertEqual(Spring(stiffness: 100, damping: 0).regime, .underdamped)
    }

    /// Measured on macOS: without overdamping, damping 20 and 30 (stiffness 100) give
    /// identical curves; with it, they differ.
    func testDampingAboveCriticalIsCriticalUnlessOverdampingIsAllowed() {
        let critical = Spring(stiffness: 100, damping: 20)
        let heavier = Spring(stiffness: 100, damping: 30)
        let overdamped = Spring(stiffness: 100, damping: 30, allowsOverdamping: true)
        var differs = false
        for step in 0...100 {
            let t = Double(step) * 0.02
            XCTAssertEqual(critical.value(at: t).bitPattern, heavier.value(at: t).bitPattern, "t \(t)")
            differs = differs || overdamped.value(at: t) != critical.value(at: t)
        }
        XCTAssertTrue(differs)
    }

    /// m·x'' + c·x' + k·(x − 1) = 0, x(0) = 0, x'(0) = v, integrated by classical
    /// Runge–Kutta with 1e-4 s steps: the closed form within 1e-7.
    func testClosedFormSolvesTheEquationOfMotion() {
        let springs = [
            Spring(), Spring(stiffness: 300, damping: 12),
            Spring(mass: 2, stiffness: 50, damping: 3, initialVelocity: 5),
            Spring(stiffness: 100, damping: 10, initialVelocity: -5), Spring(stiffness: 100, damping: 20),
            Spring(stiffness: 100, damping: 20, initialVelocity: 5), Spring(stiffness: 100, damping: 0),
            Spring(mass: 1, stiffness: 4 * .pi * .pi, damping: 4 * .pi, initialVelocity: -3),
        ]
        for spring in springs {
            // Critically damped (ζ ≥ 1 without overdamping) uses c = 2·√(k·m) whatever c says.
            let c =
                spring.regime == .criticallyDamped ? 2 * (spring.stiffness * spring.mass).squareRoot() : spring.damping
            let (m, k) = (spring.mass, spring.stiffness)
            func acceleration(_ x: Double, _ v: Double) -> Double { (-c * v - k * (x - 1)) / m }
            var x = 0.0
            var v = spring.initialVelocity
            let h = 1e-4
            for step in 1...20_000 {
                let (k1x, k1v) = (v, acceleration(x, v))
                let (k2x, k2v) = (v + h / 2 * k1v, acceleration(x + h / 2 * k1x, v + h / 2 * k1v))
                let (k3x, k3v) = (v + h / 2 * k2v, acceleration(x + h / 2 * k2x, v + h / 2 * k2v))
                let (k4x, k4v) = (v + h * k3v, acceleration(x + h * k3x, v + h * k3v))
                x += h / 6 * (k1x + 2 * k2x + 2 * k3x + k4x)
                v += h / 6 * (k1v + 2 * k2v + 2 * k3v + k4v)
                if step % 500 == 0 {
                    let t = Double(step) * h
                    XCTAssertEqual(spring.value(at: t), x, accuracy: 1e-7, "\(spring) at \(t)")
                }
            }
        }
    }

    /// Section 5.2 and 5.3's expressions, written out here in the order the contract
    /// states them (Apple's, e.g. `exp(−(t·ζ)·ω0)`, not `exp(−t·(ζ·ω0))`): the same doubles.
    func testOperationOrderIsTheContracts() {
        var random = SplitMix64(seed: 52)
        for _ in 0..<300 {
            let (m, k, c, v) = (
                random.value(in: 0.2...4), random.value(in: 5...900), random.value(in: 0...80),
                random.value(in: -20...20)
            )
            let spring = Spring(mass: m, stiffness: k, damping: c, initialVelocity: v, allowsOverdamping: true)
            let w0 = (k / m).squareRoot()
            let r = (k * m).squareRoot()
            let zeta = c / (r + r)
            for t in [0.013, 0.1, 0.37, 1.25] {
                // x with the package's exp and sincos (value(at:)), and with the C
                // library's (libraryValue(at:), the settling search's).
                let x: Double
                let y: Double
                if zeta < 1 {
                    let wd = (-(zeta * zeta + -1)).squareRoot() * w0
                    let b = -(v - zeta * w0) / wd
                    let sc = BGSinCosOf(wd * t)
                    x = 1 - (sc.sin * b + sc.cos * 1) * BGExp(-(t * zeta) * w0)
                    y = 1 - (sin(wd * t) * b + cos(wd * t) * 1) * exp(-(t * zeta) * w0)
                    let envelope = Swift.max(-log(0.01 / (Swift.abs(b) + 1)) / (w0 * zeta), 0)
                    XCTAssertEqual(spring.duration(forEpsilon: 0.01).bitPattern, envelope.bitPattern)
                } else if zeta > 1 {
                    let sigma = (zeta * zeta + -1).squareRoot() * w0
                    let q = v + zeta * w0
                    let (a, b, h) = ((q + sigma) / (sigma + sigma), (sigma - q) / (sigma + sigma), w0 * zeta)
                    x = 1 - (BGExp((sigma - h) * t) * b + BGExp(-(t * (h + sigma))) * a)
                    y = 1 - (exp((sigma - h) * t) * b + exp(-(t * (h + sigma))) * a)
                } else {
                    x = 1 - BGExp(-(t * w0)) * (1 + (w0 - v) * t)
                    y = 1 - exp(-(t * w0)) * (1 + (w0 - v) * t)
                }
                let label = "m \(m) k \(k) c \(c) v \(v) t \(t)"
                XCTAssertEqual(spring.value(at: t).bitPattern, x.bitPattern, label)
                XCTAssertEqual(spring.libraryValue(at: t).bitPattern, y.bitPattern, label)
                XCTAssertEqual(x, y, accuracy: 1e-14, "the package's exp and sincos against the C library's")
                // The C form of the same value (the lane kernels' scalar), from the table.
                let table = withUnsafeBytes(of: spring.kernelCoefficients) { Array($0.bindMemory(to: Double.self)) }
                XCTAssertEqual(BGSpringValue(table, t).bitPattern, x.bitPattern)
            }
        }
    }

    /// The overdamped branch as transcribed from Apple's code: x(0) = 0, x'(0) = v + 2ζω0
    /// (not v, section 5.2's warning), and it ends at 1.
    func testOverdampedBranchAsTranscribed() {
        for velocity in [0.0, 3, -2] {
            let spring = Spring(stiffness: 100, damping: 30, initialVelocity: velocity, allowsOverdamping: true)
            XCTAssertEqual(spring.value(at: 0), 0, accuracy: 1e-15)
            let h = 1e-6
            let slope = (spring.value(at: h) - spring.value(at: -h)) / (2 * h)
            XCTAssertEqual(
                slope, velocity + 2 * spring.dampingRatio * spring.naturalFrequency, accuracy: 1e-5, "v \(velocity)")
            XCTAssertEqual(spring.value(at: 20), 1, accuracy: 1e-9)
        }
    }

    /// Underdamped: from `duration(forEpsilon:)` on, the envelope keeps |1 − x| below ε.
    func testUnderdampedDurationBoundsTheEnvelope() {
        for spring in [Spring(), Spring(stiffness: 300, damping: 12, initialVelocity: 4), Spring(mass: 3, damping: 2)] {
            for epsilon in [0.1, 0.01, 0.001] {
                let duration = spring.duration(forEpsilon: epsilon)
                XCTAssertGreaterThan(duration, 0)
                for step in 0...400 {
                    let t = duration + Double(step) * 0.01
                    XCTAssertLessThanOrEqual(
                        Swift.abs(1 - spring.value(at: t)), epsilon * (1 + 1e-12), "\(spring) at \(t)")
                }
            }
        }
    }

    /// ζ ≥ 1: the first 0.1 s sample (times accumulated by repeated addition) from which
    /// |1 − x| < ε holds at every sample up to and including the first more than 1 s later
    /// (section 5.3 "in words"), searched here over a precomputed list of samples.
    func testSampledSearchMatchesItsDefinitionInWords() {
        let springs = [
            Spring(stiffness: 100, damping: 20), Spring(stiffness: 100, damping: 20, initialVelocity: 20),
            Spring(stiffness: 100, damping: 20, initialVelocity: -8), Spring(stiffness: 40, damping: 30),
            Spring(stiffness: 100, damping: 30, allowsOverdamping: true),
            Spring(stiffness: 100, damping: 25, initialVelocity: -30, allowsOverdamping: true),
        ]
        var times = [0.0]
        while times.count < 2000 { times.append(times[times.count - 1] + 0.1) }
        for spring in springs {
            for epsilon in [0.05, 0.01, 0.001, 1e-9] {
                let e = Swift.max(epsilon, 1e-6)
                let below = times.map { Swift.abs(1 - spring.libraryValue(at: $0)) < e }
                let first = times.indices.first { start in
                    let end = times.indices.first { times[$0] - times[start] > 1 }!
                    return (start...end).allSatisfy { below[$0] }
                }
                XCTAssertEqual(spring.duration(forEpsilon: epsilon), times[first!], "\(spring) at ε \(epsilon)")
            }
        }
    }

    func testSpeedAndTheLimits() {
        let spring = Spring()
        XCTAssertEqual(spring.duration(forEpsilon: 0.01, speed: 2), spring.duration(forEpsilon: 0.01) / 2)
        XCTAssertEqual(spring.duration(forEpsilon: 0.01, speed: -0.5), spring.duration(forEpsilon: 0.01) / 0.5)
        let floatMax = Double(Float.greatestFiniteMagnitude)
        XCTAssertEqual(spring.duration(forEpsilon: 0.01, speed: 0), floatMax)
        XCTAssertEqual(Spring(damping: 0).settlingDuration, floatMax, "an undamped spring never settles")
        XCTAssertEqual(spring.duration(forEpsilon: 1e-9), spring.duration(forEpsilon: 1e-6), "ε is at least 1e-6")
    }

    func testPerceptualDuration() {
        XCTAssertEqual(Spring().perceptualDuration, 2 * Double.pi / 10, accuracy: 1e-15)
        XCTAssertEqual(spring(dampingRatio: 0.5, response: 0.35).perceptualDuration, 0.35, accuracy: 1e-15)
        XCTAssertEqual(Spring(stiffness: .infinity).perceptualDuration, 0)
    }

    func testProgressIsTheValueRoundedToAFloat() {
        let spring = Spring(stiffness: 300, damping: 12)
        for t in [0.0, 0.05, 0.3, 1, 5] {
            XCTAssertEqual(spring.progress(at: t), Float(spring.value(at: t)))
        }
        XCTAssertEqual(spring.progress(forInput: 0.3, duration: 2), Float(spring.value(at: 2 * Double(Float(0.3)))))
    }

    /// The spring lanes (`BGSpringProgress`, the batch sampler's spring groups) on every
    /// instruction set this CPU runs: each member's progress is `Spring.progress(at:)`,
    /// bit for bit, for groups of 1 to 29 members of mixed regimes (so blocks of four or
    /// eight and a tail), times in [0, 4], negative, long (exp's slow path), NaN, and
    /// springs whose ωd·t leaves sincos's fast range.
    func testSpringLanesEqualProgressOnEveryInstructionSet() {
        defer { _ = BGKernelSetBackend("auto") }
        var random = SplitMix64(seed: 2323)
        var springs: [Spring] = []
        for i in 0..<60 {
            springs.append(
                Spring(
                    mass: random.value(in: 0.2...3), stiffness: i == 0 ? 1e14 : random.value(in: 5...3000),
                    damping: random.below(8) == 0 ? 0 : random.value(in: 0...150),
                    initialVelocity: random.value(in: -30...30), allowsOverdamping: random.below(2) == 0))
        }
        let table = springs.flatMap { spring in
            withUnsafeBytes(of: spring.kernelCoefficients) { Array($0.bindMemory(to: Double.self)) }
        }
        XCTAssertEqual(Set(springs.map(\.regime)).count, 3)
        let sets = TimingSolveKernelTests.instructionSets
        XCTAssertTrue(sets.contains("portable"))
        for name in sets {
            XCTAssertEqual(BGKernelSetBackend(name), 1)
            for _ in 0..<500 {
                let count = 1 + random.below(29)
                let members = (0..<count).map { _ in Int32(random.below(springs.count)) }
                var values = (0..<count).map { _ -> Double in
                    switch random.below(40) {
                    case 0: return .nan
                    case 1: return -random.value(in: 0...1)
                    case 2: return random.value(in: 10...5000)
                    default: return random.value(in: 0...4)
                    }
                }
                // Bits, except that NaNs are equal whatever their sign (which operand's NaN
                // an operation returns is the compiler's choice).
                func bits(_ x: Double) -> UInt64 { x.isNaN ? 1 : x.bitPattern }
                let want = zip(members, values).map { bits(Double(springs[Int($0)].progress(at: $1))) }
                BGSpringProgress(table, members, &values, count)
                XCTAssertEqual(values.map(bits), want, "\(name)")
            }
        }
    }

    func testBatchFormsEqualTheScalarForm() {
        var random = SplitMix64(seed: 5)
        var springs: [Spring] = []
        var times: [Double] = []
        for _ in 0..<500 {
            springs.append(
                Spring(
                    mass: random.value(in: 0.5...3), stiffness: random.value(in: 10...500),
                    damping: random.value(in: 0...60), initialVelocity: random.value(in: -10...10),
                    allowsOverdamping: random.below(2) == 0))
            times.append(random.value(in: 0...3))
        }
        var results: [Float] = []
        Spring.progress(of: springs, at: times, into: &results)
        XCTAssertEqual(results.map(\.bitPattern), times.indices.map { springs[$0].progress(at: times[$0]).bitPattern })
        springs[3].progress(at: times, into: &results)
        XCTAssertEqual(results.map(\.bitPattern), times.map { springs[3].progress(at: $0).bitPattern })
    }

    // MARK: UIKit's duration and damping ratio (section 5.5)

    /// The mapping's defining equations: for ζ = 1, (1 + ω·d)·exp(−ω·d) = 0.001; for ζ < 1,
    /// |B|·exp(−ζ·ω·d) = 0.001 with B = (ζω − v)/(ω·√(1 − ζ²)); damping = 2ζ·√stiffness.
    func testViewAnimationParametersSolveTheirEquations() {
        for (duration, ratio, velocity) in [(0.5, 0.7, 0.0), (0.3, 1.0, 0), (1.0, 0.5, 2), (0.8, 0.9, -1)] {
            let parameters = Spring.viewAnimationParameters(
                duration: duration, dampingRatio: ratio, initialVelocity: velocity)
            XCTAssertEqual(parameters.mass, 1)
            let w = parameters.stiffness.squareRoot()
            XCTAssertEqual(parameters.damping, 2 * ratio * w, accuracy: 1e-12 * parameters.damping)
            let residual: Double
            if ratio == 1 {
                residual = (1 + (w - velocity) * duration) * exp(-w * duration)
            } else {
                let b = (ratio * w - velocity) / (w * (1 - ratio * ratio).squareRoot())
                residual = Swift.abs(b) * exp(-ratio * w * duration)
            }
            XCTAssertEqual(residual, 0.001, accuracy: 1e-12, "\(duration), \(ratio), \(velocity)")
        }
    }

    func testViewAnimationParametersClampTheirArguments() {
        func stiffness(_ duration: Double, _ ratio: Double) -> Double {
            Spring.viewAnimationParameters(duration: duration, dampingRatio: ratio).stiffness
        }
        XCTAssertEqual(stiffness(0, 0.7), stiffness(0.01, 0.7))
        XCTAssertEqual(stiffness(25, 0.7), stiffness(10, 0.7))
        XCTAssertEqual(stiffness(0.5, 3), stiffness(0.5, 1))
        // A ratio at or below FLT_EPSILON has no solution (|B| ≈ ζ < 0.001): twelve steps
        // diverge to NaN, which the mapping returns as it is (section 5.5).
        XCTAssertEqual(stiffness(0.5, -1).bitPattern, stiffness(0.5, Double(Float.ulpOfOne)).bitPattern)
        XCTAssertTrue(stiffness(0.5, 0).isNaN)
        XCTAssertTrue(stiffness(0.5, 0.01).isFinite)
        let spring = Spring(viewAnimationDuration: 0.5, dampingRatio: 0.7, initialVelocity: 2)
        let parameters = Spring.viewAnimationParameters(duration: 0.5, dampingRatio: 0.7, initialVelocity: 2)
        XCTAssertEqual(spring.stiffness, parameters.stiffness)
        XCTAssertEqual(spring.damping, parameters.damping)
        XCTAssertEqual(spring.initialVelocity, 2)
        XCTAssertEqual(spring.dampingRatio, 0.7, accuracy: 1e-12)
    }
}
