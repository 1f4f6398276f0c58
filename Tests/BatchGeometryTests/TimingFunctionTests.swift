import XCTest

@testable import BatchGeometry

/// Timing functions (docs/ANIMATION.md section 3): Apple's printed outputs, the snap of a
/// custom curve to a named one, and the solve against an independent bisection of the
/// Bézier in its Bernstein form.
final class TimingFunctionTests: XCTestCase {
    /// GNUstep's 2012 test printed Apple's `_solveForInput:` at 0.67 with `%f`.
    func testApplesPrintedValuesAt067() throws {
        let printed: [(TimingFunction, Double)] = [
            (TimingFunction(.default), 0.926527),
            (TimingFunction(.easeInEaseOut), 0.772850),
            (TimingFunction(.easeIn), 0.515911),
            (TimingFunction(.easeOut), 0.846581),
            (TimingFunction(.linear), 0.669997),
            (try XCTUnwrap(TimingFunction(controlPoints: 0.1, 1, 1, 0.2)), 0.589449),
        ]
        for (function, shown) in printed {
            let value = Double(function.value(at: 0.67))
            XCTAssertEqual(value, shown, accuracy: 5e-7, "\(function) at 0.67 prints \(shown)")
        }
        // Not the identity: the named linear curve is a Bézier solved to 1e-5 in floats.
        XCTAssertNotEqual(TimingFunction(.linear).value(at: 0.67), Float(0.67))
    }

    /// ChouTiUI asserts these Swift `Float`s equal Apple's `_solveForInput:` on Apple platforms.
    func testApplesFloatsBitForBit() {
        let cases: [(TimingFunction.Name, [Float])] = [
            (.easeIn, [0.09346466, 0.31535682, 0.6218605]),
            (.easeOut, [0.37813953, 0.6846432, 0.9065353]),
            (.easeInEaseOut, [0.12916191, 0.5, 0.8708381]),
            (.linear, [0.25, 0.5, 0.75]),
        ]
        for (name, expected) in cases {
            let function = TimingFunction(name)
            for (input, value) in zip([0.25, 0.5, 0.75], expected) {
                XCTAssertEqual(function.value(at: input).bitPattern, value.bitPattern, "\(name) at \(input)")
            }
        }
    }

    func testNamedControlPointsAreCoreAnimations() {
        let points: [(TimingFunction.Name, [Float])] = [
            (.default, [0.25, 0.1, 0.25, 1]), (.linear, [0, 0, 1, 1]), (.easeIn, [0.42, 0, 1, 1]),
            (.easeOut, [0, 0, 0.58, 1]), (.easeInEaseOut, [0.42, 0, 0.58, 1]),
        ]
        for (name, expected) in points {
            let function = TimingFunction(name)
            XCTAssertEqual([function.x1, function.y1, function.x2, function.y2], expected, "\(name)")
            XCTAssertEqual(function.name, name)
            XCTAssertEqual(function.value(at: 0), 0, "\(name) at 0")
            XCTAssertEqual(function.value(at: 1), 1, "\(name) at 1")
        }
    }

    /// A custom curve within 0.001 of a named one (each float) is that one; 0.0011 away is not.
    func testCustomCurveWithinOneThousandthBecomesTheNamedOne() throws {
        let near = try XCTUnwrap(TimingFunction(controlPoints: 0.4205, 0.0003, 0.58, 0.9995))
        XCTAssertEqual(near.name, .easeInEaseOut)
        XCTAssertEqual(near, TimingFunction(.easeInEaseOut))
        XCTAssertEqual(near.value(at: 0.1).bitPattern, TimingFunction(.easeInEaseOut).value(at: 0.1).bitPattern)
        let exact = try XCTUnwrap(TimingFunction(controlPoints: 0, 0, 1, 1))
        XCTAssertEqual(exact.name, .linear)
        for offset in [0.0011, -0.0011] {
            let far = try XCTUnwrap(TimingFunction(controlPoints: 0.42 + offset, 0, 0.58, 1))
            XCTAssertNil(far.name, "0.42 + \(offset)")
            XCTAssertEqual(far.x1, Float(0.42 + offset))
        }
        let farY2 = try XCTUnwrap(TimingFunction(controlPoints: 0.42, 0, 0.58, 1.0011))
        XCTAssertNil(farY2.name)
        XCTAssertEqual(try XCTUnwrap(TimingFunction(controlPoints: 0.25, 0.1009, 0.2491, 0.9991)).name, .default)
    }

    func testControlPointsAreRoundedToFloats() throws {
        let function = try XCTUnwrap(TimingFunction(controlPoints: 0.1, 1.3, 0.2, 0.9))
        XCTAssertEqual(function.y1, Float(1.3))
        XCTAssertEqual(Double(function.x1), Double(Float(0.1)))
        XCTAssertNotEqual(Double(function.x1), 0.1)
    }

    func testInvalidControlPointsAreRejected() {
        XCTAssertNil(TimingFunction(controlPoints: 1.5, 0, 1, 1))
        XCTAssertNil(TimingFunction(controlPoints: 0, 0, -0.1, 1))
        XCTAssertNil(TimingFunction(controlPoints: .nan, 0, 1, 1))
        XCTAssertNil(TimingFunction(controlPoints: 0.2, .infinity, 1, 1))
        XCTAssertNotNil(TimingFunction(controlPoints: 0.2, -3, 1, 7))
    }

    /// The curve in Bernstein form, B(t) = 3(1−t)²t·p1 + 3(1−t)t²·p2 + t³ (not the
    /// coefficient form the solve uses), its parameter found by 200 bisection steps in
    /// double: the solve's result must be within its 1e-5 tolerance in x, carried through
    /// the curve's slope, plus float rounding.
    func testSolveAgreesWithABruteForceBisection() throws {
        var random = SplitMix64(seed: 23)
        var functions = TimingFunction.Name.allCases.map { TimingFunction($0) }
        for _ in 0..<200 {
            functions.append(
                try XCTUnwrap(
                    TimingFunction(
                        controlPoints: random.unit(), random.value(in: -1...2), random.unit(),
                        random.value(in: -1...2))))
        }
        var checked = 0
        for function in functions {
            let (p1x, p1y, p2x, p2y) = (
                Double(function.x1), Double(function.y1), Double(function.x2), Double(function.y2)
            )
            func bernstein(_ a: Double, _ b: Double, _ t: Double) -> Double {
                let s = 1 - t
                return 3 * s * s * t * a + 3 * s * t * t * b + t * t * t
            }
            for step in 0...40 {
                let x = Double(Float(Double(step) / 40))
                var lo = 0.0
                var hi = 1.0
                for _ in 0..<200 {
                    let mid = (lo + hi) / 2
                    if bernstein(p1x, p2x, mid) < x { lo = mid } else { hi = mid }
                }
                let t = (lo + hi) / 2
                let h = 1e-7
                let slopeX = (bernstein(p1x, p2x, t + h) - bernstein(p1x, p2x, t - h)) / (2 * h)
                let slopeY = (bernstein(p1y, p2y, t + h) - bernstein(p1y, p2y, t - h)) / (2 * h)
                // X is monotone, but may be flat at one point: skip where dY/dX is not bounded.
                guard slopeX > 1e-3 else { continue }
                let expected = bernstein(p1y, p2y, t)
                let tolerance =
                    1.5e-5 * Swift.max(1, Swift.abs(slopeY / slopeX)) + 1e-6 * Swift.max(1, Swift.abs(expected))
                let value = Double(function.value(at: x))
                XCTAssertEqual(value, expected, accuracy: tolerance, "\(function) at \(x)")
                checked += 1
            }
        }
        XCTAssertGreaterThan(checked, 7000)
    }

    /// The input is rounded to a float first: inputs with the same float give the same value.
    func testInputIsRoundedToAFloat() {
        let function = TimingFunction(.easeInEaseOut)
        let input = 0.3
        let rounded = Double(Float(input))
        let sameFloat = rounded + (Double(Float(input).nextUp) - rounded) * 0.25
        XCTAssertNotEqual(sameFloat, input)
        XCTAssertEqual(Float(sameFloat), Float(input))
        XCTAssertEqual(function.value(at: sameFloat), function.value(at: input))
    }

    func testNamedFunctionsAreNonDecreasing() {
        for name in TimingFunction.Name.allCases {
            let function = TimingFunction(name)
            var previous = function.value(at: 0)
            for step in 1...1000 {
                let value = function.value(at: Double(step) / 1000)
                XCTAssertGreaterThanOrEqual(value, previous, "\(name) at \(Double(step) / 1000)")
                previous = value
            }
        }
    }

    /// The code block of the DocC article `Curves.md`, as written there.
    func testCurvesArticleSnippetRuns() {
        let easeOut = TimingFunction(.easeOut)
        let progress = easeOut.value(at: 0.25)  // a Float, as Core Animation keeps it
        let spring = Spring(stiffness: 300, damping: 12)
        let settle = spring.settlingDuration  // seconds
        var samples: [Float] = []
        spring.progress(at: [0, 0.1, 0.2], into: &samples)  // a caller-owned array, reused
        XCTAssertEqual(progress, easeOut.value(at: 0.25))
        XCTAssertGreaterThan(settle, 0)
        XCTAssertEqual(samples.count, 3)
        XCTAssertEqual(samples[0], 0)
    }

    func testNaNInputGivesNaN() {
        XCTAssertTrue(TimingFunction(.easeIn).value(at: .nan).isNaN)
    }

    func testBatchFormsEqualTheScalarSolve() throws {
        var random = SplitMix64(seed: 7)
        var functions: [TimingFunction] = []
        var inputs: [Double] = []
        for index in 0..<1000 {
            functions.append(
                index % 3 == 0
                    ? TimingFunction(TimingFunction.Name.allCases[index % 5])
                    : try XCTUnwrap(
                        TimingFunction(
                            controlPoints: random.unit(), random.value(in: -0.5...1.5), random.unit(), random.unit())))
            inputs.append(random.value(in: -0.1...1.1))
        }
        var results: [Float] = [1, 2, 3]
        TimingFunction.values(of: functions, at: inputs, into: &results)
        XCTAssertEqual(results.count, inputs.count)
        for index in inputs.indices {
            XCTAssertEqual(results[index].bitPattern, functions[index].value(at: inputs[index]).bitPattern)
        }
        functions[1].values(at: inputs, into: &results)
        XCTAssertEqual(results.map(\.bitPattern), inputs.map { functions[1].value(at: $0).bitPattern })
        functions[1].values(at: [], into: &results)
        XCTAssertEqual(results, [])
    }

    /// The eight-lane solve with each of four functions in two lanes equals `value(at:)`
    /// bit for bit in every lane: named and random custom curves (flat slopes that hand
    /// a lane to bisection included), inputs in and out of [0, 1], the ends, NaN and
    /// ±infinity.
    func testFourLaneSolveEqualsOneAtATime() throws {
        var random = SplitMix64(seed: 4423)
        var functions = TimingFunction.Name.allCases.map { TimingFunction($0) }
        for _ in 0..<60 {
            let points = (0..<4).map { k in k % 2 == 0 ? random.unit() : random.value(in: -1.5...2.5) }
            functions += [try XCTUnwrap(TimingFunction(controlPoints: points[0], points[1], points[2], points[3]))]
        }
        functions += [try XCTUnwrap(TimingFunction(controlPoints: 1, 0, 0, 1))]
        let special: [Double] = [0, 1, -0.0, .nan, .infinity, -.infinity, 1e-9, 1 - 1e-9, -0.25, 1.25, 3]
        var compared = 0
        for round in 0..<4000 {
            let lanes = (0..<4).map { _ in functions[random.below(functions.count)] }
            let inputs = (0..<4).map { _ in
                round % 5 == 0 ? special[random.below(special.count)] : random.value(in: -0.1...1.1)
            }
            let v = TimingFunction.values(
                lanes, SIMD8(0, 1, 2, 3, 0, 1, 2, 3),
                at: SIMD8(inputs[0], inputs[1], inputs[2], inputs[3], inputs[0], inputs[1], inputs[2], inputs[3]))
            for lane in 0..<4 {
                XCTAssertEqual(
                    v[lane].bitPattern, lanes[lane].value(at: inputs[lane]).bitPattern,
                    "\(lanes[lane]) at \(inputs[lane])")
                compared += 1
            }
        }
        XCTAssertEqual(compared, 16000)
    }

    /// The sampler's eight lanes, each naming its function in a table, against
    /// `value(at:)` one at a time, bit for bit (special inputs and bisection lanes included).
    func testEightLaneSolveEqualsOneAtATime() throws {
        var random = SplitMix64(seed: 9127)
        var table = TimingFunction.Name.allCases.map { TimingFunction($0) }
        for _ in 0..<40 {
            let points = (0..<4).map { k in k % 2 == 0 ? random.unit() : random.value(in: -1.5...2.5) }
            table += [try XCTUnwrap(TimingFunction(controlPoints: points[0], points[1], points[2], points[3]))]
        }
        table += [try XCTUnwrap(TimingFunction(controlPoints: 1, 0, 0, 1))]
        let special: [Double] = [0, 1, -0.0, .nan, .infinity, -.infinity, 1e-9, 1 - 1e-9, -0.25, 1.25, 3]
        var compared = 0
        for round in 0..<2000 {
            var functions = SIMD8<Int32>()
            var inputs = SIMD8<Double>()
            for lane in 0..<8 {
                functions[lane] = Int32(random.below(table.count))
                inputs[lane] = round % 5 == 0 ? special[random.below(special.count)] : random.value(in: -0.1...1.1)
            }
            let v = TimingFunction.values(table, functions, at: inputs)
            for lane in 0..<8 {
                let function = table[Int(functions[lane])]
                XCTAssertEqual(
                    v[lane].bitPattern, function.value(at: inputs[lane]).bitPattern, "\(function) at \(inputs[lane])")
                compared += 1
            }
        }
        XCTAssertEqual(compared, 16000)
    }
}
