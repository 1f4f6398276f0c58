import XCTest

@_spi(Testing) @testable import BatchGeometry

/// Scroll views (GEOMETRY.md section 8): the range, clamping, errors.
final class ScrollViewTests: XCTestCase {
    /// A 375×300 scroller with content 375×2000 and insets (top 10, left 5, bottom 20,
    /// right 15): x in [-5, max(-5, 375 + 15 - 375)] = [-5, 15],
    /// y in [-10, 2000 + 20 - 300] = [-10, 1720].
    func makeScroller() -> Fixture<LayerHandle> {
        var store = LayerStore()
        let scroller = store.addViewWithFrame(Rect(x: 0, y: 400, width: 375, height: 300))
        store.setScrollView(
            ScrollViewState(
                contentSize: Size(width: 375, height: 2000),
                contentInset: EdgeInsets(top: 10, left: 5, bottom: 20, right: 15)),
            of: scroller)
        return Fixture(store: store, handles: scroller)
    }

    func testRangeWithInsets() {
        let storeFixture = makeScroller()
        let scroller = storeFixture.handles
        let store = storeFixture.store
        let range = store.scrollRange(of: scroller)
        XCTAssertEqual(range?.x, -5...15)
        XCTAssertEqual(range?.y, -10...1720)
    }

    /// Content smaller than the viewport: the range collapses to -inset.
    func testSmallContentCollapsesTheRange() {
        var store = LayerStore()
        let scroller = store.addViewWithFrame(Rect(x: 0, y: 0, width: 375, height: 300))
        store.setScrollView(
            ScrollViewState(
                contentSize: Size(width: 100, height: 50),
                contentInset: EdgeInsets(top: 8, left: 4, bottom: 0, right: 0)),
            of: scroller)
        XCTAssertEqual(store.scrollRange(of: scroller)?.x, -4 ... -4)
        XCTAssertEqual(store.scrollRange(of: scroller)?.y, -8 ... -8)
        XCTAssertEqual(try store.scroll(scroller, to: Point(x: 50, y: 50)), Point(x: -4, y: -8))
    }

    /// scroll clamps into the range and sets bounds.origin; the content moves up in the
    /// world by the offset, the scroller's frame stays.
    func testScrollClampsAndMovesTheContent() throws {
        let storeFixture = makeScroller()
        let scroller = storeFixture.handles
        var store = storeFixture.store
        let content = store.addViewWithFrame(Rect(x: 0, y: 100, width: 375, height: 50), parent: scroller)
        XCTAssertEqual(try store.scroll(scroller, to: Point(x: 0, y: 5000)), Point(x: 0, y: 1720))
        XCTAssertEqual(store.contentOffset(of: scroller), Point(x: 0, y: 1720))
        XCTAssertEqual(try store.scroll(scroller, to: Point(x: -100, y: -100)), Point(x: -5, y: -10))
        XCTAssertEqual(try store.scroll(scroller, to: Point(x: 3, y: 250)), Point(x: 3, y: 250))
        XCTAssertEqual(store.bounds(of: scroller), Rect(x: 3, y: 250, width: 375, height: 300))
        XCTAssertEqual(store.frame(of: scroller), Rect(x: 0, y: 400, width: 375, height: 300))
        let world = store.referenceWorldTransforms()
        XCTAssertEqual(store.worldRect(of: content, in: world).rect, Rect(x: -3, y: 250, width: 375, height: 50))
        // contentOffset itself does not clamp (UIScrollView.contentOffset).
        store.setContentOffset(Point(x: 0, y: 99_999), of: scroller)
        XCTAssertEqual(store.contentOffset(of: scroller), Point(x: 0, y: 99_999))
    }

    /// scroll on a layer without contentSize throws and changes nothing; so does an
    /// index out of range.
    /// With zero insets the lower limit is +0, so scrolling past the top stores +0.0,
    /// not -0.0 (seed 004's scroller printed `-0.0` before).
    func testZeroInsetClampsToPositiveZero() throws {
        var store = LayerStore()
        let scroller = store.addViewWithFrame(Rect(x: 0, y: 0, width: 375, height: 300))
        store.setScrollView(ScrollViewState(contentSize: Size(width: 375, height: 2000)), of: scroller)
        let offset = try store.scroll(scroller, to: Point(x: -30, y: -50))
        XCTAssertEqual(offset.x.bitPattern, (0.0).bitPattern)
        XCTAssertEqual(offset.y.bitPattern, (0.0).bitPattern)
        XCTAssertEqual(store.bounds(of: scroller).origin.y.sign, .plus)
    }

    func testScrollOnAPlainLayerThrows() {
        var store = LayerStore()
        let plain = store.addViewWithFrame(Rect(x: 0, y: 0, width: 100, height: 100))
        store.setBounds(Rect(x: 7, y: 8, width: 100, height: 100), of: plain)
        XCTAssertNil(store.scrollRange(of: plain))
        XCTAssertThrowsError(try store.scroll(plain, to: Point(x: 50, y: 50))) { error in
            XCTAssertEqual(error as? LayerStoreError, .notAScrollView(layer: plain))
        }
        XCTAssertEqual(store.bounds(of: plain), Rect(x: 7, y: 8, width: 100, height: 100))
        XCTAssertThrowsError(try store.scroll(LayerHandle(rawValue: 5), to: .zero)) { error in
            XCTAssertEqual(error as? LayerStoreError, .staleLayer(LayerHandle(rawValue: 5)))
        }
        // Removing the scroll-view state makes it a plain layer again.
        let scrollStoreFixture = makeScroller()
        let scroller = scrollStoreFixture.handles
        var scrollStore = scrollStoreFixture.store
        scrollStore.setScrollView(nil, of: scroller)
        XCTAssertThrowsError(try scrollStore.scroll(scroller, to: .zero))
    }

    /// The range follows the bounds size (a taller scroller scrolls less).
    func testRangeFollowsTheBoundsSize() {
        let storeFixture = makeScroller()
        let scroller = storeFixture.handles
        var store = storeFixture.store
        store.setBounds(Rect(x: 0, y: 0, width: 375, height: 1000), of: scroller)
        XCTAssertEqual(store.scrollRange(of: scroller)?.y, -10...1020)
    }

    /// docs/SEMANTICS.md: a NaN target is stored as NaN (the clamp's comparisons are
    /// false); a NaN inset makes the range meaningless: nil rather than a trap.
    func testNonFiniteInputs() throws {
        let storeFixture = makeScroller()
        let scroller = storeFixture.handles
        var store = storeFixture.store
        let offset = try store.scroll(scroller, to: Point(x: .nan, y: 10))
        XCTAssertTrue(offset.x.isNaN)
        XCTAssertEqual(offset.y, 10)
        store.setScrollView(
            ScrollViewState(
                contentSize: Size(width: 100, height: 100),
                contentInset: EdgeInsets(top: .nan, left: 0, bottom: 0, right: 0)),
            of: scroller)
        XCTAssertNil(store.scrollRange(of: scroller))
    }
}
