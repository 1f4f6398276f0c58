import XCTest

@_spi(Testing) @testable import BatchGeometry

/// `_invariantViolations()` finds what it claims to: each corruption below, made by hand
/// behind the API's back, is reported (so the random-edit tests and the fuzzers that call
/// it after every step would notice a setter that forgets to record a change).
final class InvariantTests: XCTestCase {
    private func makeStore() -> LayerStore {
        var store = LayerStore()
        let root = try! store.addLayer()
        store.setFrame(Rect(0, 0, 375, 812), of: root)
        for k in 0..<80 {
            let card = try! store.addLayer(superlayer: root)
            store.setFrame(Rect(0, Double(k) * 50, 375, 44), of: card)
            store.setZPosition(Double(k % 3), of: card)
        }
        try! store.destroyLayer(store.handle(at: 5)!)
        var visible = VisibleLayers()
        store.visibleLayers(in: Rect(0, 0, 375, 812), into: &visible)
        _ = store.updateWorld()
        return store
    }

    func testAConsistentStoreHasNoViolations() {
        XCTAssertEqual(makeStore()._invariantViolations(), [])
    }

    func testEachCorruptionIsReported() {
        let corruptions: [(String, (inout LayerStore) -> Void)] = [
            ("zOrderInversions", { $0.hierarchy.zOrderInversions += 1 }),
            ("detachedLayerCount", { $0.columns.detachedLayerCount -= 1 }),
            ("autoresizingLayerCount", { $0.columns.autoresizingLayerCount = 3 }),
            ("previous link", { $0.hierarchy.previousSiblings[7] = -1 }),
            ("generation", { $0.hierarchy.generations[9] += 1 }),
            ("world cache", { $0.columns.positionX[10] += 1 }),  // moved without recording the change
            ("subtree bounds", { $0.caches.subtreeBounds.extent[12].maxX += 100 }),
            ("drawing order", { $0.columns.zValues.setZPosition(99, at: 20) }),  // re-ranked without marking its list
            ("parentsPrecedeChildren", { $0.hierarchy.parentsPrecedeChildrenCache = false }),
            ("view-rule flag", { $0.columns.attributes.opacities[30] = 0 }),  // transparent without its flag
            ("attribute column", { $0.columns.attributes.interactionEnabled.removeLast() }),
        ]
        for (name, corrupt) in corruptions {
            var store = makeStore()
            corrupt(&store)
            let violations = store._invariantViolations()
            XCTAssertFalse(violations.isEmpty, "\(name) went unnoticed")
        }
    }
}
