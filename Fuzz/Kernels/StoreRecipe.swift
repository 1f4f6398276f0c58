// Fuzzer bytes → a small layer forest (a recipe), built into a LayerStore once or
// tiled many times (so that stores are large enough for the kernels to split them
// over threads, where chunk boundaries fall between layers).

import FuzzSupport

// The slot-index (Int) API, as the oracles in KernelFuzzer.swift use it.
@testable import BatchGeometry

/// One layer's settings, decoded from the input. `wild` is set when any value is
/// non-finite or huge: the oracle then compares that layer's subtree bit-for-bit only
/// where all backends promise bits (frames), and otherwise checks that nothing traps.
struct LayerRecipe {
    var parent: Int?  // an earlier layer of the same tile, or nil
    var bounds: Rect?, position: Point?, anchorPoint: Point?, frame: Rect?
    var transform: Transform3D?, sublayerTransform: Transform3D?
    var zPosition: Double?, anchorPointZ: Double?
    var flipped = false, masks = false, hidden = false, transformLayer = false
    /// Opacity (any double, stored as a float) and touch: the view rule's skips.
    var opacity: Float?, interactionDisabled = false
    var scrollView: ScrollViewState?, scrollTo: Point?
    var wild = false
}

struct StoreRecipe {
    var layers: [LayerRecipe] = []
    /// Reparenting requests `(layer, parent, index)`, applied in order after building;
    /// they may be invalid (out of range, cycles) on purpose.
    var reparents: [(Int, Int?, Int?)] = []
    var removal: Int?
    var tiles = 1

    init(_ input: inout FuzzInput) {
        let count = 1 + input.int(below: 20)
        // A byte of 0xA5 (never the zeros read past the end; libFuzzer favours 0x00/0xFF)
        // tiles the forest past 32,768 layers, where batch kernels split the work over
        // threads; such an input takes a few hundred milliseconds, the others well under one.
        tiles = input.byte() == 0xA5 ? 33_000 / count + 1 : 1
        for index in 0..<count {
            var layer = LayerRecipe()
            let parentSelector = Int(input.byte())
            layer.parent = index == 0 || parentSelector % 4 == 0 ? nil : parentSelector % index
            let mask = input.byte()
            let more = input.byte()
            var values: [Double] = []
            func value() -> Double {
                let v = input.double()
                values.append(v)
                return v
            }
            if mask & 1 != 0 { layer.bounds = Rect(value(), value(), value(), value()) }
            if mask & 2 != 0 { layer.position = Point(value(), value()) }
            if mask & 4 != 0 { layer.anchorPoint = Point(value(), value()) }
            if mask & 8 != 0 { layer.transform = Self.transform(&input, &values) }
            if mask & 16 != 0 { layer.sublayerTransform = Self.transform(&input, &values) }
            if mask & 32 != 0 { layer.frame = Rect(value(), value(), value(), value()) }
            if mask & 64 != 0 {
                layer.zPosition = value()
                layer.anchorPointZ = value()
            }
            if mask & 128 != 0 {
                layer.flipped = more & 1 != 0
                layer.masks = more & 2 != 0
                layer.hidden = more & 4 != 0
                layer.transformLayer = more & 8 != 0
            }
            // Not a geometry value, so not counted as wild: it moves nothing.
            if more & 64 != 0 { layer.opacity = Float(input.double()) }
            layer.interactionDisabled = more & 128 != 0
            if more & 16 != 0 {
                layer.scrollView = ScrollViewState(
                    contentSize: Size(value(), value()),
                    contentInset: EdgeInsets(top: value(), left: value(), bottom: value(), right: value()))
                if more & 32 != 0 { layer.scrollTo = Point(value(), value()) }
            }
            layer.wild = values.contains { !$0.isFinite || Swift.abs($0) > 1e6 }
            layers.append(layer)
        }
        for _ in 0..<input.int(below: 4) {
            let layer = input.int(below: count + 2) - 1  // -1 ... count: some invalid
            let parent: Int? = input.bool() ? nil : input.int(below: count + 2) - 1
            let index: Int? = input.bool() ? nil : input.int(below: 6) - 1
            reparents.append((layer, parent, index))
        }
        if input.int(below: 3) == 0 { removal = input.int(below: count + 1) }
    }

    static func transform(_ input: inout FuzzInput, _ values: inout [Double]) -> Transform3D {
        func value() -> Double {
            let v = input.double()
            values.append(v)
            return v
        }
        switch input.int(below: 6) {
        case 0: return .translation(x: value(), y: value())
        case 1: return .scale(x: value(), y: value())
        case 2: return .rotation(radians: value(), x: 0, y: 0, z: 1)
        case 3:
            return Transform3D(
                AffineTransform(a: value(), b: value(), c: value(), d: value(), tx: value(), ty: value()))
        case 4: return Transform3D(rowMajor: (0..<16).map { _ in value() })
        default:
            return Transform3D.rotation(radians: value(), x: 0, y: 1, z: 0).concatenating(
                .perspective(distance: value()))
        }
    }

    /// The store; `inheritedWild` gets, per layer, whether it or an ancestor had a wild value.
    func build(wild inheritedWild: inout [Bool]) -> LayerStore {
        var store = LayerStore()
        var wild: [Bool] = []
        for tile in 0..<tiles {
            let base = store.count
            for recipe in layers {
                let layer: Int
                do { layer = try store.addLayer(superlayer: recipe.parent.map { base + $0 }) } catch {
                    fuzzFailure("addLayer with a valid parent threw \(error)")
                }
                apply(recipe, to: layer, in: &store)
                wild.append(recipe.wild)
            }
            // Reparenting only in the first tile keeps tiles cheap; the rest stay copies.
            if tile == 0 { applyReparents(to: &store) }
        }
        if let removal, removal < store.count {
            let before = store.count
            // The subtree from the parent links: every layer with `removal` on its way up.
            // (Not only larger indices: reparenting can put a smaller index below it.)
            let expected = (0..<before).filter { layer in
                var current: Int? = layer
                while let l = current {
                    if l == removal { return true }
                    current = store.superlayer(of: l)
                }
                return false
            }
            let live = (0..<store.count).filter { store.isLiveSlot($0) }
            do { try store.destroyLayer(removal) } catch {
                fuzzFailure("destroyLayer(\(removal)) threw \(error)")
            }
            let removed = live.filter { !store.isLiveSlot($0) }
            // Slots stay where they are (no renumbering); the destroyed ones become free.
            if removed.sorted() != expected || store.count != before || store.layerCount != before - removed.count {
                fuzzFailure("destroyLayer(\(removal)) removed \(removed), expected \(expected)")
            }
            for slot in removed { wild[slot] = false }
        }
        // Wildness flows down the hierarchy (world transforms, clips), never up or across.
        var inherited = wild
        for layer in 0..<store.count {
            var ancestor = store.superlayer(of: layer)
            while let current = ancestor, !inherited[layer] {
                if wild[current] { inherited[layer] = true }
                ancestor = store.superlayer(of: current)
            }
        }
        inheritedWild = inherited
        return store
    }

    private func apply(_ recipe: LayerRecipe, to layer: Int, in store: inout LayerStore) {
        if let anchor = recipe.anchorPoint { store.setAnchorPoint(anchor, of: layer) }
        if let frame = recipe.frame { store.setFrame(frame, of: layer) }
        if let bounds = recipe.bounds { store.setBounds(bounds, of: layer) }
        if let position = recipe.position { store.setPosition(position, of: layer) }
        if let transform = recipe.transform { store.setTransform(transform, of: layer) }
        if let transform = recipe.sublayerTransform { store.setSublayerTransform(transform, of: layer) }
        if let z = recipe.zPosition { store.setZPosition(z, of: layer) }
        if let z = recipe.anchorPointZ { store.setAnchorPointZ(z, of: layer) }
        store.setGeometryFlipped(recipe.flipped, of: layer)
        store.setMasksToBounds(recipe.masks, of: layer)
        store.setHidden(recipe.hidden, of: layer)
        store.setTransformLayer(recipe.transformLayer, of: layer)
        if let opacity = recipe.opacity { store.setOpacity(opacity, of: layer) }
        store.setUserInteractionEnabled(!recipe.interactionDisabled, of: layer)
        if let state = recipe.scrollView {
            store.setScrollView(state, of: layer)
            _ = store.scrollRange(of: layer)
            if let target = recipe.scrollTo {
                do { _ = try store.scroll(layer, to: target) } catch {
                    fuzzFailure("scroll on a scroll view threw \(error)")
                }
            }
        }
    }

    /// Applies the reparenting requests; a refused one must leave the hierarchy as it was.
    private func applyReparents(to store: inout LayerStore) {
        for (layer, parent, index) in reparents {
            let before = hierarchy(of: store)
            do {
                try store.insertSublayer(layer, into: parent, at: index)
                if store.superlayer(of: layer) != parent { fuzzFailure("setParent did not set the parent") }
            } catch {
                if hierarchy(of: store) != before { fuzzFailure("failed setParent (\(error)) changed the hierarchy") }
            }
        }
    }

    private func hierarchy(of store: borrowing LayerStore) -> [[Int]] {
        [store.rootIndices] + (0..<store.count).map { store.sublayers(of: $0) + [store.superlayer(of: $0) ?? -1] }
    }
}
