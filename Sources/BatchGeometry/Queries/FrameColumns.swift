/// The frames of many layers, struct-of-arrays: `x[i], y[i], width[i], height[i]` is
/// layer i's frame in its superlayer's space.
public struct FrameColumns: Sendable, Equatable {
    public internal(set) var x: [Double]
    public internal(set) var y: [Double]
    public internal(set) var width: [Double]
    public internal(set) var height: [Double]

    /// `count` zero frames.
    public init(count: Int) {
        x = Array(repeating: 0, count: count)
        y = x
        width = x
        height = x
    }

    public var count: Int { x.count }

    /// Layer i's frame. O(1).
    /// The frame of `layer` (`self[layer.index]`). The handle's generation is not
    /// checked here: frames are a snapshot, and the store checks handles. O(1).
    public subscript(layer: LayerHandle) -> Rect { self[layer.index] }

    public subscript(layer: Int) -> Rect {
        Rect(x: x[layer], y: y[layer], width: width[layer], height: height[layer])
    }

    /// True when both hold the same bits in every entry, the check backends are held to.
    /// Any NaN matches any NaN: IEEE-754 leaves the payload of a NaN made from two NaNs
    /// open, and compilers may swap a commutative operation's operands.
    @_spi(Testing) public func isBitIdentical(to other: FrameColumns) -> Bool {
        guard count == other.count else { return false }
        func same(_ p: [Double], _ q: [Double]) -> Bool {
            zip(p, q).allSatisfy { $0.bitPattern == $1.bitPattern || ($0.isNaN && $1.isNaN) }
        }
        return same(x, other.x) && same(y, other.y) && same(width, other.width) && same(height, other.height)
    }
}
