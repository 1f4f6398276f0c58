// The curve functions of batchgeometry.h ("Curves") against the Swift calls they run: the
// same bits for random timing functions, springs and decelerations, one at a time and in
// batch, and bad structs refused with their field named and nothing written. (The C
// tests, Tests/CInterface/test_c_api_curves.h, check ANIMATION.md's evidence from C.)

import CBatchGeometry
import XCTest

@testable import BatchGeometry
@testable import BatchGeometryC

final class CurveInterfaceTests: XCTestCase {
    /// A deterministic stream of doubles in [0, 1) (SplitMix64).
    private struct Numbers {
        var state: UInt64
        mutating func next() -> Double {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return Double((z ^ (z >> 31)) >> 11) / Double(1 << 53)
        }
    }

    private var message: String { String(cString: bgLastErrorMessage()!) }

    /// Random custom functions (y overshooting) and the five named ones.
    private func functions(_ count: Int, _ numbers: inout Numbers) -> [TimingFunction] {
        (0..<count).map { index in
            if index % 4 == 0 { return TimingFunction(TimingFunction.Name.allCases[(index / 4) % 5]) }
            return TimingFunction(
                controlPoints: numbers.next(), numbers.next() * 3 - 1, numbers.next(), numbers.next() * 3 - 1)!
        }
    }

    /// Random springs in the three regimes, with both overdamping settings.
    private func springs(_ count: Int, _ numbers: inout Numbers) -> [bg_spring] {
        (0..<count).map { index in
            let stiffness = 10 + numbers.next() * 500
            let critical = 2 * stiffness.squareRoot()
            let factor = [0.05 + numbers.next() * 0.9, 1, 1.1 + numbers.next() * 3][index % 3]
            return bg_spring(
                mass: 0.5 + numbers.next(), stiffness: stiffness, damping: critical * factor,
                initial_velocity: numbers.next() * 20 - 10, allows_overdamping: index % 2 == 0)
        }
    }

    func testTimingFunctionsMatchSwiftBitForBit() {
        var numbers = Numbers(state: 23)
        let functions = functions(200, &numbers)
        let inputs = (0..<200).map { _ in numbers.next() * 1.4 - 0.2 }
        var cFunctions = [bg_timing_function](repeating: bg_timing_function(), count: functions.count)
        for (index, function) in functions.enumerated() {
            if let name = function.name {
                let raw = Int32(TimingFunction.Name.allCases.firstIndex(of: name)!)
                XCTAssertEqual(bgTimingFunctionNamed(raw, &cFunctions[index]), Status.ok)
            } else {
                let (x1, y1, x2, y2) = (function.x1, function.y1, function.x2, function.y2)
                XCTAssertEqual(
                    bgTimingFunctionMake(Double(x1), Double(y1), Double(x2), Double(y2), &cFunctions[index]),
                    Status.ok)
            }
            var value: Float = -1
            XCTAssertEqual(bgTimingFunctionValue(&cFunctions[index], inputs[index], &value), Status.ok)
            XCTAssertEqual(value.bitPattern, function.value(at: inputs[index]).bitPattern, "\(function)")
        }
        var expected: [Float] = []
        TimingFunction.values(of: functions, at: inputs, into: &expected)
        var each = [Float](repeating: -1, count: inputs.count)
        XCTAssertEqual(bgTimingFunctionValuesEach(cFunctions, inputs, inputs.count, &each), Status.ok)
        XCTAssertEqual(each.map(\.bitPattern), expected.map(\.bitPattern))
        functions[1].values(at: inputs, into: &expected)
        XCTAssertEqual(bgTimingFunctionValues(&cFunctions[1], inputs, inputs.count, &each), Status.ok)
        XCTAssertEqual(each.map(\.bitPattern), expected.map(\.bitPattern))
    }

    func testTimingFunctionNamesAndSnapping() {
        var function = bg_timing_function()
        var name: Int32 = 99
        // Within 0.001 of easeInEaseOut: it becomes easeInEaseOut, exact points and all.
        XCTAssertEqual(bgTimingFunctionMake(0.4205, 0.0004, 0.5795, 0.9996, &function), Status.ok)
        XCTAssertEqual([function.x1, function.y1, function.x2, function.y2], [0.42, 0, 0.58, 1])
        XCTAssertEqual(bgTimingFunctionGetName(&function, &name), Status.ok)
        XCTAssertEqual(name, Int32(BG_TIMING_FUNCTION_EASE_IN_EASE_OUT))
        XCTAssertEqual(bgTimingFunctionMake(0.1, 1, 1, 0.2, &function), Status.ok)
        XCTAssertEqual(bgTimingFunctionGetName(&function, &name), Status.ok)
        XCTAssertEqual(name, Int32(BG_TIMING_FUNCTION_CUSTOM))
        for (index, swiftName) in TimingFunction.Name.allCases.enumerated() {
            XCTAssertEqual(bgTimingFunctionNamed(Int32(index), &function), Status.ok)
            XCTAssertEqual(bgTimingFunctionGetName(&function, &name), Status.ok)
            XCTAssertEqual(name, Int32(index), "\(swiftName)")
        }
    }

    func testSpringsMatchSwiftBitForBit() {
        var numbers = Numbers(state: 5)
        let cSprings = springs(90, &numbers)
        let swiftSprings = cSprings.map {
            Spring(
                mass: $0.mass, stiffness: $0.stiffness, damping: $0.damping, initialVelocity: $0.initial_velocity,
                allowsOverdamping: $0.allows_overdamping)
        }
        let times = (0..<90).map { _ in numbers.next() * 3 }
        for index in cSprings.indices {
            var value = -1.0
            XCTAssertEqual(bgSpringValue([cSprings[index]], times[index], &value), Status.ok)
            XCTAssertEqual(value.bitPattern, swiftSprings[index].value(at: times[index]).bitPattern)
        }
        var expected: [Float] = []
        Spring.progress(of: swiftSprings, at: times, into: &expected)
        var got = [Float](repeating: -1, count: times.count)
        XCTAssertEqual(bgSpringProgressEach(cSprings, times, times.count, &got), Status.ok)
        XCTAssertEqual(got.map(\.bitPattern), expected.map(\.bitPattern))
        swiftSprings[2].progress(at: times, into: &expected)
        XCTAssertEqual(bgSpringProgress([cSprings[2]], times, times.count, &got), Status.ok)
        XCTAssertEqual(got.map(\.bitPattern), expected.map(\.bitPattern))
        var durations = [bg_spring_durations](repeating: bg_spring_durations(), count: cSprings.count)
        XCTAssertEqual(bgSpringGetDurationsEach(cSprings, cSprings.count, 0.005, 2, &durations), Status.ok)
        for (index, spring) in swiftSprings.enumerated() {
            XCTAssertEqual(
                durations[index].for_epsilon.bitPattern, spring.duration(forEpsilon: 0.005, speed: 2).bitPattern)
            XCTAssertEqual(durations[index].settling.bitPattern, spring.settlingDuration.bitPattern)
            XCTAssertEqual(durations[index].perceptual.bitPattern, spring.perceptualDuration.bitPattern)
            var one = bg_spring_durations()
            XCTAssertEqual(bgSpringGetDurations([cSprings[index]], 0.005, 2, &one), Status.ok)
            XCTAssertEqual(one.for_epsilon.bitPattern, durations[index].for_epsilon.bitPattern)
        }
    }

    func testViewAnimationSpringIsSwiftsParameters() {
        for (duration, ratio, velocity) in [(0.5, 0.8, 0.0), (1, 1, 2), (0.3, 0.2, -1), (20, 0, 0)] {
            var spring = bg_spring()
            XCTAssertEqual(bgSpringForViewAnimation(duration, ratio, velocity, &spring), Status.ok)
            let swift = Spring.viewAnimationParameters(
                duration: duration, dampingRatio: ratio, initialVelocity: velocity)
            XCTAssertEqual(spring.mass, 1)
            XCTAssertEqual(spring.stiffness.bitPattern, swift.stiffness.bitPattern)
            XCTAssertEqual(spring.damping.bitPattern, swift.damping.bitPattern)
            XCTAssertEqual(spring.initial_velocity, velocity)
            XCTAssertFalse(spring.allows_overdamping)
        }
    }

    func testDecelerationsMatchSwiftBitForBit() {
        var numbers = Numbers(state: 11)
        for index in 0..<40 {
            let offset = Point(x: numbers.next() * 2000 - 500, y: numbers.next() * 2000 - 500)
            let velocity = Point(x: numbers.next() * 10 - 5, y: numbers.next() * 10 - 5)
            let rate = index % 3 == 0 ? ScrollDeceleration.fastRate : 0.995
            let scale = Double(1 + index % 3)
            let range: CScrollRange = index % 2 == 0 ? (-100, 1500, 0, 900) : unboundedScrollRange
            let swift = ScrollDeceleration(
                offset: offset, velocity: velocity, rate: rate, displayScale: scale,
                scrollRange: (x: range.0...range.1, y: range.2...range.3))
            var made = bg_deceleration()
            let cRange = [range.0, range.1, range.2, range.3]
            XCTAssertEqual(
                bgDecelerationMake([offset.x, offset.y], [velocity.x, velocity.y], rate, scale, cRange, &made),
                Status.ok)
            XCTAssertEqual(
                [made.target.0, made.target.1, made.duration], [swift.target.x, swift.target.y, swift.duration])
            XCTAssertEqual(made.rate, swift.rate)
            let times = (0..<30).map { _ in numbers.next() * 4 }
            var expected: [Point] = []
            swift.offsets(at: times, into: &expected)
            var got = [Double](repeating: -1, count: 2 * times.count)
            XCTAssertEqual(bgDecelerationOffsets(&made, times, times.count, &got), Status.ok)
            XCTAssertEqual(got, expected.flatMap { [$0.x, $0.y] })
            var one = [-1.0, -1]
            XCTAssertEqual(bgDecelerationOffset(&made, times[3], &one), Status.ok)
            XCTAssertEqual(one, [expected[3].x, expected[3].y])
        }
        for overscroll in [-300.0, -1, 0, 0.5, 42, 1e6] {
            var out = -1.0
            XCTAssertEqual(bgRubberBandOffset(overscroll, 812, 0.55, &out), Status.ok)
            XCTAssertEqual(out.bitPattern, rubberBandOffset(overscroll: overscroll, dimension: 812).bitPattern)
        }
    }

    /// `bg_layer_decelerate` is `deceleration(of:velocity:rate:)` of the store's layer: its
    /// offset, scroll range and display scale.
    func testLayerDecelerationIsTheStoresDeceleration() throws {
        var store = LayerStore()
        let scroll = try store.addLayer()
        store.setBounds(Rect(x: 0, y: 0, width: 320, height: 480), of: scroll)
        store.setScrollView(
            ScrollViewState(
                contentSize: Size(width: 320, height: 3000),
                contentInset: EdgeInsets(top: 44, left: 0, bottom: 34, right: 0)), of: scroll)
        try store.setDisplayScale(3)
        store.setContentOffset(Point(x: 0, y: 123.4), of: scroll)
        var numbers = Numbers(state: 3)
        let velocities = (0..<20).map { _ in Point(x: numbers.next() - 0.5, y: numbers.next() * 12 - 6) }
        let swift = velocities.map { store.deceleration(of: scroll, velocity: $0, rate: 0.99)! }
        let pointer = CStore.make(store, options: .serial(.scalar))
        defer { bgStoreDestroy(pointer) }
        for (velocity, expected) in zip(velocities, swift) {
            var made = bg_deceleration()
            XCTAssertEqual(
                bgLayerDecelerate(pointer, scroll.rawValue, [velocity.x, velocity.y], 0.99, &made), Status.ok)
            XCTAssertEqual(
                [made.target.0, made.target.1, made.duration],
                [expected.target.x, expected.target.y, expected.duration])
            XCTAssertEqual([made.offset.0, made.offset.1, made.display_scale], [0, expected.startOffset.y, 3])
            XCTAssertEqual(made.scroll_range.2, -44)
            var offset = [-1.0, -1]
            XCTAssertEqual(bgDecelerationOffset(&made, 0.25, &offset), Status.ok)
            XCTAssertEqual(offset, [expected.offset(at: 0.25).x, expected.offset(at: 0.25).y])
        }
    }

    func testBadStructsNameTheFieldAndWriteNothing() {
        var out = [Float](repeating: 7, count: 3)
        let inputs = [0.1, 0.5, 0.9]
        var functions = [bg_timing_function](repeating: bg_timing_function(x1: 0.42, y1: 0, x2: 1, y2: 1), count: 3)
        functions[2].y2 = .nan
        XCTAssertEqual(bgTimingFunctionValuesEach(functions, inputs, 3, &out), Status.invalidArgument)
        XCTAssertEqual(message, "bg_timing_function_values_each: functions[2].y2 must be finite, got nan")
        XCTAssertEqual(out, [7, 7, 7])
        var springs = [bg_spring](
            repeating: bg_spring(mass: 1, stiffness: 100, damping: 10, initial_velocity: 0, allows_overdamping: false),
            count: 3)
        springs[1].stiffness = -4
        XCTAssertEqual(bgSpringProgressEach(springs, inputs, 3, &out), Status.invalidArgument)
        XCTAssertEqual(message, "bg_spring_progress_each: springs[1].stiffness must be positive and finite, got -4.0")
        XCTAssertEqual(out, [7, 7, 7])
        var durations = [bg_spring_durations](
            repeating: bg_spring_durations(for_epsilon: 7, settling: 7, perceptual: 7), count: 3)
        XCTAssertEqual(bgSpringGetDurationsEach(springs, 3, 0.001, 1, &durations), Status.invalidArgument)
        XCTAssertEqual(durations[0].settling, 7)
        var deceleration = bg_deceleration()
        deceleration.display_scale = 2
        deceleration.scroll_range = (0, -1, 0, 10)
        var offsets = [Double](repeating: 7, count: 6)
        XCTAssertEqual(bgDecelerationOffsets(&deceleration, inputs, 3, &offsets), Status.invalidArgument)
        XCTAssertTrue(message.hasPrefix("bg_deceleration_offsets: deceleration.scroll_range must be"), message)
        XCTAssertEqual(offsets, [7, 7, 7, 7, 7, 7])
    }
}
