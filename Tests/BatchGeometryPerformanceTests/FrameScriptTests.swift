import BatchGeometry
import BatchGeometryWorkloads
import XCTest

/// The `app` workload and the frame script that batchbench's `frame` kernel runs: the
/// layout is what `AppLayout` documents, and a few frames of edits later the
/// output-sensitive queries (`visibleLayers(in:into:)`, the culled `hitTest(_:rule:)`)
/// still answer what the full passes answer. No timing.
final class FrameScriptTests: XCTestCase {
    func testAppLayoutBuildsTheDocumentedTree() {
        for n in [1, 21, 30, 46, 47, 48, 3_001] {
            let workload = Workload(.app, layerCount: n)
            let layout = AppLayout(layerCount: n)
            let parents = workload.parents()
            XCTAssertEqual(parents.count, n)
            for (layer, parent) in parents.enumerated() {
                XCTAssertEqual(parent == nil, layer == 0, "n \(n): only the window is a root")
                if let parent { XCTAssertLessThan(parent, layer, "n \(n): superlayers come first") }
            }
            let listed = (0..<AppLayout.listCount).map(layout.cardsInList).reduce(0, +)
            XCTAssertEqual(listed, layout.cardCount, "n \(n): every card is in one list")
            for card in 0..<layout.cardCount {
                let (list, position) = layout.place(ofCard: card)
                XCTAssertEqual(layout.firstCard(ofList: list) + position, card, "n \(n) card \(card)")
                XCTAssertLessThan(position, layout.cardsInList(list))
            }
            XCTAssertEqual(workload.makeStore().layerCount, n)
        }
        let store = Workload(.app, layerCount: 3_001).makeStore()
        let list = store.layer(AppLayout.list(7))
        XCTAssertTrue(store.masksToBounds(list))
        XCTAssertNotNil(store.scrollView(of: list))
        XCTAssertEqual(store.frame(of: list), Rect(x: 672, y: 0, width: 96, height: 1080))
        XCTAssertEqual(store.sublayerTransform(of: store.layer(AppLayout.strip)).m34, -1.0 / 500)
        XCTAssertEqual(store.sublayers(of: store.layer(AppLayout.window)).count, AppLayout.listCount + 1)
    }

    /// Eight frames of the script on two copies: one queried the old way (updateWorld,
    /// world rects, clip rects, visibility, drawOrder, the snapshot hit test), one the
    /// output-sensitive way; they must agree on every visible layer and every touch.
    func testFrameQueriesMatchTheFullPassesOnTheAppWorkload() {
        let workload = Workload(.app, layerCount: 3_001)
        let script = FrameScript(workload)
        var old = workload.makeStore()
        var new = old.copy()
        var visible = VisibleLayers()
        var hitRoles: Set<String> = []
        for frame in 1...8 {
            let changed = script.apply(frame: frame, to: &new)
            XCTAssertEqual(script.apply(frame: frame, to: &old), changed)
            XCTAssertTrue((150..<450).contains(changed), "frame \(frame) changed \(changed) layers")
            new.visibleLayers(in: script.viewport, into: &visible)
            XCTAssertGreaterThan(visible.count, 300, "frame \(frame): most of the window shows something")
            let touches = script.touches(frame: frame)
            XCTAssertEqual(touches.count, FrameScript.touchCount)
            let hits = touches.map { new.hitTest($0, rule: .layer) }
            let world = old.updateWorld()
            assertSameFrame(old, world, visible, viewport: script.viewport, "frame \(frame)")
            XCTAssertEqual(hits, old.hitTest(points: touches, in: world, rule: .layer), "frame \(frame)")
            let layout = AppLayout(layerCount: workload.layerCount)
            for hit in hits.compactMap({ $0 }) { hitRoles.insert(role(layout.role(of: hit.index))) }
        }
        // The touches reach the cards' parts and the flipping strip cards.
        XCTAssertTrue(hitRoles.isSuperset(of: ["stripCard", "card"]), "hit: \(hitRoles.sorted())")
    }

    /// The script's generic edits (other shapes): the same agreement, on the standard tree.
    func testFrameQueriesMatchTheFullPassesOnTheStandardWorkload() {
        let workload = Workload(.standard, layerCount: 600)
        let script = FrameScript(workload)
        var old = workload.makeStore()
        var new = old.copy()
        var visible = VisibleLayers()
        for frame in 1...3 {
            XCTAssertEqual(script.apply(frame: frame, to: &new), FrameScript.genericEditCount)
            script.apply(frame: frame, to: &old)
            new.visibleLayers(in: script.viewport, into: &visible)
            let world = old.updateWorld()
            assertSameFrame(old, world, visible, viewport: script.viewport, "frame \(frame)")
            let touches = script.touches(frame: frame)
            XCTAssertEqual(
                touches.map { new.hitTest($0, rule: .layer) }, old.hitTest(points: touches, in: world, rule: .layer))
        }
    }

    /// The visible list is the drawing order filtered by visibility, with the full
    /// passes' world transforms (bit for bit), world rects and clip rects.
    private func assertSameFrame(
        _ store: borrowing LayerStore, _ world: WorldTransforms, _ visible: VisibleLayers, viewport: Rect,
        _ label: String,
        file: StaticString = #filePath, line: UInt = #line
    ) {
        let rects = store.worldRects(in: world)
        let clips = store.clipRects(worldRects: rects)
        let shown = store.visibility(worldRects: rects, clipRects: clips, viewport: viewport)
        let expected = store.drawOrder().filter { shown[$0.index] }
        XCTAssertEqual(visible.layers, expected, label, file: file, line: line)
        guard visible.layers == expected else { return }
        for (k, layer) in expected.enumerated() {
            XCTAssertEqual(
                visible.worldTransforms[k].rowMajor.map(\.bitPattern), world[layer].rowMajor.map(\.bitPattern),
                "\(label): world transform of \(layer)", file: file, line: line)
            XCTAssertEqual(visible.worldRects[k], rects[layer.index], "\(label): \(layer)", file: file, line: line)
            XCTAssertEqual(visible.clipRects[k], clips[layer.index], "\(label): \(layer)", file: file, line: line)
        }
    }

    private func role(_ role: AppLayout.Role) -> String {
        switch role {
        case .window: return "window"
        case .list: return "list"
        case .strip: return "strip"
        case .stripCard, .stripFace: return "stripCard"
        case .card, .icon, .label, .badge: return "card"
        }
    }
}
