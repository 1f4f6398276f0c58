import BatchGeometry

/// Deterministic query points for the hit-test and conversion benchmarks.
package enum QueryPoints {
    /// `count` world points spread over the area the standard workloads cover (x in
    /// 0 ..< 400, y in 0 ..< 560: positions reach 3*96 and 5*88 plus layer sizes), from
    /// a seeded generator so every run asks the same questions.
    package static func world(count: Int, seed: UInt64 = 7) -> [Point] {
        var generator = SplitMix64(seed: seed)
        return (0..<Swift.max(0, count)).map { _ in
            Point(x: Double(generator.next(below: 400_000)) / 1000, y: Double(generator.next(below: 560_000)) / 1000)
        }
    }

    /// `count` points inside a layer's bounds-sized box `(0, 0, width, height)`, for
    /// conversions out of a layer's own space.
    package static func local(count: Int, width: Double, height: Double, seed: UInt64 = 11) -> [Point] {
        var generator = SplitMix64(seed: seed)
        return (0..<Swift.max(0, count)).map { _ in
            Point(
                x: Double(generator.next(below: 1 << 20)) / Double(1 << 20) * width,
                y: Double(generator.next(below: 1 << 20)) / Double(1 << 20) * height)
        }
    }
}
