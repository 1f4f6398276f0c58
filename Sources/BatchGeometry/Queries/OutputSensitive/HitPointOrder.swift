// The order a batch of culled hit tests takes its points in: near points one after
// another (a Z-order curve over a grid on the points' box), so that consecutive walks go
// down the same subtrees and find their extents, flags and world maps still in cache.
// Each point's answer does not depend on the order; only the memory traffic does.

/// Reusable buffers for `HitPointOrder.sort`: kept in `WalkScratch` so a warmed-up batch
/// allocates nothing.
struct HitPointOrder: Sendable {
    /// Point indices in walk order (after `sort`).
    var order: [Int32] = []
    /// Per grid cell (in Z order), the start of its points in `order`; one more entry.
    var cellStarts: [Int32] = []

    /// Batches smaller than this are walked in the order given: too few points to share
    /// a path, and the grid's counts would cost more than the walks save.
    static let smallestSortedBatch = 64
    /// Cells a side of the grid (a power of two; 6 bits a coordinate in the Z code).
    static let side = 64

    /// Fills `order` with `0 ..< points.count` sorted by the Z-order cell of each point in
    /// a `side` × `side` grid over the finite points' box (a point with a non-finite
    /// coordinate goes in cell 0); stable within a cell. O(n + side²), a counting sort.
    mutating func sort(_ points: [Point]) {
        let grid = Grid(points)
        Self.fill(&cellStarts, count: Self.side * Self.side + 1)
        var k = 0
        while k < points.count {  // not `for in`: its iterator allocates unoptimized
            cellStarts[grid.cell(of: points[k]) + 1] += 1
            k += 1
        }
        var cell = 1
        while cell < cellStarts.count {
            cellStarts[cell] += cellStarts[cell - 1]
            cell += 1
        }
        Self.fill(&order, count: points.count)
        k = 0
        while k < points.count {
            let cell = grid.cell(of: points[k])
            order[Int(cellStarts[cell])] = Int32(k)
            cellStarts[cell] += 1
            k += 1
        }
    }

    /// Makes `array` `count` zeros, keeping its storage. O(count).
    private static func fill(_ array: inout [Int32], count: Int) {
        array.removeAll(keepingCapacity: true)
        var k = 0
        while k < count {
            array.append(0)
            k += 1
        }
    }

    /// Bytes allocated for the two buffers. O(1).
    var allocatedByteCount: Int { allocatedBytes(order) + allocatedBytes(cellStarts) }

    /// The grid over the finite points' box.
    private struct Grid {
        var minX = Double.infinity, minY = Double.infinity
        var scaleX = 0.0, scaleY = 0.0

        init(_ points: [Point]) {
            var maxX = -Double.infinity
            var maxY = -Double.infinity
            var k = 0
            while k < points.count {
                let point = points[k]
                if point.x.isFinite && point.y.isFinite {
                    (minX, maxX) = (Swift.min(minX, point.x), Swift.max(maxX, point.x))
                    (minY, maxY) = (Swift.min(minY, point.y), Swift.max(maxY, point.y))
                }
                k += 1
            }
            // A zero or overflowing span: every point in one column (or row).
            let side = Double(HitPointOrder.side)
            let spanX = maxX - minX
            let spanY = maxY - minY
            scaleX = spanX > 0 && spanX.isFinite ? side / spanX : 0
            scaleY = spanY > 0 && spanY.isFinite ? side / spanY : 0
        }

        /// The Z-order index of `point`'s cell (0 for a non-finite point). O(1).
        func cell(of point: Point) -> Int {
            guard point.x.isFinite && point.y.isFinite else { return 0 }
            return Self.spread(Self.column((point.x - minX) * scaleX))
                | Self.spread(Self.column((point.y - minY) * scaleY)) << 1
        }

        /// `value` cut to a cell column `0 ..< side` (NaN: 0).
        private static func column(_ value: Double) -> Int {
            let last = Double(HitPointOrder.side - 1)
            return value >= 1 ? (value < last ? Int(value) : HitPointOrder.side - 1) : 0
        }

        /// The 6 bits of `bits` moved to the even bit positions.
        private static func spread(_ bits: Int) -> Int {
            var x = bits & 0x3F
            x = (x | x << 4) & 0x0F0F
            x = (x | x << 2) & 0x3333
            x = (x | x << 1) & 0x5555
            return x
        }
    }
}
