import XCTest

@_spi(Testing) @testable import BatchGeometry

/// The culled-sample suites' common frame: one model, a presentation store fed by the
/// full sample and one fed by the culled sample, stepped together and compared (the
/// frame query in the region bit for bit, `finished`, the live count).
struct CulledSampleTwins: ~Copyable {
    var model: LayerStore
    var full: LayerStore
    var culled: LayerStore
    private var values = (PresentationValues(), PresentationValues())
    private var previous = (PresentationValues(), PresentationValues())
    private var visible = (VisibleLayers(), VisibleLayers())

    init(_ model: borrowing LayerStore) {
        self.model = model.copy()
        full = model.copy()
        culled = model.copy()
    }

    /// Samples `stores.0` fully and `stores.1` culled to `region` at `time` (seconds),
    /// brings both presentation stores to their values and asserts that they agree.
    mutating func sample(
        _ stores: inout (AnimationStore, AnimationStore), at time: Double, region: Rect, _ context: String
    ) throws {
        swap(&previous.0, &values.0)
        swap(&previous.1, &values.1)
        try stores.0.sample(at: time, model: model, into: &values.0)
        try stores.1.sample(at: time, model: model, into: &values.1, culledTo: region)
        full.updatePresentation(from: previous.0, to: values.0, model: model)
        culled.updatePresentation(from: previous.1, to: values.1, model: model)
        XCTAssertEqual(stores.0.finished, stores.1.finished, "\(context): finished")
        XCTAssertEqual(stores.0.liveCount, stores.1.liveCount, "\(context): live")
        full.visibleLayers(in: region, into: &visible.0)
        culled.visibleLayers(in: region, into: &visible.1)
        Self.assertSame(visible.0, visible.1, context)
    }

    static func assertSame(_ a: VisibleLayers, _ b: VisibleLayers, _ context: String) {
        XCTAssertEqual(a.layers, b.layers, "\(context): visible layers")
        guard a.layers == b.layers else { return }
        XCTAssertEqual(a.worldTransforms, b.worldTransforms, "\(context): world transforms")
        XCTAssertEqual(a.worldRects, b.worldRects, "\(context): world rects")
        XCTAssertEqual(a.clipRects, b.clipRects, "\(context): clip rects")
        XCTAssertEqual(a.worldOpacities, b.worldOpacities, "\(context): world opacities")
    }
}
