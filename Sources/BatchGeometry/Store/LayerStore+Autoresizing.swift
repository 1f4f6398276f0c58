// Autoresizing (GEOMETRY.md section 4, section 9 X6): when a setter changes a layer's
// bounds size, its masked sublayers follow, proportionally to their flexible parts,
// depth first in sublayer order, without recursion.

extension LayerStore {
    /// Which parts of the layer's untransformed frame follow its superlayer's size.
    /// Bits other than the six flags are not stored (UIKit defines none). O(1).
    public func autoresizingMask(of layer: LayerHandle) -> AutoresizingMask {
        autoresizingMask(of: slot(of: layer))
    }
    func autoresizingMask(of layer: Int) -> AutoresizingMask {
        checkIndex(layer)
        return AutoresizingMask(rawValue: UInt(columns.autoresizingMasks[layer]))
    }
    /// Sets the mask; resizes nothing by itself (the next size change of the superlayer
    /// does). O(1).
    public mutating func setAutoresizingMask(_ mask: AutoresizingMask, of layer: LayerHandle) {
        setAutoresizingMask(mask, of: slotForUpdate(of: layer))
    }
    mutating func setAutoresizingMask(_ mask: AutoresizingMask, of layer: Int) {
        checkIndexForUpdate(layer)
        let stored = UInt8(truncatingIfNeeded: mask.rawValue & AutoresizingMask.all.rawValue)
        columns.autoresizingLayerCount += (stored != 0 ? 1 : 0) - (columns.autoresizingMasks[layer] != 0 ? 1 : 0)
        columns.autoresizingMasks[layer] = stored
    }

    /// Whether a change of this layer's bounds size resizes its masked sublayers
    /// (`UIView.autoresizesSubviews`, default true). O(1).
    public func autoresizesSubviews(_ layer: LayerHandle) -> Bool {
        autoresizesSubviews(slot(of: layer))
    }
    func autoresizesSubviews(_ layer: Int) -> Bool { !flag(.doesNotAutoresizeSubviews, layer) }
    public mutating func setAutoresizesSubviews(_ value: Bool, of layer: LayerHandle) {
        setAutoresizesSubviews(value, of: slotForUpdate(of: layer))
    }
    mutating func setAutoresizesSubviews(_ value: Bool, of layer: Int) {
        checkIndexForUpdate(layer)
        if value {
            columns.flags[layer].remove(.doesNotAutoresizeSubviews)
        } else {
            columns.flags[layer].insert(.doesNotAutoresizeSubviews)
        }
    }

    /// Called by the setters after they changed `layer`'s bounds: autoresizes its
    /// sublayers when the size changed (`!=` per dimension, as `CGSizeEqualToSize`).
    /// O(1) when no layer in the store has a mask; else O(the sublayers visited).
    @inline(__always)
    mutating func sizeDidChange(_ layer: Int, from oldWidth: Double, _ oldHeight: Double) {
        guard columns.autoresizingLayerCount > 0,
            columns.boundsWidth[layer] != oldWidth || columns.boundsHeight[layer] != oldHeight
        else { return }
        autoresizeSublayers(of: layer, oldWidth: oldWidth, oldHeight: oldHeight)
    }

    /// One superlayer whose sublayers are being resized: its old and new size, and the
    /// next sublayer to visit.
    private struct ResizeFrame {
        var superlayer: Int32
        var oldWidth: Double, oldHeight: Double
        var next: Int32
    }

    /// Resizes the masked sublayers of `top` (whose size was `oldWidth × oldHeight`),
    /// each one's own sublayers before its next sibling. An explicit stack, and a
    /// superlayer leaves it as its last sublayer is visited, so a chain of any depth
    /// uses O(1) stack.
    private mutating func autoresizeSublayers(of top: Int, oldWidth: Double, oldHeight: Double) {
        guard !columns.flags[top].contains(.doesNotAutoresizeSubviews) else { return }
        var stack = [
            ResizeFrame(
                superlayer: Int32(top), oldWidth: oldWidth, oldHeight: oldHeight,
                next: hierarchy.firstSublayers[top])
        ]
        while let frame = stack.last {
            let layer = Int(frame.next)
            if layer < 0 {
                stack.removeLast()
                continue
            }
            if hierarchy.nextSiblings[layer] >= 0 {
                stack[stack.count - 1].next = hierarchy.nextSiblings[layer]
            } else {
                stack.removeLast()
            }
            let mask = columns.autoresizingMasks[layer]
            if mask == 0 { continue }
            let width = columns.boundsWidth[layer]
            let height = columns.boundsHeight[layer]
            resize(
                layer, mask: mask, superlayer: Int(frame.superlayer), oldWidth: frame.oldWidth,
                oldHeight: frame.oldHeight)
            noteChange(layer, .geometry)
            if (columns.boundsWidth[layer] != width || columns.boundsHeight[layer] != height)
                && !columns.flags[layer].contains(.doesNotAutoresizeSubviews) && hierarchy.firstSublayers[layer] >= 0
            {
                stack.append(
                    ResizeFrame(
                        superlayer: Int32(layer), oldWidth: width, oldHeight: height,
                        next: hierarchy.firstSublayers[layer]))
            }
        }
    }

    /// Applies the mask to one sublayer, each axis on its own (GEOMETRY.md section 4).
    private mutating func resize(_ layer: Int, mask: UInt8, superlayer: Int, oldWidth: Double, oldHeight: Double) {
        let flags = AutoresizingMask(rawValue: UInt(mask))
        if let x = autoresizedAxis(
            position: columns.positionX[layer], anchor: columns.anchorX[layer], length: columns.boundsWidth[layer],
            superOrigin: columns.boundsX[superlayer], oldSuperLength: oldWidth,
            newSuperLength: columns.boundsWidth[superlayer],
            flexibleMin: flags.contains(.flexibleLeftMargin), flexibleLength: flags.contains(.flexibleWidth),
            flexibleMax: flags.contains(.flexibleRightMargin))
        {
            columns.boundsWidth[layer] = x.length
            columns.positionX[layer] = x.position
        }
        if let y = autoresizedAxis(
            position: columns.positionY[layer], anchor: columns.anchorY[layer], length: columns.boundsHeight[layer],
            superOrigin: columns.boundsY[superlayer], oldSuperLength: oldHeight,
            newSuperLength: columns.boundsHeight[superlayer],
            flexibleMin: flags.contains(.flexibleTopMargin), flexibleLength: flags.contains(.flexibleHeight),
            flexibleMax: flags.contains(.flexibleBottomMargin))
        {
            columns.boundsHeight[layer] = y.length
            columns.positionY[layer] = y.position
        }
    }
}

/// One axis of autoresizing, in GEOMETRY.md section 4's operation order (x shown; y is
/// the same with top, height, bottom). The untransformed frame's origin is
/// `x = position - anchor*w`; the parts are the margin `p = x - superOrigin`, the length
/// `w` and the far margin `r = (W - p) - w`; `d = W' - W`; `T` is the sum of the
/// flexible parts, left to right. Each flexible part `q` becomes `q + (d*q)/T`, or
/// `q + d/n` when `T == 0` (n flexible parts). Returns the new length and position
/// (`(superOrigin + p') + anchor*w'`), or nil when no part is flexible (nothing changes).
@inlinable
func autoresizedAxis(
    position: Double, anchor: Double, length w: Double, superOrigin: Double,
    oldSuperLength: Double, newSuperLength: Double,
    flexibleMin: Bool, flexibleLength: Bool, flexibleMax: Bool
)
    -> (length: Double, position: Double)?
{
    guard flexibleMin || flexibleLength || flexibleMax else { return nil }
    let p = (position - (anchor * w)) - superOrigin
    let r = (oldSuperLength - p) - w
    let d = newSuperLength - oldSuperLength
    // T: the first flexible part, then each later one added (no leading 0 + p).
    var t = 0.0
    var n = 0.0
    if flexibleMin {
        t = p
        n = 1
    }
    if flexibleLength {
        t = n == 0 ? w : t + w
        n += 1
    }
    if flexibleMax {
        t = n == 0 ? r : t + r
        n += 1
    }
    func grown(_ q: Double) -> Double { t != 0 ? q + (d * q) / t : q + d / n }
    let newP = flexibleMin ? grown(p) : p
    let newLength = flexibleLength ? grown(w) : w
    return (newLength, (superOrigin + newP) + (anchor * newLength))
}
