import XCTest

@testable import BatchGeometry

/// A scroll view's deceleration added to an AnimationStore as an animation of its
/// contentOffset (docs/ANIMATION.md section 11 sampled with the timing of sections 2.1-2.4):
/// its sampled offsets are `ScrollDeceleration.offset(at:)` (the scalar reference) at the
/// local time, it finishes at the deceleration's duration and can be removed.
final class DecelerationAnimationTests: XCTestCase {
    /// A 3× store with a 320×480 scroll view over 320×3000 of content at offset 700.2
    /// (rounded to 700.3333… by the pixel grid), inside a container.
    struct Scroller: ~Copyable {
        var store = LayerStore()
        var container = LayerHandle(rawValue: 0)
        var scroller = LayerHandle(rawValue: 0)

        init(offset: Double = 700.2) throws {
            try store.setDisplayScale(3)
            container = try store.addLayer()
            scroller = try store.addLayer(superlayer: container)
            store.setBounds(Rect(x: 0, y: 0, width: 320, height: 480), of: scroller)
            store.setScrollView(ScrollViewState(contentSize: Size(width: 320, height: 3000)), of: scroller)
            store.setContentOffset(Point(x: 0, y: offset), of: scroller)
        }
    }

    /// The sampled contentOffset (bounds.origin) of `layer`, nil when nothing showed.
    private func sampledOffset(_ values: PresentationValues, _ scene: borrowing Scroller) -> Point? {
        values.values(of: scene.scroller, model: scene.store).map { $0.bounds.origin }
    }

    func testSampledOffsetsAreTheDecelerationsOffsetsAtLocalTime() throws {
        let scene = try Scroller()
        let deceleration = try XCTUnwrap(scene.store.deceleration(of: scene.scroller, velocity: Point(x: 0, y: 3.2)))
        XCTAssertGreaterThan(deceleration.duration, 1, "a fast fling decelerates for seconds")
        var timing = AnimationTiming()
        timing.beginTime = 0.25
        var animations = AnimationStore()
        let number = try animations.addDeceleration(deceleration, to: scene.scroller, in: scene.store, timing: timing)
        var values = PresentationValues()
        try animations.sample(at: 0.1, model: scene.store, into: &values)
        XCTAssertNil(sampledOffset(values, scene), "before its begin, without a backward fill")
        var previous = -Double.infinity
        // Every 50 ms of its 2.88 s.
        for frame in 0..<58 {
            let time = 0.25 + Double(frame) * 0.05
            try animations.sample(at: time, model: scene.store, into: &values)
            let offset = try XCTUnwrap(sampledOffset(values, scene), "at \(time)")
            XCTAssertEqual(offset, deceleration.offset(at: time - 0.25), "at \(time)")
            XCTAssertEqual((offset.y * 3).rounded(), offset.y * 3, "on the 3× pixel grid at \(time)")
            XCTAssertGreaterThanOrEqual(offset.y, previous, "moving down, never back")
            previous = offset.y
        }
        XCTAssertEqual(animations.finished, [], "not yet at its end")
        XCTAssertTrue(animations.contains(number))
        // The closed form for the first 100 ms, independently: from 700.2 on the 3× grid,
        // x0 + ((v·d)·(1 − d^100)) / (1 − d), rounded to the grid.
        let x0 = (700.2 * 3).rounded() / 3
        XCTAssertEqual(deceleration.startOffset.y, x0, "the store's contentOffset is on the grid")
        let moved = ((3.2 * 0.998) * (1 - pow(0.998, 100))) / (1 - 0.998)
        XCTAssertEqual(deceleration.offset(at: 0.1).y, ((x0 + moved) * 3).rounded() / 3)
    }

    func testItFinishesAtTheDurationAndLeaves() throws {
        let scene = try Scroller()
        let deceleration = try XCTUnwrap(scene.store.deceleration(of: scene.scroller, velocity: Point(x: 0, y: -1.5)))
        var animations = AnimationStore()
        let number = try animations.addDeceleration(deceleration, to: scene.scroller, in: scene.store)
        var values = PresentationValues()
        try animations.sample(at: deceleration.duration, model: scene.store, into: &values)
        XCTAssertEqual(sampledOffset(values, scene), deceleration.target, "at its end, the resting offset")
        XCTAssertEqual(animations.finished, [])
        try animations.sample(at: deceleration.duration + 0.001, model: scene.store, into: &values)
        XCTAssertEqual(animations.finished, [number])
        XCTAssertFalse(animations.contains(number), "removed on completion")
        XCTAssertNil(sampledOffset(values, scene))
    }

    func testAForwardFillHoldsTheTargetAndRemoveStopsIt() throws {
        let scene = try Scroller()
        let deceleration = try XCTUnwrap(scene.store.deceleration(of: scene.scroller, velocity: Point(x: 0, y: 2)))
        var timing = AnimationTiming()
        timing.fillMode = .forwards
        timing.removedOnCompletion = false
        timing.repeatCount = 3  // ignored: a deceleration runs once
        var animations = AnimationStore()
        let number = try animations.addDeceleration(deceleration, to: scene.scroller, in: scene.store, timing: timing)
        var values = PresentationValues()
        try animations.sample(at: deceleration.duration + 1, model: scene.store, into: &values)
        XCTAssertEqual(animations.finished, [number])
        XCTAssertEqual(sampledOffset(values, scene), deceleration.target)
        try animations.remove(number)
        try animations.sample(at: deceleration.duration + 2, model: scene.store, into: &values)
        XCTAssertNil(sampledOffset(values, scene), "removed: the model shows")
    }

    func testAnimationSpeedAndLayerTimingAreApplied() throws {
        let scene = try Scroller()
        let deceleration = try XCTUnwrap(scene.store.deceleration(of: scene.scroller, velocity: Point(x: 0, y: 2.5)))
        var timing = AnimationTiming()
        timing.beginTime = 0.5
        timing.speed = 2
        var animations = AnimationStore()
        try animations.addDeceleration(deceleration, to: scene.scroller, in: scene.store, timing: timing)
        // The container's time runs at half speed from 0.2 s: layer time (t − 0.2) · 0.5.
        try animations.setTiming(LayerTiming(beginTime: 0.2, speed: 0.5), of: scene.container, in: scene.store)
        var values = PresentationValues()
        for frame in 0..<40 {
            let time = 1.2 + Double(frame) * 0.07  // local times 0 to 2.73 s of its 2.76 s
            try animations.sample(at: time, model: scene.store, into: &values)
            let layerTime = (time - 0.2) * 0.5
            let local = (layerTime - 0.5) * 2
            XCTAssertEqual(sampledOffset(values, scene), deceleration.offset(at: local), "at \(time)")
        }
    }

    func testStartingBeyondTheEdgeShowsClampedOffsets() throws {
        // 2600 is beyond the largest offset, 3000 − 480 = 2520; flung further down.
        let scene = try Scroller(offset: 2600)
        XCTAssertEqual(scene.store.bounds(of: scene.scroller).y, 2600, "the setter does not clamp")
        let deceleration = try XCTUnwrap(scene.store.deceleration(of: scene.scroller, velocity: Point(x: 0, y: 1)))
        var animations = AnimationStore()
        try animations.addDeceleration(deceleration, to: scene.scroller, in: scene.store)
        var values = PresentationValues()
        for frame in 0..<20 {
            try animations.sample(at: Double(frame) / 60, model: scene.store, into: &values)
            XCTAssertEqual(sampledOffset(values, scene), Point(x: 0, y: 2520), "clamped to the range")
        }
    }

    func testComposesAndAppliesLikeAnyAnimation() throws {
        let scene = try Scroller()
        let deceleration = try XCTUnwrap(scene.store.deceleration(of: scene.scroller, velocity: Point(x: 0, y: 2)))
        var animations = AnimationStore()
        try animations.addDeceleration(deceleration, to: scene.scroller, in: scene.store)
        // An additive nudge of the position on top, and of the origin after it.
        try animations.add(
            Animation(
                keyPath: .boundsOrigin, content: .basic(from: [0, 10], to: [0, 10], by: nil), isAdditive: true),
            to: scene.scroller, in: scene.store)
        var values = PresentationValues()
        try animations.sample(at: 0.1, model: scene.store, into: &values)
        let expected = deceleration.offset(at: 0.1)
        XCTAssertEqual(sampledOffset(values, scene), Point(x: expected.x, y: expected.y + 10))
        var screen = scene.store.copy()
        screen.applyPresentation(values)
        XCTAssertEqual(screen.bounds(of: scene.scroller).origin, Point(x: expected.x, y: expected.y + 10))
        XCTAssertEqual(screen.bounds(of: scene.scroller).size, Size(width: 320, height: 480))
    }

    func testRejectsStaleLayersAndNonFiniteDecelerations() throws {
        var scene = try Scroller()
        var animations = AnimationStore()
        let broken = ScrollDeceleration(offset: Point(x: 0, y: 0), velocity: Point(x: .nan, y: 1))
        XCTAssertThrowsError(try animations.addDeceleration(broken, to: scene.scroller, in: scene.store)) {
            XCTAssertEqual(($0 as? AnimationError)?.field, "deceleration")
        }
        let fine = ScrollDeceleration(offset: Point(x: 0, y: 0), velocity: Point(x: 0, y: 1))
        var timing = AnimationTiming()
        timing.speed = .infinity
        XCTAssertThrowsError(try animations.addDeceleration(fine, to: scene.scroller, in: scene.store, timing: timing))
        let gone = try scene.store.addLayer()
        _ = try scene.store.destroyLayer(gone)
        XCTAssertThrowsError(try animations.addDeceleration(fine, to: gone, in: scene.store))
        XCTAssertEqual(animations.count, 0, "nothing was added")
    }
}
