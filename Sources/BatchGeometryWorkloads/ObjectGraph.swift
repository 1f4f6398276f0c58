import BatchGeometry

/// One layer as app code holds it: a class instance with its own stored properties, a
/// reference to its superlayer and an array of sublayers, like `CALayer` or `UIView`.
/// The benchmark's baseline; its math is GEOMETRY.md written out again, independently of
/// the store's kernels, so it also serves as a cross-check.
package final class ObjectLayer {
    /// As the `LayerStore` properties of the same names (GEOMETRY.md section 2).
    package var bounds: Rect
    package var position: Point
    package var anchorPoint: Point
    package var zPosition: Double = 0
    package var anchorPointZ: Double = 0
    package var transform: Transform3D
    /// The sublayerTransform, nil for the identity (every workload layer but the `app`
    /// strip), so the common case costs one check.
    package var sublayerTransform: Transform3D?
    /// `unowned(unsafe)`, the cheapest reference Swift offers (what `CALayer`'s
    /// non-retaining `superlayer` is), so the baseline is not slowed down by weak
    /// references and the speed-up shown over it is not inflated.
    package private(set) unowned(unsafe) var superlayer: ObjectLayer?
    package private(set) var sublayers: [ObjectLayer] = []
    /// `ToWorld` from the last `ObjectGraph.updateWorld()`.
    package var world: Transform3D = .identity
    /// As `LayerStore.autoresizingMask(of:)`.
    package var autoresizingMask: AutoresizingMask = []
    /// The bounds size when the running `ObjectGraph.resizeLayer(at:to:)` reached this
    /// layer (UIKit keeps the old size on the stack; a field avoids recursion here).
    var sizeBeforeResize = Size(width: 0, height: 0)

    /// A layer without superlayer or sublayers.
    package init(bounds: Rect, position: Point, anchorPoint: Point, transform: Transform3D) {
        self.bounds = bounds
        self.position = position
        self.anchorPoint = anchorPoint
        self.transform = transform
    }

    /// Appends `layer` to the sublayers. The caller keeps `self` alive while `layer`
    /// refers to it (the graph's `layers` array does).
    package func addSublayer(_ layer: ObjectLayer) {
        layer.superlayer = self
        sublayers.append(layer)
    }

    /// The frame getter of GEOMETRY.md section 3, in its operation order. O(1).
    package var frame: Rect {
        let w = bounds.size.width
        let h = bounds.size.height
        let t = transform
        let rx = (-w) * anchorPoint.x
        let ry = (-h) * anchorPoint.y
        let xMax = rx + w
        let yMax = ry + h
        let x0 = ((t.m11 * rx) + (t.m21 * ry)) + t.m41
        let y0 = ((t.m12 * rx) + (t.m22 * ry)) + t.m42
        let x1 = ((t.m11 * rx) + (t.m21 * yMax)) + t.m41
        let y1 = ((t.m12 * rx) + (t.m22 * yMax)) + t.m42
        let x2 = ((t.m11 * xMax) + (t.m21 * ry)) + t.m41
        let y2 = ((t.m12 * xMax) + (t.m22 * ry)) + t.m42
        let x3 = ((t.m11 * xMax) + (t.m21 * yMax)) + t.m41
        let y3 = ((t.m12 * xMax) + (t.m22 * yMax)) + t.m42
        // MIN(p, q) = q < p ? q : p, the select the spec's kernels use.
        func minimum(_ p: Double, _ q: Double) -> Double { q < p ? q : p }
        func maximum(_ p: Double, _ q: Double) -> Double { q > p ? q : p }
        let minX = minimum(minimum(minimum(x0, x1), x2), x3)
        let maxX = maximum(maximum(maximum(x0, x1), x2), x3)
        let minY = minimum(minimum(minimum(y0, y1), y2), y3)
        let maxY = maximum(maximum(maximum(y0, y1), y2), y3)
        return Rect(x: minX + position.x, y: minY + position.y, width: maxX - minX, height: maxY - minY)
    }

    /// `Local(L)` of GEOMETRY.md section 5; then, under a superlayer, its sublayerTransform
    /// about its anchor point (`Sub(S)`), flattened (`Flat`) and followed by the
    /// superlayer's `ToWorld`. Workload superlayers are not flipped, so `Flip(S)` is the
    /// identity here.
    func computeWorld() {
        let anchorX = bounds.origin.x + anchorPoint.x * bounds.size.width
        let anchorY = bounds.origin.y + anchorPoint.y * bounds.size.height
        let local = Transform3D.translation(x: -anchorX, y: -anchorY, z: -anchorPointZ)
            .concatenating(transform)
            .concatenating(.translation(x: position.x, y: position.y, z: zPosition))
        guard let superlayer else {
            world = local
            return
        }
        var flattened = local
        if let sublayerTransform = superlayer.sublayerTransform {
            let s = superlayer
            let pivotX = s.bounds.origin.x + s.anchorPoint.x * s.bounds.size.width
            let pivotY = s.bounds.origin.y + s.anchorPoint.y * s.bounds.size.height
            flattened = local.concatenating(.translation(x: -pivotX, y: -pivotY, z: -s.anchorPointZ))
                .concatenating(sublayerTransform)
                .concatenating(.translation(x: pivotX, y: pivotY, z: s.anchorPointZ))
        }
        flattened.m13 = 0
        flattened.m23 = 0
        flattened.m33 = 0
        flattened.m43 = 0
        world = flattened.concatenating(superlayer.world)
    }
}

extension ObjectLayer {
    /// Follows `superlayer`'s size change (`sizeBeforeResize` → its bounds size) as
    /// UIKit's autoresizing does, GEOMETRY.md section 4 written out again, per axis.
    func autoresize(in superlayer: ObjectLayer) {
        let mask = autoresizingMask
        if let (width, x) = Self.axis(
            position.x, anchorPoint.x, bounds.size.width, superlayer.bounds.origin.x,
            superlayer.sizeBeforeResize.width, superlayer.bounds.size.width,
            mask.contains(.flexibleLeftMargin), mask.contains(.flexibleWidth),
            mask.contains(.flexibleRightMargin))
        {
            bounds.size.width = width
            position.x = x
        }
        if let (height, y) = Self.axis(
            position.y, anchorPoint.y, bounds.size.height, superlayer.bounds.origin.y,
            superlayer.sizeBeforeResize.height, superlayer.bounds.size.height,
            mask.contains(.flexibleTopMargin), mask.contains(.flexibleHeight),
            mask.contains(.flexibleBottomMargin))
        {
            bounds.size.height = height
            position.y = y
        }
    }

    /// One axis: margin p, length w, far margin r; each flexible part q grows by
    /// d·q/T (T their sum, left to right) or d/n when T is 0. Nil: nothing flexible.
    private static func axis(
        _ position: Double, _ anchor: Double, _ w: Double, _ origin: Double,
        _ oldLength: Double, _ newLength: Double,
        _ flexibleMin: Bool, _ flexibleLength: Bool, _ flexibleMax: Bool
    ) -> (Double, Double)? {
        guard flexibleMin || flexibleLength || flexibleMax else { return nil }
        let p = (position - (anchor * w)) - origin
        let r = (oldLength - p) - w
        // No arrays here: allocation per axis would slow the baseline and inflate the
        // speed-up shown over it.
        var total = 0.0
        var count = 0.0
        if flexibleMin {
            total = p
            count = 1
        }
        if flexibleLength {
            total = count == 0 ? w : total + w
            count += 1
        }
        if flexibleMax {
            total = count == 0 ? r : total + r
            count += 1
        }
        let d = newLength - oldLength
        func grown(_ q: Double) -> Double { total != 0 ? q + (d * q) / total : q + d / count }
        let margin = flexibleMin ? grown(p) : p
        let length = flexibleLength ? grown(w) : w
        return (length, (origin + margin) + (anchor * length))
    }
}

/// A whole workload as `ObjectLayer` instances, superlayers before sublayers.
package struct ObjectGraph {
    /// Every layer, in the workload's index order; holding them keeps the graph alive.
    package let layers: [ObjectLayer]

    /// Wraps `layers`, which must list every superlayer before its sublayers.
    package init(layers: [ObjectLayer]) { self.layers = layers }

    /// Every layer's frame through its getter, into `frames` (resized to fit). O(n).
    package func computeFrames(into frames: inout [Rect]) {
        if frames.count != layers.count { frames = Array(repeating: .zero, count: layers.count) }
        for (index, layer) in layers.enumerated() { frames[index] = layer.frame }
    }

    /// Every layer's `ToWorld`, stored in the layer, superlayers first (one pass, each
    /// layer reusing its superlayer's result, the best an object graph can do). O(n).
    package func updateWorld() {
        for layer in layers { layer.computeWorld() }
    }

    /// Sets the bounds size of `layers[index]` and autoresizes what follows it, in one
    /// pass in index order (superlayers first, so each layer sees its superlayer's old
    /// and new size; no recursion). Every layer's autoresizesSubviews is true here.
    /// Visits every layer. O(n).
    package func resizeLayer(at index: Int, to size: Size) {
        for (position, layer) in layers.enumerated() {
            layer.sizeBeforeResize = layer.bounds.size
            if position == index {
                layer.bounds.size = size
                continue
            }
            guard !layer.autoresizingMask.isEmpty, let superlayer = layer.superlayer else { continue }
            let old = superlayer.sizeBeforeResize
            let new = superlayer.bounds.size
            if old.width != new.width || old.height != new.height { layer.autoresize(in: superlayer) }
        }
    }
}
