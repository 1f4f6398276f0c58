import XCTest

@testable import BatchGeometry

/// UIScrollView deceleration and the rubber band (docs/ANIMATION.md section 11): the four
/// device traces, the rate snap, the closed form against the per-millisecond sum it
/// stands for, clamping and pixel rounding.
final class ScrollDecelerationTests: XCTestCase {
    /// Four device traces on a 2× screen: (start, velocity in pt/ms) → resting offset
    /// (exact) after the measured duration (within 17.1 ms: section 13's "within 17 ms" is
    /// 2.485 − 2.4679 rounded).
    func testDeviceTraces() {
        let traces: [(start: Double, velocity: Double, rest: Double, seconds: Double)] = [
            (364, 4.619940, 2664.5, 3.069), (2595.5, 1.398724, 3288.5, 2.485),
            (3094.5, -2.389578, 1907.0, 2.752), (143, 2.279252, 1275.5, 2.719),
        ]
        for trace in traces {
            let deceleration = ScrollDeceleration(
                offset: Point(x: 0, y: trace.start), velocity: Point(x: 0, y: trace.velocity), displayScale: 2)
            XCTAssertEqual(deceleration.target, Point(x: 0, y: trace.rest), "from \(trace.start)")
            XCTAssertEqual(deceleration.duration, trace.seconds, accuracy: 0.0172, "from \(trace.start)")
            XCTAssertEqual(deceleration.offset(at: deceleration.duration), deceleration.target)
            XCTAssertEqual(deceleration.offset(at: 60), deceleration.target)
            XCTAssertEqual(deceleration.offset(at: 0), Point(x: 0, y: trace.start))
        }
    }

    func testRatesSnapToNormalOrFast() {
        func rate(_ given: Double) -> Double {
            ScrollDeceleration(offset: Point(x: 0, y: 0), velocity: Point(x: 1, y: 0), rate: given).rate
        }
        XCTAssertEqual(rate(0.998), 0.998)
        XCTAssertEqual(rate(0.99), 0.99)
        XCTAssertEqual(rate(0.994), 0.998, "the tie goes to normal")
        XCTAssertEqual(rate(0.9939), 0.99)
        XCTAssertEqual(rate(0.5), 0.99)
        XCTAssertEqual(rate(0.9999), 0.998)
        XCTAssertEqual(ScrollDeceleration.normalRate, 0.998)
        XCTAssertEqual(ScrollDeceleration.fastRate, 0.99)
    }

    /// The offset after t ms is x0 + Σ_{n=1…t} v·dⁿ while the velocity v·dⁿ is at least
    /// 0.01 pt/ms, and the resting offset is that sum stopped there. A fine pixel grid
    /// (2^20 per point) leaves the closed form's own rounding visible only below 1e-6.
    func testClosedFormIsThePerMillisecondSum() {
        for (start, velocity, rate) in [(10.0, 1.5, 0.99), (20, -0.5, 0.99), (364, 4.61994, 0.998), (-7, -3, 0.998)] {
            let deceleration = ScrollDeceleration(
                offset: Point(x: start, y: 0), velocity: Point(x: velocity, y: 0), rate: rate, displayScale: 1_048_576)
            var offset = start
            var speed = velocity
            var milliseconds = 0
            while Swift.abs(speed * rate) >= 0.01 {
                speed *= rate
                offset += speed
                milliseconds += 1
                if milliseconds % 50 == 0 {
                    XCTAssertEqual(
                        deceleration.offset(at: Double(milliseconds) / 1000).x, offset, accuracy: 1e-6,
                        "\(velocity) at \(milliseconds) ms")
                }
            }
            // The sum stops within one step of the closed form's stop time and target.
            XCTAssertEqual(deceleration.duration * 1000, Double(milliseconds), accuracy: 1)
            XCTAssertEqual(deceleration.target.x, offset, accuracy: 0.011)
            XCTAssertEqual(deceleration.target.y, 0)
        }
    }

    func testSlowReleaseDoesNotMove() {
        let deceleration = ScrollDeceleration(
            offset: Point(x: 3.3, y: 4.2), velocity: Point(x: 0.01, y: -0.005), displayScale: 2)
        XCTAssertEqual(deceleration.duration, 0)
        XCTAssertEqual(deceleration.target, Point(x: 3.5, y: 4.0))
        XCTAssertEqual(deceleration.offset(at: 0.5), deceleration.target)
    }

    /// The longer axis sets the duration; each axis rests at its own time.
    func testAxesAreIndependent() {
        let both = ScrollDeceleration(offset: Point(x: 10, y: 20), velocity: Point(x: 1.5, y: -0.5), rate: 0.99)
        let x = ScrollDeceleration(offset: Point(x: 10, y: 20), velocity: Point(x: 1.5, y: 0), rate: 0.99)
        let y = ScrollDeceleration(offset: Point(x: 10, y: 20), velocity: Point(x: 0, y: -0.5), rate: 0.99)
        XCTAssertEqual(both.duration, Swift.max(x.duration, y.duration))
        XCTAssertEqual(both.target, Point(x: x.target.x, y: y.target.y))
        for time in [0.0, 0.05, 0.2, 0.4, 1] {
            XCTAssertEqual(both.offset(at: time), Point(x: x.offset(at: time).x, y: y.offset(at: time).y))
        }
    }

    func testOffsetsAreClampedThenRounded() throws {
        let range = try XCTUnwrap(
            ScrollDeceleration.scrollRange(
                contentSize: Size(width: 375, height: 2000), boundsSize: Size(width: 375, height: 667),
                contentInset: EdgeInsets(top: 20, left: 0, bottom: 0, right: 0)))
        XCTAssertEqual(range.x, 0...0)
        XCTAssertEqual(range.y, -20...1333)
        let down = ScrollDeceleration(
            offset: Point(x: 0, y: 900), velocity: Point(x: 3, y: 6), displayScale: 2, scrollRange: range)
        XCTAssertEqual(down.target, Point(x: 0, y: 1333))
        let up = ScrollDeceleration(
            offset: Point(x: 0, y: 100), velocity: Point(x: 0, y: -6), displayScale: 2, scrollRange: range)
        XCTAssertEqual(up.target, Point(x: 0, y: -20))
        var previous = -Double.infinity
        var offsets: [Point] = []
        up.offsets(at: (0...40).map { Double($0) * 0.1 }, into: &offsets)
        for offset in offsets.reversed() {
            XCTAssertGreaterThanOrEqual(offset.y, previous)
            XCTAssertGreaterThanOrEqual(offset.y, -20)
            XCTAssertEqual(offset.y * 2, (offset.y * 2).rounded(), "on the 0.5 pt grid")
            previous = offset.y
        }
        // The same range as a layer store computes for a scroll view of that size.
        var store = LayerStore()
        let layer = try store.addLayer()
        store.setBounds(Rect(x: 0, y: 0, width: 375, height: 667), of: layer)
        store.setScrollView(
            ScrollViewState(
                contentSize: Size(width: 375, height: 2000),
                contentInset: EdgeInsets(top: 20, left: 0, bottom: 0, right: 0)),
            of: layer)
        let stored = try XCTUnwrap(store.scrollRange(of: layer))
        XCTAssertEqual(stored.x, range.x)
        XCTAssertEqual(stored.y, range.y)
    }

    /// Rounded as contentOffset is (docs/GEOMETRY.md section 8): at 3×, to thirds.
    func testRoundsToTheDisplayScale() throws {
        let deceleration = ScrollDeceleration(
            offset: Point(x: 0, y: 0), velocity: Point(x: 0, y: 1), displayScale: 3)
        var store = LayerStore()
        try store.setDisplayScale(3)
        let layer = try store.addLayer()
        for time in [0.0, 0.01, 0.1, 0.37, 1, 10] {
            let unrounded = ScrollDeceleration(
                offset: Point(x: 0, y: 0), velocity: Point(x: 0, y: 1), displayScale: 1_073_741_824
            ).offset(at: time)
            store.setContentOffset(unrounded, of: layer)
            XCTAssertEqual(deceleration.offset(at: time).y, store.bounds(of: layer).y, accuracy: 1e-8, "at \(time)")
        }
    }

    /// A scroll view of a store decelerates from its contentOffset, within its range, on
    /// the store's pixel grid; setting the sampled offsets back changes nothing more.
    func testStoreScrollViewDecelerates() throws {
        var store = LayerStore()
        try store.setDisplayScale(3)
        let plain = try store.addLayer()
        let scroller = try store.addLayer()
        store.setBounds(Rect(x: 0, y: 0, width: 320, height: 480), of: scroller)
        store.setScrollView(ScrollViewState(contentSize: Size(width: 320, height: 3000)), of: scroller)
        store.setContentOffset(Point(x: 0, y: 700.2), of: scroller)
        XCTAssertNil(store.deceleration(of: plain, velocity: Point(x: 0, y: 2)))
        let deceleration = try XCTUnwrap(store.deceleration(of: scroller, velocity: Point(x: 1, y: 4), rate: 0.99))
        let range = try XCTUnwrap(store.scrollRange(of: scroller))
        XCTAssertEqual(
            deceleration,
            ScrollDeceleration(
                offset: Point(x: 0, y: store.bounds(of: scroller).y), velocity: Point(x: 1, y: 4), rate: 0.99,
                displayScale: 3, scrollRange: range))
        for step in 0...30 {
            let offset = deceleration.offset(at: Double(step) * 0.02)
            store.setContentOffset(offset, of: scroller)
            let bounds = store.bounds(of: scroller)
            XCTAssertEqual(Point(x: bounds.x, y: bounds.y), offset, "at step \(step)")
            XCTAssertEqual(offset.x, 0, "no horizontal range")
        }
        XCTAssertEqual(deceleration.offset(at: deceleration.duration), deceleration.target)
    }

    func testRubberBand() {
        let dimension = 667.0
        XCTAssertEqual(rubberBandOffset(overscroll: 0, dimension: dimension), 0)
        var previous = 0.0
        for step in 1...200 {
            let overscroll = Double(step) * 10
            let moved = rubberBandOffset(overscroll: overscroll, dimension: dimension)
            XCTAssertGreaterThan(moved, previous)
            XCTAssertLessThan(moved, Swift.min(overscroll, dimension))
            XCTAssertEqual(rubberBandOffset(overscroll: -overscroll, dimension: dimension), -moved)
            previous = moved
        }
        // Near the edge it moves by the constant times the pull; far away it tends to the dimension.
        XCTAssertEqual(rubberBandOffset(overscroll: 1e-3, dimension: dimension) / 1e-3, 0.55, accuracy: 1e-6)
        XCTAssertEqual(
            rubberBandOffset(overscroll: 1e-3, dimension: dimension, constant: 0.3) / 1e-3, 0.3, accuracy: 1e-6)
        XCTAssertEqual(rubberBandOffset(overscroll: 1e12, dimension: dimension), dimension, accuracy: 1e-6)
        // Half the dimension when |x|·c equals the dimension.
        XCTAssertEqual(
            rubberBandOffset(overscroll: dimension / 0.55, dimension: dimension), dimension / 2, accuracy: 1e-9)
    }
}
