// Per-layer property access with Core Animation's setter side effects (GEOMETRY.md
// section 4). Every accessor is O(1) and takes a live `LayerHandle` (a stale one stops
// the program with a message naming it); each public accessor forwards to its slot
// (`Int`) form, which the library and the tests share. A setter writes its columns and
// makes one call, `noteChange(layer, what)` (LayerChange.swift), saying what changed;
// the caches that read it follow. `updateWorld()` recomputes a changed layer's whole
// subtree, which covers what the layer applies to its sublayers (bounds origin,
// sublayerTransform, geometryFlipped) as well.

extension LayerStore {
    // MARK: Stored properties

    /// The layer's own coordinate space: `origin` is the scroll offset (what its
    /// sublayers' frames are measured from), `size` its size, in points. Setting it
    /// keeps `position`, so the frame grows or shrinks about the anchor point; a new size
    /// autoresizes the masked sublayers (`setAutoresizingMask(_:of:)`). Never rounded.
    /// O(1) when no layer has an autoresizing mask, else O(the sublayers resized).
    public func bounds(of layer: LayerHandle) -> Rect {
        bounds(of: slot(of: layer))
    }
    func bounds(of layer: Int) -> Rect {
        checkIndex(layer)
        return Rect(
            x: columns.boundsX[layer], y: columns.boundsY[layer], width: columns.boundsWidth[layer],
            height: columns.boundsHeight[layer])
    }
    public mutating func setBounds(_ bounds: Rect, of layer: LayerHandle) {
        setBounds(bounds, of: slotForUpdate(of: layer))
    }
    mutating func setBounds(_ bounds: Rect, of layer: Int) {
        checkIndexForUpdate(layer)
        let oldWidth = columns.boundsWidth[layer]
        let oldHeight = columns.boundsHeight[layer]
        columns.boundsX[layer] = bounds.x
        columns.boundsY[layer] = bounds.y
        columns.boundsWidth[layer] = bounds.width
        columns.boundsHeight[layer] = bounds.height
        noteChange(layer, .geometry)
        sizeDidChange(layer, from: oldWidth, oldHeight)
    }

    /// Where the anchor point sits in the superlayer's space (UIView `center` for the
    /// default anchor), in points.
    public func position(of layer: LayerHandle) -> Point {
        position(of: slot(of: layer))
    }
    func position(of layer: Int) -> Point {
        checkIndex(layer)
        return Point(x: columns.positionX[layer], y: columns.positionY[layer])
    }
    public mutating func setPosition(_ position: Point, of layer: LayerHandle) {
        setPosition(position, of: slotForUpdate(of: layer))
    }
    mutating func setPosition(_ position: Point, of layer: Int) {
        checkIndexForUpdate(layer)
        columns.positionX[layer] = position.x
        columns.positionY[layer] = position.y
        noteChange(layer, .position)
        noteMoveDrift(layer, to: position)
    }

    /// Moves sublayers `range` of `superlayer` (in sublayer order, before zPosition) by
    /// `offset`: each one's position becomes `position + offset` (x and y added apart, in
    /// points of `superlayer`'s bounds space), exactly as `setPosition(_:of:)` with that
    /// sum would set it, one sublayer after another. The row insert of a list: the rows
    /// below an inserted or removed row move by its pitch. Cheaper than the calls one by
    /// one: no handle per sublayer, and a sublayer parked under an indexed masking list
    /// with a known drift (a row off screen, moved before) has its state and drift read
    /// once, its list's bound raised once a run of them, its columns', change tracker's
    /// and edit log's checks made once a run (~40 instructions a row, against ~120 for
    /// the setter; a row's first move after a query redid it takes the setter's path).
    ///
    /// Expected O(log w) to find and check the range in a list of w ≥ 64 sublayers once
    /// the caches are built (its rank tree), else O(`range.upperBound`) (a walk of the
    /// sublayer list); plus O(`range.count`) for the moves; allocates only when a setter would (a cache's
    /// pending list growing past what it has held).
    /// - Throws: checked before anything changes: `.staleSuperlayer` or
    ///   `.foreignSuperlayer` (another store's handle), `.sublayerIndexOutOfRange` when
    ///   `range` is not within `0...n` (n = `superlayer`'s sublayers); the store is then
    ///   unchanged.
    public mutating func offsetPositions(ofSublayersOf superlayer: LayerHandle, in range: Range<Int>, by offset: Point)
        throws(LayerStoreError)
    {
        if let error = staleError(superlayer, superlayer: true) { throw error }
        let first = try firstSublayer(of: range, under: superlayer.index)
        offsetPositions(from: first, count: range.count, under: superlayer.index, by: offset)
    }

    /// Sublayer `range.lowerBound` of `superlayer` (-1 when `range` is empty), once
    /// `range` is checked to lie in `0...n`. Expected O(log w) through a wide list's rank
    /// tree, else O(`range.upperBound`); allocates nothing.
    /// - Throws: `.sublayerIndexOutOfRange` (the first index out of range, and n).
    private func firstSublayer(of range: Range<Int>, under superlayer: Int) throws(LayerStoreError) -> Int32 {
        if let list = caches.subtreeBounds.rankedList(of: superlayer) {
            let count = caches.subtreeBounds.drift.rankCount(list: list)
            guard range.lowerBound >= 0 && range.upperBound <= count else {
                throw LayerStoreError.sublayerIndexOutOfRange(
                    index: range.lowerBound < 0 ? range.lowerBound : range.upperBound, sublayerCount: count)
            }
            return range.isEmpty ? -1 : caches.subtreeBounds.drift.rankedSublayer(at: range.lowerBound, list: list)
        }
        var current = hierarchy.firstSublayers[superlayer]
        var position = 0
        var first: Int32 = -1
        while position < range.upperBound && current >= 0 {
            if position == range.lowerBound { first = current }
            current = hierarchy.nextSiblings[Int(current)]
            position += 1
        }
        if range.lowerBound >= 0 && position == range.upperBound { return first }
        // Out of range: count the rest for the message.
        while current >= 0 {
            current = hierarchy.nextSiblings[Int(current)]
            position += 1
        }
        throw LayerStoreError.sublayerIndexOutOfRange(
            index: range.lowerBound < 0 ? range.lowerBound : range.upperBound, sublayerCount: position)
    }

    /// The anchor point in unit coordinates of the bounds (may lie outside 0…1).
    /// Setting it keeps `position`, so the frame moves.
    public func anchorPoint(of layer: LayerHandle) -> Point {
        anchorPoint(of: slot(of: layer))
    }
    func anchorPoint(of layer: Int) -> Point {
        checkIndex(layer)
        return Point(x: columns.anchorX[layer], y: columns.anchorY[layer])
    }
    public mutating func setAnchorPoint(_ anchorPoint: Point, of layer: LayerHandle) {
        setAnchorPoint(anchorPoint, of: slotForUpdate(of: layer))
    }
    mutating func setAnchorPoint(_ anchorPoint: Point, of layer: Int) {
        checkIndexForUpdate(layer)
        columns.anchorX[layer] = anchorPoint.x
        columns.anchorY[layer] = anchorPoint.y
        noteChange(layer, .geometry)
    }

    /// The layer's z position, in points: moves it toward the eye and orders it among its
    /// siblings, both for drawing and for the layer rule's hit testing (the view rule
    /// ignores it, as UIKit does). O(1).
    public func zPosition(of layer: LayerHandle) -> Double {
        zPosition(of: slot(of: layer))
    }
    func zPosition(of layer: Int) -> Double {
        checkIndex(layer)
        return columns.zValues.zPosition(at: layer)
    }
    public mutating func setZPosition(_ z: Double, of layer: LayerHandle) {
        setZPosition(z, of: slotForUpdate(of: layer))
    }
    mutating func setZPosition(_ z: Double, of layer: Int) {
        checkIndexForUpdate(layer)
        let previous = hierarchy.previousSiblings[layer]
        let next = hierarchy.nextSiblings[layer]
        let isSublayer = hierarchy.parents[layer] >= 0
        if isSublayer {
            hierarchy.zOrderInversions -= zInversion(previous, Int32(layer)) + zInversion(Int32(layer), next)
        }
        columns.zValues.setZPosition(z, at: layer, capacity: layerCapacity)
        if isSublayer {
            hierarchy.zOrderInversions += zInversion(previous, Int32(layer)) + zInversion(Int32(layer), next)
        }
        noteChange(layer, .zOrder)
    }

    /// The anchor point's z coordinate, in points.
    public func anchorPointZ(of layer: LayerHandle) -> Double {
        anchorPointZ(of: slot(of: layer))
    }
    func anchorPointZ(of layer: Int) -> Double {
        checkIndex(layer)
        return columns.zValues.anchorPointZ(at: layer)
    }
    public mutating func setAnchorPointZ(_ z: Double, of layer: LayerHandle) {
        setAnchorPointZ(z, of: slotForUpdate(of: layer))
    }
    mutating func setAnchorPointZ(_ z: Double, of layer: Int) {
        checkIndexForUpdate(layer)
        columns.zValues.setAnchorPointZ(z, at: layer, capacity: layerCapacity)
        noteChange(layer, .geometry)
    }

    /// The layer's transform, applied about its anchor point.
    public func transform(of layer: LayerHandle) -> Transform3D {
        transform(of: slot(of: layer))
    }
    func transform(of layer: Int) -> Transform3D {
        checkIndex(layer)
        return columns.transforms[layer]
    }
    public mutating func setTransform(_ transform: Transform3D, of layer: LayerHandle) {
        setTransform(transform, of: slotForUpdate(of: layer))
    }
    mutating func setTransform(_ transform: Transform3D, of layer: Int) {
        checkIndexForUpdate(layer)
        columns.transforms.set(transform, at: layer)
        noteChange(layer, .localTransform)
        noteTransformDrift(layer, to: transform)
    }
    /// The affine part of the transform (`UIView.transform`).
    public func affineTransform(of layer: LayerHandle) -> AffineTransform {
        affineTransform(of: slot(of: layer))
    }
    func affineTransform(of layer: Int) -> AffineTransform {
        checkIndex(layer)
        return columns.transforms.affine(at: layer)
    }
    public mutating func setAffineTransform(_ transform: AffineTransform, of layer: LayerHandle) {
        setAffineTransform(transform, of: slotForUpdate(of: layer))
    }
    mutating func setAffineTransform(_ transform: AffineTransform, of layer: Int) {
        setTransform(Transform3D(transform), of: layer)
    }
    /// The kind of the layer's transform (identity, translate, scale, affine, 3D,
    /// perspective).
    public func transformKind(of layer: LayerHandle) -> TransformKind {
        transformKind(of: slot(of: layer))
    }
    func transformKind(of layer: Int) -> TransformKind {
        checkIndex(layer)
        return columns.transforms.kind(at: layer)
    }

    /// Applied to the sublayers, about this layer's anchor point.
    public func sublayerTransform(of layer: LayerHandle) -> Transform3D {
        sublayerTransform(of: slot(of: layer))
    }
    func sublayerTransform(of layer: Int) -> Transform3D {
        checkIndex(layer)
        return columns.sublayerTransforms[layer]
    }
    public mutating func setSublayerTransform(_ transform: Transform3D, of layer: LayerHandle) {
        setSublayerTransform(transform, of: slotForUpdate(of: layer))
    }
    mutating func setSublayerTransform(_ transform: Transform3D, of layer: Int) {
        checkIndexForUpdate(layer)
        columns.sublayerTransforms.set(transform, at: layer)
        noteChange(layer, .sublayerAdjustment)
    }

    /// Mirrors the sublayers' y axis about the middle of the bounds.
    public func isGeometryFlipped(_ layer: LayerHandle) -> Bool {
        isGeometryFlipped(slot(of: layer))
    }
    func isGeometryFlipped(_ layer: Int) -> Bool { flag(.geometryFlipped, layer) }
    public mutating func setGeometryFlipped(_ value: Bool, of layer: LayerHandle) {
        setGeometryFlipped(value, of: slotForUpdate(of: layer))
    }
    mutating func setGeometryFlipped(_ value: Bool, of layer: Int) {
        setFlag(.geometryFlipped, value, layer)
        noteChange(layer, .sublayerAdjustment)
    }
    /// Clips sublayers to the bounds, for rendering and hit testing.
    public func masksToBounds(_ layer: LayerHandle) -> Bool {
        masksToBounds(slot(of: layer))
    }
    func masksToBounds(_ layer: Int) -> Bool { flag(.masksToBounds, layer) }
    public mutating func setMasksToBounds(_ value: Bool, of layer: LayerHandle) {
        setMasksToBounds(value, of: slotForUpdate(of: layer))
    }
    mutating func setMasksToBounds(_ value: Bool, of layer: Int) {
        setFlag(.masksToBounds, value, layer)
        noteChange(layer, .extent)
    }
    /// Hides the layer and its subtree.
    public func isHidden(_ layer: LayerHandle) -> Bool {
        isHidden(slot(of: layer))
    }
    func isHidden(_ layer: Int) -> Bool { flag(.hidden, layer) }
    public mutating func setHidden(_ value: Bool, of layer: LayerHandle) {
        setHidden(value, of: slotForUpdate(of: layer))
    }
    mutating func setHidden(_ value: Bool, of layer: Int) {
        setFlag(.hidden, value, layer)
        noteChange(layer, .extent)
    }
    /// A `CATransformLayer`: its sublayers keep their z instead of being flattened into
    /// its plane.
    public func isTransformLayer(_ layer: LayerHandle) -> Bool {
        isTransformLayer(slot(of: layer))
    }
    func isTransformLayer(_ layer: Int) -> Bool { flag(.transformLayer, layer) }
    public mutating func setTransformLayer(_ value: Bool, of layer: LayerHandle) {
        setTransformLayer(value, of: slotForUpdate(of: layer))
    }
    mutating func setTransformLayer(_ value: Bool, of layer: Int) {
        setFlag(.transformLayer, value, layer)
        noteChange(layer, .sublayerAdjustment)
    }

    /// The index precondition for setters. Mutating, so that an unoptimized build does
    /// not copy the whole store to call the non-mutating `checkIndex` from a setter.
    @inline(__always)
    mutating func checkIndexForUpdate(_ layer: Int) {
        let count = hierarchy.parents.count
        require(layer >= 0 && layer < count, "layer \(layer) is out of range (\(count) layers)")
    }

    @inline(__always)
    func flag(_ flag: LayerFlags, _ layer: Int) -> Bool {
        checkIndex(layer)
        return columns.flags[layer].contains(flag)
    }

    private mutating func setFlag(_ flag: LayerFlags, _ value: Bool, _ layer: Int) {
        checkIndexForUpdate(layer)
        if value { columns.flags[layer].insert(flag) } else { columns.flags[layer].remove(flag) }
    }

    // MARK: frame (derived)

    /// The layer's frame in its superlayer's space, derived from bounds, anchorPoint,
    /// the affine part of transform and position (GEOMETRY.md section 3, bit-exact).
    public func frame(of layer: LayerHandle) -> Rect {
        frame(of: slot(of: layer))
    }
    func frame(of layer: Int) -> Rect {
        checkIndex(layer)
        return frameRect(
            width: columns.boundsWidth[layer], height: columns.boundsHeight[layer],
            anchorX: columns.anchorX[layer], anchorY: columns.anchorY[layer],
            transform: columns.transforms.affine(at: layer),
            positionX: columns.positionX[layer], positionY: columns.positionY[layer])
    }

    /// Sets the frame the way Core Animation does on a device (GEOMETRY.md section 4):
    /// standardizes the rect; sets `bounds.size` to the requested size under an identity
    /// transform, else to the requested size taken through the inverse of the
    /// transform's 2×2 part as a signed vector (either dimension may come out negative
    /// or zero; unchanged when that part is singular); keeps `bounds.origin`; then sets
    /// `position = (x + ax*w - tx, y + ay*h - ty)` from the requested rect. Under
    /// scales, flips and translations the frame then reads back as requested; under a
    /// rotation it does not, exactly as on iOS (a 100×100 view rotated by 0.1 rad and
    /// given frame (20, 20, 100, 100) reads back (11.06, 20, 117.87, 100)).
    /// A new size autoresizes the masked sublayers. O(1) when no layer has an
    /// autoresizing mask, else O(the sublayers resized).
    public mutating func setFrame(_ frame: Rect, of layer: LayerHandle) {
        setFrame(frame, of: slotForUpdate(of: layer))
    }
    mutating func setFrame(_ frame: Rect, of layer: Int) {
        checkIndexForUpdate(layer)
        let requested = frame.standardized
        let transform = columns.transforms.affine(at: layer)
        let size = boundsSizeForFrame(
            width: requested.width, height: requested.height, transform: transform,
            current: Size(width: columns.boundsWidth[layer], height: columns.boundsHeight[layer]))
        let position = positionForFrame(
            requested, anchorX: columns.anchorX[layer], anchorY: columns.anchorY[layer],
            transform: transform)
        let oldWidth = columns.boundsWidth[layer]
        let oldHeight = columns.boundsHeight[layer]
        columns.boundsWidth[layer] = size.width
        columns.boundsHeight[layer] = size.height
        columns.positionX[layer] = position.x
        columns.positionY[layer] = position.y
        noteChange(layer, .geometry)
        sizeDidChange(layer, from: oldWidth, oldHeight)
    }

    /// UIView `center`: the same as `position`.
    public func center(of layer: LayerHandle) -> Point {
        center(of: slot(of: layer))
    }
    func center(of layer: Int) -> Point { position(of: layer) }
    public mutating func setCenter(_ center: Point, of layer: LayerHandle) {
        setCenter(center, of: slotForUpdate(of: layer))
    }
    mutating func setCenter(_ center: Point, of layer: Int) { setPosition(center, of: layer) }

    // MARK: Scroll views (GEOMETRY.md section 8)

    /// The scroll offset, `bounds.origin`.
    public func contentOffset(of layer: LayerHandle) -> Point {
        contentOffset(of: slot(of: layer))
    }
    func contentOffset(of layer: Int) -> Point { bounds(of: layer).origin }

    /// Sets `bounds.origin` the way `-[UIScrollView setContentOffset:]` does: without
    /// clamping, each coordinate rounded to device pixels with `displayScale`
    /// (GEOMETRY.md section 8): `round(v)` (ties away from zero) at scale 1, else
    /// `floor(v) + round((v - floor(v)) * s) / s`. At 3× the offset −187.5 becomes
    /// −187.33333333333334, as on an iPhone. Setting `bounds` never rounds. O(1).
    public mutating func setContentOffset(_ offset: Point, of layer: LayerHandle) {
        setContentOffset(offset, of: slotForUpdate(of: layer))
    }
    mutating func setContentOffset(_ offset: Point, of layer: Int) {
        checkIndexForUpdate(layer)
        columns.boundsX[layer] = pixelRounded(offset.x, scale: columns.displayScale)
        columns.boundsY[layer] = pixelRounded(offset.y, scale: columns.displayScale)
        noteChange(layer, .geometry)
    }

    /// Sets the display scale (points to pixels: 1, 2 or 3 on iOS screens; default 1),
    /// which later contentOffset changes round to. Changes no geometry by itself. O(1).
    /// - Throws: `LayerStoreError.invalidDisplayScale` when `scale` is not a positive
    ///   finite number; the store is then unchanged.
    public mutating func setDisplayScale(_ scale: Double) throws(LayerStoreError) {
        guard scale > 0 && scale.isFinite else { throw LayerStoreError.invalidDisplayScale(scale) }
        columns.displayScale = scale
    }

    /// The scroll-view state (contentSize, contentInset), or nil when the layer is not a
    /// scroll view.
    public func scrollView(of layer: LayerHandle) -> ScrollViewState? {
        scrollView(of: slot(of: layer))
    }
    func scrollView(of layer: Int) -> ScrollViewState? {
        checkIndex(layer)
        return columns.scrollViews[Int32(layer)]
    }
    /// Makes the layer a scroll view with this content (or an ordinary layer for nil).
    public mutating func setScrollView(_ state: ScrollViewState?, of layer: LayerHandle) {
        setScrollView(state, of: slotForUpdate(of: layer))
    }
    mutating func setScrollView(_ state: ScrollViewState?, of layer: Int) {
        checkIndexForUpdate(layer)
        columns.scrollViews[Int32(layer)] = state
    }

    /// The valid range of the content offset:
    /// `x in [-left, max(-left, cw + right - w)]`, `y in [-top, max(-top, ch + bottom - h)]`.
    /// Nil when the layer is not a scroll view.
    public func scrollRange(of layer: LayerHandle) -> (x: ClosedRange<Double>, y: ClosedRange<Double>)? {
        scrollRange(of: slot(of: layer))
    }
    func scrollRange(of layer: Int) -> (x: ClosedRange<Double>, y: ClosedRange<Double>)? {
        guard let state = scrollView(of: layer) else { return nil }
        let limits = scrollLimits(state, width: columns.boundsWidth[layer], height: columns.boundsHeight[layer])
        // ClosedRange traps on NaN bounds, which non-finite input could produce.
        guard limits.minX <= limits.maxX, limits.minY <= limits.maxY else { return nil }
        return (limits.minX...limits.maxX, limits.minY...limits.maxY)
    }

    /// Scrolls to `offset` clamped to the valid range, like a user's drag that ends at
    /// the content's edge, then sets the contentOffset (so the clamped offset is rounded
    /// to pixels, see `setContentOffset(_:of:)`); returns the offset set.
    /// - Throws: `LayerStoreError.notAScrollView` (store unchanged) when the layer has no
    ///   contentSize; `.staleLayer` for a stale handle, `.foreignLayer` for another
    ///   store's.
    @discardableResult
    public mutating func scroll(_ layer: LayerHandle, to offset: Point) throws(LayerStoreError) -> Point {
        if let error = staleError(layer) { throw error }
        return try scroll(layer.index, to: offset)
    }
    @discardableResult
    mutating func scroll(_ layer: Int, to offset: Point) throws(LayerStoreError) -> Point {
        guard isLiveSlot(layer) else { throw LayerStoreError.staleLayer(staleHandleForError(layer)) }
        guard let state = columns.scrollViews[Int32(layer)] else {
            throw LayerStoreError.notAScrollView(layer: handle(atSlot: layer))
        }
        let limits = scrollLimits(state, width: columns.boundsWidth[layer], height: columns.boundsHeight[layer])
        let clamped = Point(
            x: Swift.min(Swift.max(offset.x, limits.minX), limits.maxX),
            y: Swift.min(Swift.max(offset.y, limits.minY), limits.maxY))
        setContentOffset(clamped, of: layer)
        return Point(x: columns.boundsX[layer], y: columns.boundsY[layer])
    }

    private func scrollLimits(_ state: ScrollViewState, width: Double, height: Double)
        -> (minX: Double, maxX: Double, minY: Double, maxY: Double)
    {
        let inset = state.contentInset
        // 0 - inset, not -inset: a zero inset must clamp to +0, not -0 (which would then
        // show up as a scroll offset of -0.0 in every output).
        let minX = 0 - inset.left
        let minY = 0 - inset.top
        let maxX = Swift.max(minX, (state.contentSize.width + inset.right) - width)
        let maxY = Swift.max(minY, (state.contentSize.height + inset.bottom) - height)
        return (minX, maxX, minY, maxY)
    }
}
