import XCTest

@testable import BatchGeometry

/// `removeFromSuperlayer(_:)`: the layer and its subtree stay in the store, out of the
/// drawn tree (not drawn, not hit, no world rect, not visible), until attached again.
final class DetachTests: XCTestCase {
    /// window(0) holds card(1), which holds badge(2); other(3) is a second card.
    private func makeStore() -> LayerStore {
        var store = LayerStore()
        let window = store.addViewWithFrame(Rect(x: 0, y: 0, width: 300, height: 300))
        let card = store.addViewWithFrame(Rect(x: 10, y: 10, width: 100, height: 100), parent: window)
        store.addViewWithFrame(Rect(x: 5, y: 5, width: 20, height: 20), parent: card)
        store.addViewWithFrame(Rect(x: 150, y: 150, width: 100, height: 100), parent: window)
        return store
    }

    func testDetachedSubtreeLeavesEveryQuery() throws {
        var store = makeStore()
        try store.removeFromSuperlayer(1)
        XCTAssertNil(store.superlayer(of: 1))
        XCTAssertEqual(store.sublayers(of: 0), [3])
        XCTAssertEqual(store.rootIndices, [0])
        XCTAssertTrue(store.isDetached(1) && store.isDetached(2))
        XCTAssertFalse(store.isDetached(0) || store.isDetached(3))
        XCTAssertEqual(store.drawOrderIndices(), [0, 3])
        let world = store.updateWorld()
        XCTAssertEqual(store.hitTestIndex(Point(x: 20, y: 20), in: world), 0, "the card is not hit: the window is")
        XCTAssertEqual(store.hitTestIndex(Point(x: 20, y: 20), in: world, rule: .view), 0)
        for backend in Backend.allCases {
            let options = KernelOptions(backend: backend, threads: 2)
            let rects = store.worldRects(in: world, options: options)
            XCTAssertTrue(rects[1].isNull && rects[2].isNull, "\(backend)")
            XCTAssertEqual(rects[3].rect, Rect(x: 150, y: 150, width: 100, height: 100))
            let clips = store.clipRects(worldRects: rects, options: options)
            XCTAssertEqual(
                store.visibility(worldRects: rects, clipRects: clips, viewport: nil, options: options),
                [true, false, false, true], "\(backend)")
            XCTAssertEqual(
                store.hitTestIndices(
                    points: Array(repeating: Point(x: 20, y: 20), count: 5), in: world, options: options),
                Array(repeating: 0, count: 5))
        }
        XCTAssertTrue(store.worldRect(of: 2, in: world).isNull)
        // Properties stay readable and settable; detaching twice changes nothing.
        XCTAssertEqual(store.frame(of: 1), Rect(x: 10, y: 10, width: 100, height: 100))
        store.setPosition(Point(x: 100, y: 100), of: 1)
        let version = store.hierarchy.structureVersion
        try store.removeFromSuperlayer(1)
        XCTAssertEqual(store.hierarchy.structureVersion, version)
    }

    func testAttachingAgainRestoresIt() throws {
        var store = makeStore()
        try store.removeFromSuperlayer(1)
        try store.insertSublayer(1, into: 0, at: 1)
        XCTAssertEqual(store.sublayers(of: 0), [3, 1])
        XCTAssertFalse(store.isDetached(2))
        XCTAssertEqual(store.drawOrderIndices(), [0, 3, 1, 2])
        let world = store.updateWorld()
        XCTAssertEqual(store.hitTestIndex(Point(x: 20, y: 20), in: world), 2)
        XCTAssertEqual(store.worldRect(of: 2, in: world).rect, Rect(x: 15, y: 15, width: 20, height: 20))
        // A detached root, attached as a root again.
        try store.removeFromSuperlayer(0)
        XCTAssertEqual(store.roots, [])
        XCTAssertEqual(store.drawOrder(), [])
        try store.insertSublayer(0, into: nil)
        XCTAssertEqual(store.rootIndices, [0])
        XCTAssertThrowsError(try store.removeFromSuperlayer(LayerHandle(rawValue: 9))) {
            XCTAssertEqual($0 as? LayerStoreError, .staleLayer(LayerHandle(rawValue: 9)))
        }
    }

    /// Random inserts, moves, detaches, re-attaches and destroys against a model kept
    /// by slot: roots, superlayers, detachment, drawing order, which world rects are null,
    /// and which slots are live (destroyed slots are reused by later adds).
    func testRandomEditsAgainstAModel() throws {
        var random = SplitMix64(seed: 31)
        var store = LayerStore()
        var parents: [Int?] = []
        var detached: [Bool] = []
        var alive: [Bool] = []
        func topmost(_ layer: Int) -> Int {
            var l = layer
            while let p = parents[l] { l = p }
            return l
        }
        func randomLive() -> Int? {
            let live = alive.indices.filter { alive[$0] }
            return live.isEmpty ? nil : live[random.below(live.count)]
        }
        for step in 0..<400 {
            switch random.below(5) {
            case 0, 1:
                let superlayer = random.chance(20) ? nil : randomLive()
                let slot = try store.addLayer(superlayer: superlayer)
                store.setBounds(Rect(x: 0, y: 0, width: 10, height: 10), of: slot)
                if slot == parents.count {
                    parents.append(superlayer)
                    detached.append(false)
                    alive.append(true)
                } else {
                    XCTAssertFalse(alive[slot], "step \(step): a live slot was handed out again")
                    (parents[slot], detached[slot], alive[slot]) = (superlayer, false, true)
                }
            case 2:
                guard let layer = randomLive() else { break }
                try store.removeFromSuperlayer(layer)
                if !detached[layer] {
                    parents[layer] = nil
                    detached[layer] = true
                }
            case 3:
                guard let layer = randomLive(), let target = randomLive() else { break }
                var ancestor: Int? = target
                var cycle = false
                while let a = ancestor {
                    if a == layer { cycle = true }
                    ancestor = parents[a]
                }
                if cycle {
                    XCTAssertThrowsError(try store.insertSublayer(layer, into: target))
                    break
                }
                try store.insertSublayer(layer, into: target)
                parents[layer] = target
                detached[layer] = false
            case 4 where random.chance(25):
                guard let layer = randomLive() else { break }
                var doomed = Set([layer])
                var changed = true
                while changed {
                    changed = false
                    for l in parents.indices where alive[l] && !doomed.contains(l) {
                        if let p = parents[l], doomed.contains(p) {
                            doomed.insert(l)
                            changed = true
                        }
                    }
                }
                let live = (0..<store.count).filter { store.isLiveSlot($0) }
                XCTAssertEqual(try store.destroyLayer(layer), doomed.count, "step \(step)")
                XCTAssertEqual(Set(live.filter { !store.isLiveSlot($0) }), doomed, "step \(step)")
                for l in doomed { (parents[l], detached[l], alive[l]) = (nil, true, false) }
            default: break
            }
            XCTAssertEqual(store.count, parents.count, "step \(step)")
            XCTAssertEqual(store.layerCount, alive.filter { $0 }.count, "step \(step)")
            for layer in 0..<store.count where alive[layer] {
                XCTAssertEqual(store.superlayer(of: layer), parents[layer], "step \(step) layer \(layer)")
                XCTAssertEqual(store.isDetached(layer), detached[topmost(layer)], "step \(step) layer \(layer)")
            }
            let drawn = (0..<store.count).filter { alive[$0] && !detached[topmost($0)] }
            XCTAssertEqual(Set(store.drawOrderIndices()), Set(drawn), "step \(step)")
            let rects = store.worldRects(in: store.worldTransforms(), options: .serial(.c))
            XCTAssertEqual(rects.map(\.isNull), (0..<store.count).map { !drawn.contains($0) }, "step \(step)")
        }
    }
}
