import BatchGeometry

/// The hierarchy shapes batchbench and the performance tests measure.
package enum WorkloadShape: String, CaseIterable, Sendable, CustomStringConvertible {
    /// A complete 8-ary tree in breadth-first order: layer i's superlayer is `(i-1)/8`.
    case standard
    /// The standard tree, with every tenth layer (`i % 10 == 9`) rotated about y under a
    /// perspective (`m34 = -1/500`), so the 3D paths of the kernels run.
    case threeD = "3d"
    /// One chain, layer i the sublayer of layer i-1 (depth = layer count): the worst case
    /// for anything recursive and for sequential dependence.
    case chain
    /// One root with `ceil((n-1)/101)` sublayers, each with up to 100 sublayers: for
    /// 101,001 layers exactly 1,000 × 100, a game's flat sprite lists.
    case wide
    /// A seeded random recursive tree: layer i's superlayer is uniform in `0 ..< i`.
    case random
    /// The standard tree with the transforms of a UIKit view tree, where most views have
    /// the identity transform and scales and rotations are rare (animations, badges):
    /// layer i's transform is a rotation by `i%360` degrees when `i%1000 == 999`, else a
    /// scale `(1.5, 1.25)` when `i%250 == 249`, else a translation `(i%13, i%17 - 8)`
    /// when `i%10 == 3`, else the identity. So most blocks of 64 layers have only
    /// translate locals (about 74%), about 19% a scale, about 6% a rotation: the case
    /// the world kernels' translate and scale-translate paths are for.
    case ui
    /// A UI app's tree (issue 12's scene, `AppLayout`): a 1920×1080 window, 20 masking,
    /// scrolled lists of cards (a card, its icon, label and badge) and a strip of 12
    /// cards flipping in 3D under a perspective sublayerTransform. Unlike the other
    /// shapes, its layers do not use the shared recipe: `AppLayout.recipe(of:)` gives
    /// each one's geometry, and about 430 layers are visible at any size.
    /// `FrameScript` has its per-frame edits and touches.
    case app

    package var description: String { rawValue }
}

/// One benchmark scene: a shape, a layer count and (for `random`) a seed. Everything it
/// builds is a pure function of these three values, so every run, machine and backend
/// measures the same layers.
///
/// Properties of layer i (the standard workload; shared by every shape):
/// bounds `(0, 0, 20 + i%50, 10 + i%30)`; position `(3*(i%97), 5*(i%89))`; anchorPoint
/// `(0, 0)` when `i%7 == 0`, else `(0.5, 0.5)`; transform by `i%10`: 0–4 translate
/// `(i%13, i%17 - 8)`, 5–6 scale `(1 + (i%5)*0.25, 1.5)`, 7–8 rotation by `i%360`
/// degrees (radians = `Double(i%360) * .pi / 180`), 9 identity. Three shapes differ:
/// `3d` (see `WorkloadShape.threeD`), `ui` (see `WorkloadShape.ui`), and `chain`,
/// whose scales are `(1.25, 0.8)` for 5 and `(0.8, 1.25)` for 6 so that a product of 100,000 transforms stays finite
/// (the standard scales would overflow to infinity after about 1,800 levels). `app` has
/// its own layout and recipe (`AppLayout`).
package struct Workload: Sendable, Hashable, CustomStringConvertible {
    /// The hierarchy (see `WorkloadShape`).
    package var shape: WorkloadShape
    /// The number of layers, at least 1.
    package var layerCount: Int
    /// Seeds the `random` shape; ignored by the others.
    package var seed: UInt64

    /// A workload of `layerCount` layers; nothing is built until `makeStore()` or
    /// `makeObjectGraph()`. O(1).
    /// - Precondition: `layerCount >= 1`.
    package init(_ shape: WorkloadShape, layerCount: Int, seed: UInt64 = 42) {
        precondition(layerCount >= 1, "a workload needs at least one layer")
        self.shape = shape
        self.layerCount = layerCount
        self.seed = seed
    }

    package var description: String { "\(shape) (\(layerCount) layers)" }

    /// The superlayer of every layer (nil for the root), always an earlier index, so
    /// index order is a valid superlayers-first order. O(n).
    package func parents() -> [Int?] {
        let n = layerCount
        switch shape {
        case .standard, .threeD, .ui:
            return (0..<n).map { $0 == 0 ? nil : ($0 - 1) / 8 }
        case .chain:
            return (0..<n).map { $0 == 0 ? nil : $0 - 1 }
        case .wide:
            // Root 0; layers 1...k are its sublayers; the rest go 100 to each of them.
            let firstLevel = Swift.max(1, (n - 1 + 100) / 101)
            return (0..<n).map { i in
                if i == 0 { return nil }
                if i <= firstLevel { return 0 }
                return 1 + (i - 1 - firstLevel) / 100
            }
        case .random:
            var generator = SplitMix64(seed: seed)
            return (0..<n).map { $0 == 0 ? nil : generator.next(below: $0) }
        case .app:
            let layout = AppLayout(layerCount: n)
            return (0..<n).map { layout.superlayer(of: $0) }
        }
    }

    /// The geometry of layer `i` (see the type's documentation). O(1).
    package func recipe(of i: Int) -> LayerRecipe {
        if shape == .app { return AppLayout(layerCount: layerCount).recipe(of: i) }
        let bounds = Rect(x: 0, y: 0, width: Double(20 + i % 50), height: Double(10 + i % 30))
        let position = Point(x: Double(3 * (i % 97)), y: Double(5 * (i % 89)))
        let anchorPoint = i % 7 == 0 ? Point(x: 0, y: 0) : Point(x: 0.5, y: 0.5)
        let transform: Transform3D
        if shape == .ui {
            return LayerRecipe(
                bounds: bounds, position: position, anchorPoint: anchorPoint, transform: uiTransform(of: i))
        }
        switch i % 10 {
        case 0...4:
            transform = Transform3D(.translation(x: Double(i % 13), y: Double(i % 17 - 8)))
        case 5...6:
            if shape == .chain {
                transform = i % 10 == 5 ? .scale(x: 1.25, y: 0.8) : .scale(x: 0.8, y: 1.25)
            } else {
                transform = Transform3D(.scale(x: 1 + Double(i % 5) * 0.25, y: 1.5))
            }
        case 7...8:
            transform = Transform3D(.rotation(radians: Double(i % 360) * .pi / 180))
        default:
            if shape == .threeD {
                // CATransform3DRotate(perspective, angle, 0, 1, 0): rotate, then project.
                transform = Transform3D.rotation(radians: Double(i % 360) * .pi / 180, x: 0, y: 1, z: 0)
                    .concatenating(.perspective(distance: 500))
            } else {
                transform = .identity
            }
        }
        return LayerRecipe(bounds: bounds, position: position, anchorPoint: anchorPoint, transform: transform)
    }

    /// The transform of layer `i` of the `ui` shape (see `WorkloadShape.ui`).
    private func uiTransform(of i: Int) -> Transform3D {
        if i % 1000 == 999 { return Transform3D(.rotation(radians: Double(i % 360) * .pi / 180)) }
        if i % 250 == 249 { return Transform3D(.scale(x: 1.5, y: 1.25)) }
        if i % 10 == 3 { return Transform3D(.translation(x: Double(i % 13), y: Double(i % 17 - 8))) }
        return .identity
    }

    /// The mask the autoresize kernel gives every layer: every part flexible. Then a
    /// layer's size difference is its superlayer's scaled by `w/W` (its width over the
    /// superlayer's old width), which telescopes along any path to `d₀·w/w₀`: the whole
    /// tree scales by the top layer's factor, and every layer is resized on every call,
    /// whatever the depth. (A mix of masks makes the difference compound from level to
    /// level: along the 100,000-deep chain it overflows or dies out within a few dozen
    /// levels, and the kernel would resize only the top of the tree.) O(1).
    package func autoresizingMask(of i: Int) -> AutoresizingMask { .all }

    /// The top layer's two sizes that the autoresize kernel alternates between: its
    /// recipe size, and that size doubled.
    package var autoresizeSizes: (Size, Size) {
        let size = recipe(of: 0).bounds.size
        return (size, Size(width: size.width * 2, height: size.height * 2))
    }

    /// Builds the workload as a `LayerStore` (layers added in index order), with every
    /// layer's `autoresizingMask(of:)` when `autoresizing` is set. O(n).
    package func makeStore(autoresizing: Bool = false) -> LayerStore {
        var store = LayerStore(minimumCapacity: layerCount)
        var handles: [LayerHandle] = []
        handles.reserveCapacity(layerCount)
        for (i, parent) in parents().enumerated() {
            let layer: LayerHandle
            do {
                layer = try store.addLayer(superlayer: parent.map { handles[$0] })
            } catch {
                preconditionFailure("workload parents always precede their sublayers: \(error)")
            }
            // A new store has no free slot: layer i lands in slot i, which the kernels'
            // result arrays and the object graph index by.
            precondition(layer.index == i)
            handles.append(layer)
            let recipe = recipe(of: i)
            store.setBounds(recipe.bounds, of: layer)
            store.setAnchorPoint(recipe.anchorPoint, of: layer)
            store.setPosition(recipe.position, of: layer)
            if recipe.transform != .identity { store.setTransform(recipe.transform, of: layer) }
            if recipe.sublayerTransform != .identity { store.setSublayerTransform(recipe.sublayerTransform, of: layer) }
            if recipe.masksToBounds { store.setMasksToBounds(true, of: layer) }
            if recipe.isHidden { store.setHidden(true, of: layer) }
            if let contentSize = recipe.contentSize {
                store.setScrollView(ScrollViewState(contentSize: contentSize), of: layer)
            }
            if autoresizing { store.setAutoresizingMask(autoresizingMask(of: i), of: layer) }
        }
        return store
    }

    /// Builds the same scene as one class instance per layer (see `ObjectGraph`), with
    /// the autoresizing masks when `autoresizing` is set. O(n).
    package func makeObjectGraph(autoresizing: Bool = false) -> ObjectGraph {
        var layers: [ObjectLayer] = []
        layers.reserveCapacity(layerCount)
        for (i, parent) in parents().enumerated() {
            let recipe = recipe(of: i)
            let layer = ObjectLayer(
                bounds: recipe.bounds, position: recipe.position,
                anchorPoint: recipe.anchorPoint, transform: recipe.transform)
            if recipe.sublayerTransform != .identity { layer.sublayerTransform = recipe.sublayerTransform }
            if autoresizing { layer.autoresizingMask = autoresizingMask(of: i) }
            if let parent { layers[parent].addSublayer(layer) }
            layers.append(layer)
        }
        return ObjectGraph(layers: layers)
    }
}

/// The stored geometry of one workload layer (the rest keeps Core Animation's defaults).
package struct LayerRecipe: Sendable, Hashable {
    /// Bounds in points; the origin is always (0, 0).
    package var bounds: Rect
    /// Position in the superlayer's space, in points.
    package var position: Point
    /// Anchor point in unit coordinates of the bounds.
    package var anchorPoint: Point
    /// The layer's transform (affine except in the `3d` workload and the `app` strip).
    package var transform: Transform3D
    /// The rest is set only by the `app` shape (`AppLayout`): the transform applied to
    /// the sublayers, about the anchor point (the strip's perspective).
    package var sublayerTransform: Transform3D = .identity
    /// Clips the sublayers (the lists).
    package var masksToBounds = false
    /// Hidden with its subtree (some badges).
    package var isHidden = false
    /// Makes the layer a scroll view with this content size (the lists).
    package var contentSize: Size?
}
