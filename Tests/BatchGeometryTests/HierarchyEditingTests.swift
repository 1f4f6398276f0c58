import XCTest

@_spi(Testing) @testable import BatchGeometry

/// An independent model of the hierarchy, keyed by the handles the store hands out: a
/// superlayer and an ordered sublayer list per live layer, the store's root list (roots
/// and detached layers, in order) and a detached flag, edited the obvious way with
/// arrays. It does not predict which slot a new layer takes; it checks that a handle
/// stays valid until its layer is destroyed, and that a destroyed layer's handle is never
/// valid again.
private struct HierarchyModel {
    var superlayers: [LayerHandle: LayerHandle?] = [:]
    var sublayers: [LayerHandle: [LayerHandle]] = [:]
    /// Structural roots in store order: the attached roots and the detached layers.
    var rootList: [LayerHandle] = []
    var detached: Set<LayerHandle> = []
    var tags: [LayerHandle: Double] = [:]
    var destroyed: [LayerHandle] = []

    var live: [LayerHandle] { superlayers.keys.sorted { $0.rawValue < $1.rawValue } }
    var roots: [LayerHandle] { rootList.filter { !detached.contains($0) } }

    func isInSubtree(_ candidate: LayerHandle, of top: LayerHandle) -> Bool {
        var current: LayerHandle? = candidate
        while let layer = current {
            if layer == top { return true }
            current = superlayers[layer]!
        }
        return false
    }

    func siblings(under superlayer: LayerHandle?) -> [LayerHandle] { superlayer.map { sublayers[$0]! } ?? rootList }

    mutating func setSiblings(_ list: [LayerHandle], under superlayer: LayerHandle?) {
        if let superlayer { sublayers[superlayer] = list } else { rootList = list }
    }

    /// What `addLayer(superlayer:)` must throw, if anything.
    func addError(superlayer: LayerHandle?) -> LayerStoreError? {
        if let superlayer, superlayers[superlayer] == nil { return .staleSuperlayer(superlayer) }
        return nil
    }

    /// What `addLayer(superlayer:at:)` must throw, if anything.
    func addError(superlayer: LayerHandle?, at index: Int) -> LayerStoreError? {
        if let error = addError(superlayer: superlayer) { return error }
        let counted = superlayer.map { sublayers[$0]! } ?? roots
        if index < 0 || index > counted.count {
            return .sublayerIndexOutOfRange(index: index, sublayerCount: counted.count)
        }
        return nil
    }

    /// A new layer as sublayer `index`: added last, then moved there (the list did not
    /// hold it, so `index` counts the same siblings).
    mutating func add(_ layer: LayerHandle, superlayer: LayerHandle?, at index: Int, tag: Double) {
        add(layer, superlayer: superlayer, tag: tag)
        XCTAssertNil(insertSublayer(layer, into: superlayer, at: index))
    }

    mutating func add(_ layer: LayerHandle, superlayer: LayerHandle?, tag: Double) {
        superlayers[layer] = superlayer
        sublayers[layer] = []
        tags[layer] = tag
        setSiblings(siblings(under: superlayer) + [layer], under: superlayer)
    }

    private mutating func unlink(_ layer: LayerHandle) {
        let old = superlayers[layer]!
        setSiblings(siblings(under: old).filter { $0 != layer }, under: old)
    }

    mutating func insertSublayer(_ layer: LayerHandle, into superlayer: LayerHandle?, at index: Int?)
        -> LayerStoreError?
    {
        guard superlayers[layer] != nil else { return .staleLayer(layer) }
        if let superlayer {
            guard superlayers[superlayer] != nil else { return .staleSuperlayer(superlayer) }
            if isInSubtree(superlayer, of: layer) { return .cycle(layer: layer, superlayer: superlayer) }
        }
        // Among the roots, `index` counts the attached ones (what `roots` lists); the
        // layer goes before the index-th of them, or last in the store's root list.
        let counted = (superlayer.map { sublayers[$0]! } ?? roots).filter { $0 != layer }
        if let index, index < 0 || index > counted.count {
            return .sublayerIndexOutOfRange(index: index, sublayerCount: counted.count)
        }
        unlink(layer)
        var target = siblings(under: superlayer)
        if let index, index < counted.count {
            target.insert(layer, at: target.firstIndex(of: counted[index])!)
        } else {
            target.append(layer)
        }
        setSiblings(target, under: superlayer)
        superlayers[layer] = superlayer
        detached.remove(layer)
        return nil
    }

    mutating func removeFromSuperlayer(_ layer: LayerHandle) -> LayerStoreError? {
        guard superlayers[layer] != nil else { return .staleLayer(layer) }
        if detached.contains(layer) { return nil }
        unlink(layer)
        rootList.append(layer)
        superlayers[layer] = .some(nil)
        detached.insert(layer)
        return nil
    }

    /// Destroys the subtree; returns how many layers went, or the error.
    mutating func destroy(_ layer: LayerHandle) -> Result<Int, LayerStoreError> {
        guard superlayers[layer] != nil else { return .failure(.staleLayer(layer)) }
        let doomed = live.filter { isInSubtree($0, of: layer) }
        unlink(layer)
        for gone in doomed {
            superlayers[gone] = nil
            sublayers[gone] = nil
            tags[gone] = nil
            detached.remove(gone)
            destroyed.append(gone)
        }
        return .success(doomed.count)
    }

    func preorder() -> [LayerHandle] {
        var order: [LayerHandle] = []
        var stack = Array(rootList.reversed())
        while let layer = stack.popLast() {
            order.append(layer)
            stack.append(contentsOf: sublayers[layer]!.reversed())
        }
        return order
    }
}

/// Structural edits checked against `HierarchyModel`, one step at a time.
final class HierarchyEditingTests: XCTestCase {
    private func assertMatches(
        _ store: borrowing LayerStore, _ model: HierarchyModel, step: Int,
        file: StaticString = #filePath, line: UInt = #line
    ) {
        let live = model.live
        XCTAssertEqual(store.layerCount, live.count, "layerCount after step \(step)", file: file, line: line)
        XCTAssertEqual(store.roots, model.roots, "roots after step \(step)", file: file, line: line)
        for layer in live {
            XCTAssertTrue(store.contains(layer), "\(layer) lost at step \(step)", file: file, line: line)
            guard store.contains(layer) else { return }
            XCTAssertEqual(
                store.position(of: layer).x, model.tags[layer], "\(layer)'s identity", file: file, line: line)
            XCTAssertEqual(
                store.superlayer(of: layer), model.superlayers[layer]!, "superlayer of \(layer)", file: file, line: line
            )
            XCTAssertEqual(
                store.sublayers(of: layer), model.sublayers[layer], "sublayers of \(layer)", file: file, line: line)
            var top = layer
            while let up = model.superlayers[top]! { top = up }
            XCTAssertEqual(
                store.isDetached(layer), model.detached.contains(top), "\(layer) detached", file: file, line: line)
        }
        for layer in model.destroyed {
            XCTAssertFalse(
                store.contains(layer), "destroyed \(layer) valid again at step \(step)", file: file, line: line)
        }
        XCTAssertEqual(store.preorder(), model.preorder(), "preorder after step \(step)", file: file, line: line)
        XCTAssertEqual(Set(store.drawOrder()).isSubset(of: Set(live)), true, "drawOrder names live layers only")
    }

    func testRandomEditsAgreeWithTheModel() throws {
        var generator = SplitMix64(seed: 0x5EED_0005)
        for round in 0..<12 {
            var store = LayerStore()
            var model = HierarchyModel()
            var nextTag = 1.0
            for step in 0..<250 {
                let live = model.live
                // Destroyed handles and handles never issued exercise the error paths too.
                func anyLayer() -> LayerHandle {
                    switch Int.random(in: 0..<10, using: &generator) {
                    case 0 where !model.destroyed.isEmpty: return model.destroyed.randomElement(using: &generator)!
                    case 1: return LayerHandle(rawValue: UInt64(Int.random(in: 0...400, using: &generator)))
                    default:
                        return live.randomElement(using: &generator) ?? LayerHandle(rawValue: 7)
                    }
                }
                func maybeSuperlayer() -> LayerHandle? {
                    Int.random(in: 0..<5, using: &generator) == 0 ? nil : anyLayer()
                }
                let before = StoreSnapshot(store)
                var failed = false
                let context = "round \(round) step \(step)"
                switch Int.random(in: 0..<12, using: &generator) {
                case 0..<3:
                    let superlayer = maybeSuperlayer()
                    let index = Int.random(in: -1...5, using: &generator)
                    let expected = model.addError(superlayer: superlayer, at: index)
                    do {
                        let layer = try store.addLayer(superlayer: superlayer, at: index)
                        store.setPosition(Point(nextTag, 0), of: layer)
                        XCTAssertNil(expected, "\(context): store accepted what the model refused")
                        XCTAssertFalse(model.destroyed.contains(layer), "\(context): a destroyed handle came back")
                        model.add(layer, superlayer: superlayer, at: index, tag: nextTag)
                    } catch {
                        XCTAssertEqual(error, expected, context)
                        failed = true
                    }
                    nextTag += 1
                case 3..<5:
                    let superlayer = maybeSuperlayer()
                    let expected = model.addError(superlayer: superlayer)
                    do {
                        let layer = try store.addLayer(superlayer: superlayer)
                        store.setPosition(Point(nextTag, 0), of: layer)
                        XCTAssertNil(expected, "\(context): store accepted what the model refused")
                        XCTAssertFalse(model.destroyed.contains(layer), "\(context): a destroyed handle came back")
                        XCTAssertNil(model.superlayers[layer] ?? nil, "\(context): a live handle was issued twice")
                        model.add(layer, superlayer: superlayer, tag: nextTag)
                    } catch {
                        XCTAssertEqual(error, expected, context)
                        failed = true
                    }
                    nextTag += 1
                case 5..<8:
                    let layer = anyLayer()
                    let superlayer = maybeSuperlayer()
                    let index: Int? = Bool.random(using: &generator) ? nil : Int.random(in: -1...4, using: &generator)
                    let expected = model.insertSublayer(layer, into: superlayer, at: index)
                    do {
                        try store.insertSublayer(layer, into: superlayer, at: index)
                        XCTAssertNil(expected, "\(context): store accepted what the model refused")
                    } catch {
                        XCTAssertEqual(error, expected, context)
                        failed = true
                    }
                case 8..<10:
                    let layer = anyLayer()
                    let expected = model.removeFromSuperlayer(layer)
                    do {
                        try store.removeFromSuperlayer(layer)
                        XCTAssertNil(expected, "\(context): store accepted what the model refused")
                    } catch {
                        XCTAssertEqual(error, expected, context)
                        failed = true
                    }
                default:
                    let layer = anyLayer()
                    let expected = model.destroy(layer)
                    do {
                        let count = try store.destroyLayer(layer)
                        XCTAssertEqual(.success(count), expected, context)
                    } catch {
                        XCTAssertEqual(.failure(error), expected, context)
                        failed = true
                    }
                }
                if failed { XCTAssertEqual(StoreSnapshot(store), before, "failed step \(step) changed the store") }
                assertMatches(store, model, step: step)
                XCTAssertEqual(store._invariantViolations(), [], context)
                // The cached world transforms must follow the structure (a different path
                // from the reference walk, which recomputes from scratch), and every
                // answer must be the one a store built fresh with the same tree gives.
                if step % 25 == 0 { assertWorldIsCurrent(&store, step: step) }
                if step % 10 == 0 { assertMatchesFreshStore(&store, model, context) }
            }
        }
    }

    /// Builds the model's tree in a new store (pre-order, so no slot is reused and no
    /// generation bumped), with each layer's tag as its position and a 10×10 size, and
    /// checks that the edited store answers every query the same way, layer by layer.
    private func assertMatchesFreshStore(_ store: inout LayerStore, _ model: HierarchyModel, _ context: String) {
        var fresh = LayerStore()
        var freshHandle: [LayerHandle: LayerHandle] = [:]
        for layer in model.preorder() {
            let superlayer = model.superlayers[layer]!.map { freshHandle[$0]! }
            let copy = try! fresh.addLayer(superlayer: superlayer)
            if model.detached.contains(layer) { try! fresh.removeFromSuperlayer(copy) }
            freshHandle[layer] = copy
        }
        for layer in model.live {
            store.setBounds(Rect(0, 0, 10, 10), of: layer)
            fresh.setBounds(Rect(0, 0, 10, 10), of: freshHandle[layer]!)
            fresh.setPosition(Point(model.tags[layer]!, Double(layer.index)), of: freshHandle[layer]!)
            store.setPosition(Point(model.tags[layer]!, Double(layer.index)), of: layer)
        }
        let world = store.updateWorld(options: .serial(.c))
        let freshWorld = fresh.updateWorld(options: .serial(.scalar))
        let frames = store.frames(options: .serial(.simd))
        let freshFrames = fresh.frames()
        let rects = store.worldRects(in: world)
        let freshRects = fresh.worldRects(in: freshWorld)
        for layer in model.live {
            let copy = freshHandle[layer]!
            XCTAssertEqual(world[layer], freshWorld[copy], "\(context): world of \(layer)")
            XCTAssertEqual(frames[layer], freshFrames[copy], "\(context): frame of \(layer)")
            XCTAssertEqual(rects[layer.index], freshRects[copy.index], "\(context): world rect of \(layer)")
        }
        XCTAssertEqual(store.drawOrder().map { freshHandle[$0]! }, fresh.drawOrder(), "\(context): drawOrder")
        let points: [Point] = (0..<8).map { (k: Int) -> Point in
            let x = Double(k * 7 % 40)
            let y = Double(k * 13 % 400)
            return Point(x, y)
        }
        XCTAssertEqual(
            store.hitTest(points: points, in: world).map { $0.map { freshHandle[$0]! } },
            fresh.hitTest(points: points, in: freshWorld), "\(context): hit tests")
    }

    private func assertWorldIsCurrent(_ store: inout LayerStore, step: Int) {
        let cached = store.updateWorld(options: .serial(.scalar))
        let reference = store.referenceWorldTransforms()
        XCTAssertEqual(cached.count, store.count)
        for layer in 0..<store.count where cached[layer] != reference[layer] {
            XCTFail("world of layer \(layer) stale after step \(step)")
            return
        }
        // A root's world translation is its position less the anchor's offset in its bounds
        // (bounds at the origin: zero, or 10×10 once assertMatchesFreshStore has run).
        for root in store.roots {
            let offset = store.anchorPoint(of: root).x * store.bounds(of: root).width
            XCTAssertEqual(cached[root].m41, store.position(of: root).x - offset)
        }
    }

    func testInsertAtEveryPosition() throws {
        var store = LayerStore()
        let parent = try store.addLayer()
        var sublayers: [LayerHandle] = []
        for _ in 0..<3 { sublayers.append(try store.addLayer(superlayer: parent)) }
        let mover = try store.addLayer()  // a root
        for index in 0...3 {
            try store.insertSublayer(mover, into: parent, at: index)
            var expected = sublayers
            expected.insert(mover, at: index)
            XCTAssertEqual(store.sublayers(of: parent), expected)
            XCTAssertEqual(store.roots, [parent])
        }
        try store.insertSublayer(mover, into: nil, at: 0)
        XCTAssertEqual(store.roots, [mover, parent])
        XCTAssertEqual(store.sublayers(of: parent), sublayers)
    }

    /// Destroying a subtree leaves every other layer where it was: same handle, same slot,
    /// same properties. The freed slots are reused, last freed first, under a new
    /// generation, with Core Animation's defaults.
    func testDestroyKeepsEveryOtherLayerAndReusesTheSlots() throws {
        var store = LayerStore()
        let a = try store.addLayer()
        let b = try store.addLayer(superlayer: a)
        let c = try store.addLayer(superlayer: b)
        let d = try store.addLayer()
        let e = try store.addLayer(superlayer: d)
        for layer in [a, b, c, d, e] { store.setZPosition(Double(layer.index) * 10, of: layer) }
        store.setScrollView(ScrollViewState(contentSize: Size(1, 2)), of: e)
        store.setScrollView(ScrollViewState(contentSize: Size(3, 4)), of: c)
        store.setAutoresizingMask(.all, of: c)
        XCTAssertEqual(try store.destroyLayer(b), 2)
        XCTAssertEqual(store.count, 5, "slots stay")
        XCTAssertEqual(store.layerCount, 3)
        XCTAssertEqual([a, d, e].map { store.zPosition(of: $0) }, [0, 30, 40])
        XCTAssertEqual(store.sublayers(of: a), [])
        XCTAssertEqual(store.sublayers(of: d), [e])
        XCTAssertEqual(store.roots, [a, d])
        XCTAssertEqual(store.preorder(), [a, d, e])
        XCTAssertEqual(store.scrollView(of: e), ScrollViewState(contentSize: Size(1, 2)))
        XCTAssertEqual(store.columns.autoresizingLayerCount, 0, "the destroyed mask no longer counts")
        XCTAssertFalse(store.contains(b))
        XCTAssertFalse(store.contains(c))
        // The freed slots come back in the destroyed subtree's pre-order (b's, then c's),
        // as fresh layers.
        let f = try store.addLayer(superlayer: e)
        let g = try store.addLayer()
        XCTAssertEqual([f.index, Int(f.generation), g.index, Int(g.generation)], [b.index, 2, c.index, 2])
        XCTAssertEqual(store.zPosition(of: g), 0)
        XCTAssertNil(store.scrollView(of: g))
        XCTAssertEqual(store.autoresizingMask(of: g), [])
        XCTAssertEqual(store.anchorPoint(of: f), Point(0.5, 0.5))
        XCTAssertFalse(store.contains(c), "the old handle stays stale after its slot is reused")
        XCTAssertFalse(store.contains(b))
        XCTAssertEqual(store.roots, [a, d, g])
        XCTAssertEqual(store.sublayers(of: e), [f])
        XCTAssertEqual(store.handle(at: b.index), f)
        XCTAssertEqual(store.layerCount, 5)
        // The world follows: f is e's sublayer, at e's position.
        store.setPosition(Point(7, 9), of: e)
        let world = store.updateWorld(options: .serial(.scalar))
        XCTAssertEqual(world[f].m41, store.referenceWorldTransforms()[f].m41)
    }

    /// A subtree that holds layers with smaller slots than its top (after reparenting) is
    /// destroyed whole, and no other layer moves. (The first input the kernels fuzzer
    /// flagged, when destroying renumbered layers; kept as a test of the behaviour.)
    func testDestroyingASubtreeThatHoldsSmallerSlots() throws {
        var store = LayerStore()
        var layers: [LayerHandle] = []
        for k in 0..<5 {
            let layer = try store.addLayer()
            store.setZPosition(Double(k), of: layer)
            layers.append(layer)
        }
        try store.insertSublayer(layers[1], into: layers[3])
        try store.insertSublayer(layers[0], into: layers[1])
        XCTAssertEqual(try store.destroyLayer(layers[3]), 3)
        XCTAssertEqual(store.layerCount, 2)
        XCTAssertEqual([layers[2], layers[4]].map { store.zPosition(of: $0) }, [2, 4])
        XCTAssertEqual(store.roots, [layers[2], layers[4]])
        XCTAssertTrue(store.parentsPrecedeChildren)
        let world = store.updateWorld(options: .serial(.scalar))
        XCTAssertEqual(world.count, 5)
        XCTAssertEqual(store.worldRects(in: world).filter { !$0.isNull }.count, 2, "free slots have no world rect")
    }

    func testReparentingKeepsWorldTransformsCurrent() throws {
        var store = LayerStore()
        let left = try store.addLayer()
        let right = try store.addLayer()
        store.setPosition(Point(100, 0), of: left)
        store.setPosition(Point(0, 200), of: right)
        let child = try store.addLayer(superlayer: left)
        store.setPosition(Point(5, 5), of: child)
        XCTAssertEqual(store.updateWorld(options: .serial(.scalar))[child].m41, 105)
        try store.insertSublayer(child, into: right)
        let world = store.updateWorld(options: .serial(.scalar))
        XCTAssertEqual(world[child].m41, 5)
        XCTAssertEqual(world[child].m42, 205)
        // Move the parent after its child in index order: a later layer becomes the superlayer.
        let late = try store.addLayer()
        store.setPosition(Point(1000, 0), of: late)
        try store.insertSublayer(right, into: late)
        XCTAssertFalse(store.parentsPrecedeChildren)
        XCTAssertEqual(store.updateWorld(options: .serial(.scalar))[child].m41, 1005)
    }
}
