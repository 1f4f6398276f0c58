/// The one seedable generator of the test suite (SplitMix64, Steele et al. 2014), so
/// every "random" case reproduces from its seed on every platform (the standard
/// library's generator is not seedable).
struct SplitMix64: RandomNumberGenerator {
    var state: UInt64

    init(seed: UInt64) { state = seed }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// An integer in `0 ..< bound` (bound > 0; the modulo bias is irrelevant for tests).
    mutating func below(_ bound: Int) -> Int { Int(next() % UInt64(bound)) }

    /// A double in [0, 1), with 53 random bits.
    mutating func unit() -> Double { Double(next() >> 11) / Double(1 << 53) }

    /// A double in `range`, with 53 random bits.
    mutating func value(in range: ClosedRange<Double>) -> Double {
        range.lowerBound + unit() * (range.upperBound - range.lowerBound)
    }
}
