/// SplitMix64 (Steele, Lea and Flood, 2014): a tiny, fast, seedable generator. Its own
/// implementation so that a seed gives the same workload on every platform and Swift
/// version (the standard library's generator is neither seedable nor stable).
package struct SplitMix64: RandomNumberGenerator, Sendable {
    private var state: UInt64

    /// A generator whose whole sequence is fixed by `seed`.
    package init(seed: UInt64) { state = seed }

    /// The next 64 random bits. O(1).
    package mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// A number in `0 ..< bound` (Lemire's multiply-shift; the tiny bias of skipping the
    /// rejection step does not matter for workload shapes). `bound` must be positive.
    package mutating func next(below bound: Int) -> Int {
        precondition(bound > 0, "bound must be positive")
        return Int(next().multipliedFullWidth(by: UInt64(bound)).high)
    }
}
