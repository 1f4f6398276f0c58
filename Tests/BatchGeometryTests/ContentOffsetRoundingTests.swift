import XCTest

@testable import BatchGeometry

/// The display scale and `-[UIScrollView setContentOffset:]`'s rounding (GEOMETRY.md
/// sections 1 and 8, section 9 X4). Expected values are device logs where there are
/// any, else C's round()/floor() worked outside the engine.
final class ContentOffsetRoundingTests: XCTestCase {
    private func scroller(scale: Double) -> Fixture<LayerHandle> {
        var store = LayerStore()
        try! store.setDisplayScale(scale)
        let layer = store.addViewWithFrame(Rect(x: 0, y: 0, width: 375, height: 300))
        return Fixture(store: store, handles: layer)
    }

    private func offset(_ v: Double, scale: Double) -> Double {
        let storeFixture = scroller(scale: scale)
        let layer = storeFixture.handles
        var store = storeFixture.store
        store.setContentOffset(Point(x: v, y: 0), of: layer)
        return store.contentOffset(of: layer).x
    }

    /// The device logs: 3.8 → 4.0 at 1× and 2× (bounds set directly keeps 3.8); at 3×
    /// −187.5 → −187.33333333333334 and 71.75 → 71.66666666666667.
    func testDeviceLogs() {
        XCTAssertEqual(offset(3.8, scale: 1), 4.0)
        XCTAssertEqual(offset(3.8, scale: 2), 4.0)
        XCTAssertEqual(offset(-187.5, scale: 3), -187.33333333333334)
        XCTAssertEqual(offset(71.75, scale: 3), 71.66666666666667)
        let storeFixture = scroller(scale: 3)
        let layer = storeFixture.handles
        var store = storeFixture.store
        store.setBounds(Rect(x: 3.8, y: -187.5, width: 375, height: 300), of: layer)
        XCTAssertEqual(store.bounds(of: layer).origin, Point(x: 3.8, y: -187.5), "setting bounds never rounds")
    }

    /// Ties: away from zero at 1× (C round); toward +infinity otherwise, since the
    /// fraction above floor(v) is never negative.
    func testTiesAtEveryScale() {
        XCTAssertEqual(offset(2.5, scale: 1), 3)
        XCTAssertEqual(offset(-2.5, scale: 1), -3)
        XCTAssertEqual(offset(0.5, scale: 1), 1)
        XCTAssertEqual(offset(-0.5, scale: 1), -1)
        XCTAssertEqual(offset(2.25, scale: 2), 2.5)
        XCTAssertEqual(offset(-2.25, scale: 2), -2)
        XCTAssertEqual(offset(0.5, scale: 3), 0.6666666666666666)
        XCTAssertEqual(offset(-0.5, scale: 3), -0.33333333333333337)
        XCTAssertEqual(offset(3.8, scale: 3), 3.6666666666666665)
        // C round keeps the sign of a negative fraction that rounds to zero; at 3× the
        // same offset is floor (−1) plus one whole pixel step, +0.
        XCTAssertEqual(offset(-0.1, scale: 1).sign, .minus)
        XCTAssertEqual(offset(-0.1, scale: 1), 0)
        XCTAssertEqual(offset(-0.1, scale: 3).sign, .plus)
        // A scale that is not an integer (the iPhone 6 Plus renders at 2.608…): the same formula.
        XCTAssertEqual(
            offset(10.3, scale: 2.5), 10 + (0.3000000000000007 * 2.5).rounded(.toNearestOrAwayFromZero) / 2.5)
    }

    /// No clamping: offsets outside any range, and on layers that are not scroll views.
    /// Non-finite offsets follow the formula: at 1× round keeps ±infinity and NaN; at
    /// other scales floor(±inf) - ±inf is NaN.
    func testNoClampingAndNonFiniteOffsets() {
        XCTAssertEqual(offset(-1e6 - 0.4, scale: 1), -1e6)
        XCTAssertEqual(offset(.infinity, scale: 1), .infinity)
        XCTAssertEqual(offset(-.infinity, scale: 1), -.infinity)
        XCTAssertTrue(offset(.nan, scale: 1).isNaN)
        XCTAssertTrue(offset(.infinity, scale: 3).isNaN)
        XCTAssertTrue(offset(-.infinity, scale: 2).isNaN)
        XCTAssertTrue(offset(.nan, scale: 3).isNaN)
    }

    /// A scroll request clamps to the range, then sets the contentOffset, so the result
    /// is rounded too, even past the range's end: content 2000.25 high in a 300-point
    /// view has y in [0, 1700.25]; at 2× the end rounds to 1700.5.
    func testScrollClampsThenRounds() throws {
        let storeFixture = scroller(scale: 2)
        let layer = storeFixture.handles
        var store = storeFixture.store
        store.setScrollView(ScrollViewState(contentSize: Size(width: 375, height: 2000.25)), of: layer)
        XCTAssertEqual(try store.scroll(layer, to: Point(x: 0, y: 5000)), Point(x: 0, y: 1700.5))
        XCTAssertEqual(store.contentOffset(of: layer), Point(x: 0, y: 1700.5))
        XCTAssertEqual(try store.scroll(layer, to: Point(x: 0, y: 10.2)), Point(x: 0, y: 10))
        try store.setDisplayScale(1)
        XCTAssertEqual(try store.scroll(layer, to: Point(x: 0, y: 5000)), Point(x: 0, y: 1700))
    }

    /// The display scale is a positive finite number; anything else throws, names the
    /// value, and leaves the store as it was.
    func testInvalidDisplayScalesThrowAndChangeNothing() throws {
        var store = LayerStore()
        XCTAssertEqual(store.displayScale, 1)
        try store.setDisplayScale(3)
        for bad in [0, -0.0, -1, .nan, .infinity, -.infinity] {
            XCTAssertThrowsError(try store.setDisplayScale(bad)) { error in
                // Compared by bits: NaN is not equal to itself.
                guard case .invalidDisplayScale(let value)? = error as? LayerStoreError else {
                    return XCTFail("expected invalidDisplayScale, got \(error)")
                }
                XCTAssertEqual(value.bitPattern, bad.bitPattern)
                XCTAssertEqual("\(error)", "the display scale must be a positive finite number, got \(bad)")
            }
            XCTAssertEqual(store.displayScale, 3)
        }
        try store.setDisplayScale(2.608)
        XCTAssertEqual(store.displayScale, 2.608)
    }
}
