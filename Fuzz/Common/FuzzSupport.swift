// Shared by the fuzz targets (the FuzzSupport target, declared with them in Package.swift
// when BATCHGEOMETRY_FUZZ is set; see scripts/fuzz.sh): reading structured values out of
// the fuzzer's bytes, and the comparisons the oracles use. Only the library's public API.

import BatchGeometry

/// Reads bytes front to back; past the end it yields zeros, so every input decodes.
public struct FuzzInput {
    private let bytes: UnsafeBufferPointer<UInt8>
    private var offset = 0

    public init(_ bytes: UnsafeBufferPointer<UInt8>) { self.bytes = bytes }

    public var isExhausted: Bool { offset >= bytes.count }

    public mutating func byte() -> UInt8 {
        guard offset < bytes.count else { return 0 }
        defer { offset += 1 }
        return bytes[offset]
    }

    public mutating func int(below bound: Int) -> Int { bound <= 1 ? 0 : Int(byte()) % bound }
    public mutating func bool() -> Bool { byte() & 1 == 1 }

    /// Values that break naive geometry code, plus raw doubles for everything else.
    public static let palette: [Double] = [
        0, -0.0, 1, -1, 0.5, 2, 10, 100, 375, 812, 1.0 / 3, -7.25, 1e-300, .leastNonzeroMagnitude, 1e300,
        .greatestFiniteMagnitude, -.greatestFiniteMagnitude, .infinity, -.infinity, .nan,
        -Double.nan, Double(bitPattern: 0x7FF0_0000_0000_0001),  // a signalling NaN
    ]

    /// A double: usually from the palette, sometimes 8 raw bytes (any bit pattern).
    public mutating func double() -> Double {
        let selector = byte()
        if selector < 200 { return Self.palette[Int(selector) % Self.palette.count] }
        var bits: UInt64 = 0
        for _ in 0..<8 { bits = bits << 8 | UInt64(byte()) }
        return Double(bitPattern: bits)
    }

    /// A finite, moderate double (for inputs whose layers the oracle compares with a
    /// tolerance): small integers and halves.
    public mutating func moderate() -> Double { Double(Int(byte()) - 128) / 2 }
}

/// Same bits, or both NaN (a NaN's payload may depend on operand order).
public func sameBits(_ p: Double, _ q: Double) -> Bool { p.bitPattern == q.bitPattern || (p.isNaN && q.isNaN) }

public func sameBits(_ p: Point?, _ q: Point?) -> Bool {
    switch (p, q) {
    case (nil, nil): return true
    case (let p?, let q?): return sameBits(p.x, q.x) && sameBits(p.y, q.y)
    default: return false
    }
}

public func sameBits(_ p: RectEdges?, _ q: RectEdges?) -> Bool {
    switch (p, q) {
    case (nil, nil): return true
    case (let p?, let q?):
        return sameBits(p.minX, q.minX) && sameBits(p.minY, q.minY) && sameBits(p.maxX, q.maxX)
            && sameBits(p.maxY, q.maxY)
    default: return false
    }
}

/// Hierarchical results agree with the reference "to 1e-12 relative" (GEOMETRY.md
/// section 1), measured against the matrix's largest entry, since different but valid
/// operation orders differ by rounding relative to the terms' size, not the entry's.
public func agrees(_ value: Transform3D, _ reference: Transform3D) -> Bool {
    let lhs = value.rowMajor
    let rhs = reference.rowMajor
    let scale = rhs.reduce(1.0) { Swift.max($0, Swift.abs($1)) }
    for (p, q) in zip(lhs, rhs) where !(p == q || (p.isNaN && q.isNaN)) {
        if !(Swift.abs(p - q) <= 1e-12 * 64 * scale) { return false }
    }
    return true
}

/// Stops the fuzzer with a message that says which oracle failed and how.
public func fuzzFailure(_ message: String) -> Never {
    fatalError("oracle failed: \(message)")
}
