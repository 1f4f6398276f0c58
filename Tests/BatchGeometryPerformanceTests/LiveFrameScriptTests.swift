@_spi(Testing) import BatchGeometry
import BatchGeometryWorkloads
import XCTest

/// The live frame script that batchbench's `frame-live` and `frame-relayout` kernels run
/// (issue 22): frames that insert and destroy cards, change a zPosition and detach and
/// re-attach a list keep the output-sensitive answers equal to the full passes', and
/// every store invariant holds after every frame. No timing.
final class LiveFrameScriptTests: XCTestCase {
    /// 5,500 layers: about 68 cards a list, past the 64 sublayers at which a list gets a
    /// spatial index, so inserts and removals rebuild indexes as at full size.
    static let layerCount = 5_500

    func testLiveFramesMatchTheFullPasses() {
        // 95 frames: a list detached at frame 60 and re-attached at 90.
        assertLiveFramesMatch(relayout: false, frames: 95)
    }

    /// 20 frames (were 40: 12 s of a debug run): each moves the cards below an insert
    /// and a removal, and is checked.
    func testRelayoutFramesMatchTheFullPasses() {
        assertLiveFramesMatch(relayout: true, frames: 20)
    }

    /// The soak's script: inserted cards have the built cards' 4 layers, so the layer
    /// count stays where it was built (within the one short last card a removal may take).
    /// 30 frames (it was 65, 20 s of a debug run): 30 inserts of 6 layers would be 60
    /// layers more; the panel detached at frame 60 is the live script's own edit, which
    /// `testLiveFramesMatchTheFullPasses` plays through.
    func testSettledFramesMatchTheFullPassesAndKeepTheLayerCount() {
        assertLiveFramesMatch(relayout: false, settled: true, frames: 30)
    }

    /// Two stores given the same live frames: one queried the output-sensitive way, one
    /// by the full passes; after each frame they agree, and the queried store (whose
    /// caches the frames' edits keep up to date) breaks no invariant.
    private func assertLiveFramesMatch(
        relayout: Bool, settled: Bool = false, frames: Int, file: StaticString = #filePath, line: UInt = #line
    ) {
        let workload = Workload(.app, layerCount: Self.layerCount)
        var old = workload.makeStore()
        // A copy, not a second build: the two are compared handle for handle, and a store
        // takes only its own handles and its copies' (LayerHandle's store tag).
        var new = old.copy()
        var oldScript = LiveFrameScript(workload, relayout: relayout, settled: settled, store: old)
        var newScript = LiveFrameScript(workload, relayout: relayout, settled: settled, store: new)
        new.warmUp()
        var visible = VisibleLayers()
        var sawDetached = false
        for frame in 1...frames {
            let label = "\(relayout ? "relayout" : "live") frame \(frame)"
            let changed = newScript.apply(frame: frame, to: &new)
            XCTAssertEqual(oldScript.apply(frame: frame, to: &old), changed, label, file: file, line: line)
            XCTAssertEqual(newScript.lists, oldScript.lists, "\(label): the scripts diverged", file: file, line: line)
            new.visibleLayers(in: newScript.viewport, into: &visible)
            let touches = newScript.touches(frame: frame)
            let hits = touches.map { new.hitTest($0, rule: .layer) }
            let world = old.updateWorld()
            let same = assertSameFrame(old, world, visible, viewport: newScript.viewport, label, file: file, line: line)
            XCTAssertEqual(
                hits, old.hitTest(points: touches, in: world, rule: .layer), label, file: file, line: line)
            XCTAssertEqual(new._invariantViolations(), [], label, file: file, line: line)
            if let j = newScript.detachedList {
                sawDetached = true
                XCTAssertTrue(new.isDetached(new.layer(AppLayout.list(j))), label, file: file, line: line)
            }
            guard same else { return }  // stop at the first frame that differs
        }
        XCTAssertEqual(sawDetached, frames >= LiveFrameScript.detachPeriod, file: file, line: line)
        if settled {
            XCTAssertLessThan(
                abs(new.layerCount - workload.layerCount), AppLayout.layersPerCard, "inserts and removals 4 layers",
                file: file, line: line)
        } else {
            XCTAssertGreaterThan(
                new.layerCount, workload.layerCount, "inserts add 6 layers, removals 4 or 6", file: file, line: line)
        }
        XCTAssertEqual(new.count, old.count, "both stores reused the same free slots", file: file, line: line)
    }

    /// The script's card lists are the lists' sublayers, and with relayout every card
    /// sits at its position's place.
    func testTheScriptKeepsTheListsAsTheStoreHoldsThem() {
        let workload = Workload(.app, layerCount: 2_000)
        for relayout in [false, true] {
            var store = workload.makeStore()
            var script = LiveFrameScript(workload, relayout: relayout, store: store)
            for frame in 1...40 { script.apply(frame: frame, to: &store) }
            for j in 0..<AppLayout.listCount {
                let sublayers = store.sublayers(of: store.layer(AppLayout.list(j)))
                XCTAssertEqual(sublayers, script.lists[j].map(\.layer), "relayout \(relayout), list \(j)")
                guard relayout else { continue }
                for (position, card) in script.lists[j].enumerated() {
                    XCTAssertEqual(
                        store.frame(of: card.layer).y, AppLayout.cardTop + AppLayout.cardPitch * Double(position),
                        "list \(j) position \(position)")
                }
            }
        }
    }

    /// The script's own bookkeeping does not grow with the frames played (the soak's
    /// resident memory measures the store): a destroyed card's entry in its table is
    /// taken by the next insert, and the entries the lists name are distinct.
    func testTheScriptReusesItsCardEntries() {
        let workload = Workload(.app, layerCount: 2_000)
        var store = workload.makeStore()
        var script = LiveFrameScript(workload, relayout: false, store: store)
        let built = script.cardTableCount
        XCTAssertEqual(built, script.lists.reduce(0) { $0 + $1.count }, "one entry a built card")
        for frame in 1...70 {
            script.apply(frame: frame, to: &store)
            let live = script.lists.reduce(0) { $0 + $1.count }
            XCTAssertLessThanOrEqual(script.cardTableCount, live + 1, "frame \(frame): entries reused")
        }
        let layers = script.lists.flatMap { $0.map(\.layer) }
        XCTAssertEqual(Set(layers).count, layers.count, "no entry named twice")
    }

    /// The visible list is the drawing order filtered by visibility, with the full
    /// passes' world transforms (bit for bit), world rects and clip rects. False when the
    /// lists differ.
    @discardableResult
    private func assertSameFrame(
        _ store: borrowing LayerStore, _ world: WorldTransforms, _ visible: VisibleLayers, viewport: Rect,
        _ label: String, file: StaticString, line: UInt
    ) -> Bool {
        let rects = store.worldRects(in: world)
        let clips = store.clipRects(worldRects: rects)
        let shown = store.visibility(worldRects: rects, clipRects: clips, viewport: viewport)
        let expected = store.drawOrder().filter { shown[$0.index] }
        XCTAssertEqual(visible.layers, expected, label, file: file, line: line)
        guard visible.layers == expected else { return false }
        for (k, layer) in expected.enumerated() {
            XCTAssertEqual(
                visible.worldTransforms[k].rowMajor.map(\.bitPattern), world[layer].rowMajor.map(\.bitPattern),
                "\(label): world transform of \(layer)", file: file, line: line)
            XCTAssertEqual(visible.worldRects[k], rects[layer.index], "\(label): \(layer)", file: file, line: line)
            XCTAssertEqual(visible.clipRects[k], clips[layer.index], "\(label): \(layer)", file: file, line: line)
        }
        return true
    }
}
