import CAffineKernels
import XCTest

@testable import BatchGeometry

/// The C timing solve (`BGTimingNewton8`, CAffineKernels) on every instruction set this
/// CPU runs, against an independent transcription of docs/ANIMATION.md section 3.2's
/// Newton steps and against `TimingFunction.value(at:)`, bit for bit: which lanes it
/// solves, their values, the lanes it leaves untouched. The sampler with each instruction
/// set selected: the extensions at the end.
final class TimingSolveKernelTests: XCTestCase {
    /// The instruction sets this build and CPU run (each selected in turn by the tests).
    static var instructionSets: [String] {
        defer { _ = BGKernelSetBackend("auto") }
        return ["portable", "avx2", "avx512", "neon"].filter { BGKernelSetBackend($0) == 1 }
    }

    /// Section 3.2's Newton steps, written from the document: the value when a step
    /// lands within 1e-5, nil when the slope is flat or eight steps do not (bisection's
    /// or the clamp's case).
    static func documentedNewton(_ f: TimingFunction, _ input: Double) -> Float? {
        let x = Double(Float(input))
        let (p1x, p1y, p2x, p2y) = (Double(f.x1), Double(f.y1), Double(f.x2), Double(f.y2))
        let (cx, gx) = (p1x * 3, (p2x - p1x) * 3)
        let (bx, ax) = (gx - cx, 1 - gx)
        let (cy, gy) = (p1y * 3, (p2y - p1y) * 3)
        let (by, ay) = (gy - cy, 1 - gy)
        var t = x
        for _ in 0..<8 {
            let e = ((ax * t + bx) * t + cx) * t - x
            if abs(e) < 1e-5 { return Float(((ay * t + by) * t + cy) * t) }
            let g = ((3 * ax) * t + 2 * bx) * t + cx
            if abs(g) < 1e-6 { return nil }
            t = t - e / g
        }
        return nil
    }

    /// Curves at the limits: the named ones, customs within 0.001 of them (which snap),
    /// the x control points at 0 and 1, y far outside [0, 1] (overshoot, and values whose
    /// Y overflows a float), flat slopes that leave Newton, and random customs.
    static func edgeTable(_ random: inout SplitMix64) throws -> [TimingFunction] {
        var table = TimingFunction.Name.allCases.map { TimingFunction($0) }
        let points: [(Double, Double, Double, Double)] = [
            (0.4201, 0.0004, 0.5799, 0.9996), (0.2504, 0.1, 0.25, 1.0009), (0, 0, 0, 0), (1, 1, 1, 1), (1, 0, 0, 1),
            (0, 1, 1, 0), (0, -1e6, 1, 1e6), (1, 3e38, 0, -3e38), (0.5, -2, 0.5, 3), (0, 0, 0, 1), (1, 0, 1, 1),
            (0.0001, 0, 0.9999, 1), (1, 0.5, 1, 0.5),
        ]
        for p in points { table.append(try XCTUnwrap(TimingFunction(controlPoints: p.0, p.1, p.2, p.3))) }
        for _ in 0..<30 {
            let p = (0..<4).map { k in k % 2 == 0 ? random.unit() : random.value(in: -1.5...2.5) }
            table.append(try XCTUnwrap(TimingFunction(controlPoints: p[0], p[1], p[2], p[3])))
        }
        return table
    }

    static let edgeInputs: [Double] = [
        0, -0.0, 1, .nan, -.nan, .infinity, -.infinity, .leastNonzeroMagnitude, -.leastNonzeroMagnitude, 1e-300, 1e-9,
        1 - 1e-9, 1 + 1e-9, Double(1).nextDown, Double(1).nextUp, -1e-9, -0.25, 1.25, 3, -3, 1e300, 0.5, 0.67,
    ]

    /// Eight lanes of `table` at `inputs` through the kernel of the selected instruction
    /// set, broadcast (`uniform`: every lane the first function) or gathered, checked
    /// lane by lane against `documentedNewton` and, after `solveEight`'s fallback,
    /// against `value(at:)`. Returns the lanes left to the fallback.
    func checkEight(
        _ table: [TimingFunction], _ functions: [Int32], _ inputs: [Double], uniform: Bool, _ label: String
    ) -> Int {
        var coefficients: [Double] = []
        for f in table {
            let c = f.coefficients
            coefficients += [c.0, c.1, c.2, c.3, c.4, c.5]
        }
        let lanes = uniform ? [Int32](repeating: functions[0], count: 8) : functions
        var values = inputs
        let left = coefficients.withUnsafeBufferPointer { c in
            functions.withUnsafeBufferPointer { f in
                values.withUnsafeMutableBufferPointer { v in
                    uniform
                        ? BGTimingNewton8(c.baseAddress! + 6 * Int(functions[0]), nil, v.baseAddress!)
                        : BGTimingNewton8(c.baseAddress!, f.baseAddress!, v.baseAddress!)
                }
            }
        }
        for k in 0..<8 {
            let function = table[Int(lanes[k])]
            let expected = Self.documentedNewton(function, inputs[k])
            let what = "\(label): \(function) at \(inputs[k])"
            XCTAssertEqual(left & (1 << k) != 0, expected == nil, "which lanes are left, \(what)")
            if let expected {
                XCTAssertEqual(values[k].bitPattern, Double(expected).bitPattern, what)
            } else {
                XCTAssertEqual(values[k].bitPattern, inputs[k].bitPattern, "a left lane is untouched, \(what)")
            }
        }
        values = inputs
        coefficients.withUnsafeBufferPointer { c in
            lanes.withUnsafeBufferPointer { f in
                values.withUnsafeMutableBufferPointer { v in
                    TimingFunction.solveEight(
                        RawColumn(reading: c.baseAddress!), RawColumn(reading: f.baseAddress!),
                        RawColumn(v.baseAddress!)
                    ) { table[Int(lanes[$0])] }
                }
            }
        }
        for k in 0..<8 {
            let function = table[Int(lanes[k])]
            XCTAssertEqual(
                values[k].bitPattern, Double(function.value(at: inputs[k])).bitPattern,
                "\(label): solveEight, \(function) at \(inputs[k])")
        }
        return left.nonzeroBitCount
    }

    func testEveryInstructionSetSolvesAsTheDocumentedSteps() throws {
        defer { _ = BGKernelSetBackend("auto") }
        let sets = Self.instructionSets
        XCTAssertTrue(sets.contains("portable"))
        for name in sets {
            XCTAssertEqual(BGKernelSetBackend(name), 1)
            var random = SplitMix64(seed: 2611)
            let table = try Self.edgeTable(&random)
            var (solved, left) = (0, 0)
            for round in 0..<3000 {
                let functions = (0..<8).map { _ in Int32(random.below(table.count)) }
                let inputs = (0..<8).map { _ in
                    round % 3 == 0 ? Self.edgeInputs[random.below(Self.edgeInputs.count)] : random.value(in: -0.1...1.1)
                }
                let n = checkEight(table, functions, inputs, uniform: round % 2 == 0, "\(name) round \(round)")
                (solved, left) = (solved + 8 - n, left + n)
            }
            // Both outcomes exercised: Newton's and the fallback's lanes.
            XCTAssertGreaterThan(solved, 15000, name)
            XCTAssertGreaterThan(left, 1000, name)
        }
    }

    /// Every named function at every input an edge list and a fine grid give, broadcast:
    /// the lanes a sampler solves most.
    func testNamedFunctionsOnAGridOnEveryInstructionSet() throws {
        defer { _ = BGKernelSetBackend("auto") }
        let table = TimingFunction.Name.allCases.map { TimingFunction($0) }
        let grid = (0...4096).map { Double($0) / 4096 } + Self.edgeInputs
        for name in Self.instructionSets {
            XCTAssertEqual(BGKernelSetBackend(name), 1)
            for f in table.indices {
                var start = 0
                while start < grid.count {
                    let inputs = (0..<8).map { grid[min(start + $0, grid.count - 1)] }
                    _ = checkEight(table, [Int32](repeating: Int32(f), count: 8), inputs, uniform: true, name)
                    start += 8
                }
            }
        }
    }

    /// The C lane timing loop (`BGLaneTimes`) against the Swift steps
    /// (`ResolvedTiming.localTime(activeTime:)` inside the active duration, u = λ ÷ d or
    /// λ for springs), bit for bit, on every instruction set: random timings (speeds of
    /// both signs and 0, offsets, autoreverse, repeat counts and durations, duration 0),
    /// times at the exact end of the active duration among them, groups of 1 to 19
    /// members (vector loop and tail), and whether every member shows.
    func testLaneTimesEqualTheSwiftStepsOnEveryInstructionSet() {
        defer { _ = BGKernelSetBackend("auto") }
        let speeds: [Double] = [1, 2, -1, 0.5, 0, -2, 1e-3]
        for name in Self.instructionSets {
            XCTAssertEqual(BGKernelSetBackend(name), 1)
            var random = SplitMix64(seed: 8080)
            var (allShowing, someLeft) = (0, 0)
            for round in 0..<3000 {
                var group = LaneGroup(curve: .linear, keyPath: .opacity, additive: false, cumulative: false)
                let count = 1 + random.below(19)
                let time = random.value(in: -1...4)
                for _ in 0..<count {
                    var timing = AnimationTiming()
                    timing.beginTime = round % 2 == 0 ? random.value(in: -3 ... -1) : random.value(in: -2...2)
                    timing.duration = [0, 0.25, 0.7, 1, 2][random.below(5)]
                    timing.speed = speeds[random.below(speeds.count)]
                    timing.timeOffset = random.below(2) == 0 ? 0 : random.value(in: 0...3)
                    timing.autoreverses = random.below(3) == 0
                    if round % 2 == 0 {
                        timing.repeatCount = .infinity
                    } else {
                        timing.repeatCount = Double(random.below(4))
                    }
                    var resolved = ResolvedTiming(timing)
                    if random.below(6) == 0 { resolved.active = (time - resolved.beginTime) * abs(resolved.speed) }
                    group.appendTiming(resolved)
                }
                let divide = random.below(2) == 0
                var (progress, iterations) = (
                    [Double](repeating: 0, count: count), [Double](repeating: 0, count: count)
                )
                let left = LaneTimingColumns(group).withColumns { columns in
                    withRawValue(columns) { BGLaneTimes($0, count, time, divide ? 1 : 0, &progress, &iterations) }
                }
                var expectedLeft: Int32 = 0
                for (m, timing) in group.timings.enumerated() {
                    let tau = (time - timing.beginTime) * abs(timing.speed)
                    guard time >= timing.beginTime, !(tau > timing.active),
                        case .showing(let local, let k) = timing.localTime(activeTime: tau)
                    else {
                        expectedLeft = 1
                        break
                    }
                    guard left == 0 else { continue }
                    let u = divide ? local / timing.duration : local
                    XCTAssertEqual(progress[m].bitPattern, u.bitPattern, "\(name) round \(round) member \(m)")
                    XCTAssertEqual(iterations[m].bitPattern, k.bitPattern, "\(name) round \(round) member \(m)")
                }
                XCTAssertEqual(left, expectedLeft, "\(name) round \(round)")
                if expectedLeft == 0 { allShowing += 1 } else { someLeft += 1 }
            }
            XCTAssertGreaterThan(allShowing, 1000, name)
            XCTAssertGreaterThan(someLeft, 300, name)
        }
    }

    /// A name the module does not have, or an instruction set this CPU lacks, is refused
    /// and changes nothing (`BATCHGEOMETRY_C_KERNEL`'s message: MisuseMessageTests,
    /// "animation-c-kernel-environment").
    func testUnknownInstructionSetIsRefused() {
        defer { _ = BGKernelSetBackend("auto") }
        XCTAssertEqual(BGKernelSetBackend("portable"), 1)
        for bad in ["avx9", "", "sse2", "avx512x"] {
            XCTAssertEqual(BGKernelSetBackend(bad), 0, bad)
            XCTAssertEqual(KernelOptions.cInstructionSet, "portable", bad)
        }
    }
}

extension AnimationLanesTests {
    /// The lanes with each C instruction set selected (their timing functions are solved
    /// by `BGTimingNewton8`) against the scalar reference and the general path: groups of
    /// eight, broadcast and gathered, shared inputs (the memo) and random ones.
    func testLanesEqualTheReferenceOnEveryInstructionSet() throws {
        defer { _ = BGKernelSetBackend("auto") }
        for name in TimingSolveKernelTests.instructionSets {
            XCTAssertEqual(BGKernelSetBackend(name), 1)
            XCTAssertEqual(KernelOptions.cInstructionSet, name)
            XCTAssertGreaterThan(try compareLanes(seed: 3), 20, name)
            for (seed, shared, one): (UInt64, Bool, Bool) in [(7, false, false), (9, true, true), (8, false, true)] {
                let samples = try compareLanes(seed: seed, layerCount: 120) { random, _ in
                    Self.wideLaneAnimation(&random, sharedTiming: shared, oneFunction: one)
                }
                XCTAssertGreaterThan(samples, 20, "\(name) seed \(seed)")
            }
        }
    }
}

extension AnimationSamplerReferenceTests {
    /// The general path (its queued solves, eight at a time through `BGTimingNewton8`)
    /// with each C instruction set selected, against the scalar reference.
    func testSamplerEqualsTheReferenceOnEveryInstructionSet() throws {
        defer { _ = BGKernelSetBackend("auto") }
        for name in TimingSolveKernelTests.instructionSets {
            XCTAssertEqual(BGKernelSetBackend(name), 1)
            XCTAssertGreaterThan(try compareOnRandomAnimations(seed: 2, layerTimings: true), 100, name)
            XCTAssertGreaterThan(try compareOnRandomAnimations(seed: 8, layerTimings: false), 100, name)
        }
    }
}
