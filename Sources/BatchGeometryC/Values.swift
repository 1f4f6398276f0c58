// Reading and writing the C interface's arrays of doubles (batchgeometry.h, "Numbers"),
// checking pointers and capacities, and resolving backend and thread arguments.

import BatchGeometry
import CAffineKernels
import CBatchGeometry

/// `pointer`, or `.null(name)` when it is NULL.
@inline(__always)
func required<Pointee>(_ pointer: UnsafeMutablePointer<Pointee>?, _ name: String) throws(CFailure)
    -> UnsafeMutablePointer<Pointee>
{
    guard let pointer else { throw CFailure.null(name) }
    return pointer
}

/// `pointer`, or `.null(name)` when it is NULL.
@inline(__always)
func required<Pointee>(_ pointer: UnsafePointer<Pointee>?, _ name: String) throws(CFailure) -> UnsafePointer<Pointee> {
    guard let pointer else { throw CFailure.null(name) }
    return pointer
}

/// A `size_t` as Swift imports it (`Int`): values above `Int.max` arrive negative and
/// mean "more than anything", so they become `Int.max`.
@inline(__always)
func sizeArgument(_ value: Int) -> Int { value < 0 ? .max : value }

/// A `size_t` argument as C passed it, for messages: `SIZE_MAX` is 18446744073709551615.
@inline(__always)
func sizeValue(_ value: Int) -> UInt { UInt(bitPattern: value) }

/// Checks that a buffer of `capacity` entries holds `needed`.
@inline(__always)
func checkCapacity(_ capacity: Int, needed: Int) throws(CFailure) {
    if sizeArgument(capacity) < needed {
        throw CFailure.bufferTooSmall("capacity \(sizeValue(capacity)) is too small: \(needed) needed")
    }
}

/// The bytes of this platform's user address space: no buffer of the caller's can be
/// larger (x86-64: 2^47; arm64 and others: 2^48).
#if arch(x86_64)
let addressSpaceBytes: UInt = 1 << 47
#else
let addressSpaceBytes: UInt = 1 << 48
#endif

/// The count `count` (argument `name`) of a caller's array of `unit`, `bytesEach` bytes
/// each: `.invalid` naming the argument when the array would not fit in the address
/// space, checked before anything is read or allocated.
func bufferCount(_ count: Int, _ name: String, unit: String, bytesEach: UInt) throws(CFailure) -> Int {
    let limit = addressSpaceBytes / bytesEach
    guard sizeValue(count) <= limit else {
        let each = bytesEach == 1 ? "" : ", \(bytesEach) bytes each"
        throw CFailure.invalid(
            "\(name) \(sizeValue(count)) is too large: more \(unit) than the address space holds (at most \(limit) "
                + "\(unit)\(each))")
    }
    return count
}

/// The count of an input array of points (2 doubles each): `bufferCount`.
@inline(__always)
func pointCount(_ count: Int) throws(CFailure) -> Int {
    try bufferCount(count, "count", unit: "points", bytesEach: 16)
}

/// Points a batch call reads into the store's point buffer at a time, so that the copy
/// it makes stays at 1 MB whatever the count.
let pointChunk = 1 << 16

/// A capacity for `reserveCapacity`: at most `LayerStore.maximumLayerCount`.
func layerCapacity(_ argument: Int) throws(CFailure) -> Int {
    let capacity = sizeArgument(argument)
    guard capacity <= LayerStore.maximumLayerCount else {
        throw CFailure.invalid(
            "capacity \(sizeValue(argument)) is more than a store holds (\(LayerStore.maximumLayerCount) layers)")
    }
    return capacity
}

/// Writes `handles` (variable length) with the buffer rules of the header: `count` must
/// not be NULL, `out` only when `capacity` is 0; when `out` is too small, `*count` is the
/// number needed and nothing else is written.
func writeHandles(
    _ handles: [LayerHandle], to out: UnsafeMutablePointer<bg_layer>?, capacity: Int,
    count: UnsafeMutablePointer<Int>?
) throws(CFailure) {
    let count = try required(count, "count")
    if capacity != 0 && out == nil { throw CFailure.null("out") }
    if sizeArgument(capacity) < handles.count {
        count.pointee = handles.count
        try checkCapacity(capacity, needed: handles.count)
    }
    for (k, handle) in handles.enumerated() { out![k] = handle.rawValue }
    count.pointee = handles.count
}

extension Point {
    /// From `{x, y}`.
    @inline(__always)
    init(c pointer: UnsafePointer<Double>) {
        self.init(x: pointer[0], y: pointer[1])
    }

    /// Writes `{x, y}`.
    @inline(__always)
    func write(to pointer: UnsafeMutablePointer<Double>) {
        pointer[0] = x
        pointer[1] = y
    }
}

extension Rect {
    /// From `{x, y, width, height}`.
    @inline(__always)
    init(c pointer: UnsafePointer<Double>) {
        self.init(x: pointer[0], y: pointer[1], width: pointer[2], height: pointer[3])
    }

    /// Writes `{x, y, width, height}`.
    @inline(__always)
    func write(to pointer: UnsafeMutablePointer<Double>) {
        pointer[0] = x
        pointer[1] = y
        pointer[2] = width
        pointer[3] = height
    }
}

extension RectEdges {
    /// Writes `{minX, minY, maxX, maxY}`.
    @inline(__always)
    func write(to pointer: UnsafeMutablePointer<Double>) {
        pointer[0] = minX
        pointer[1] = minY
        pointer[2] = maxX
        pointer[3] = maxY
    }

    /// The clip of a layer no ancestor masks: the whole plane.
    static let unclipped = RectEdges(minX: -.infinity, minY: -.infinity, maxX: .infinity, maxY: .infinity)
}

extension Transform3D {
    /// From 16 doubles, row-major `m11 … m44`.
    @inline(__always)
    init(c p: UnsafePointer<Double>) {
        self.init(
            m11: p[0], m12: p[1], m13: p[2], m14: p[3], m21: p[4], m22: p[5], m23: p[6], m24: p[7],
            m31: p[8], m32: p[9], m33: p[10], m34: p[11], m41: p[12], m42: p[13], m43: p[14], m44: p[15])
    }

    /// Writes 16 doubles, row-major.
    @inline(__always)
    func write(to p: UnsafeMutablePointer<Double>) {
        p[0] = m11
        p[1] = m12
        p[2] = m13
        p[3] = m14
        p[4] = m21
        p[5] = m22
        p[6] = m23
        p[7] = m24
        p[8] = m31
        p[9] = m32
        p[10] = m33
        p[11] = m34
        p[12] = m41
        p[13] = m42
        p[14] = m43
        p[15] = m44
    }
}

extension AffineTransform {
    /// From `{a, b, c, d, tx, ty}`.
    @inline(__always)
    init(c p: UnsafePointer<Double>) {
        self.init(a: p[0], b: p[1], c: p[2], d: p[3], tx: p[4], ty: p[5])
    }

    /// Writes `{a, b, c, d, tx, ty}`.
    @inline(__always)
    func write(to p: UnsafeMutablePointer<Double>) {
        p[0] = a
        p[1] = b
        p[2] = c
        p[3] = d
        p[4] = tx
        p[5] = ty
    }
}

/// The process's default options, or `.environment` when a `BATCHGEOMETRY_*` variable is
/// unusable (checked first: `KernelOptions.default` would stop the program on it).
func processDefaultOptions() throws(CFailure) -> KernelOptions {
    if let problem = KernelOptions.environmentProblem { throw CFailure.environment(problem) }
    return .default
}

/// Options from the C arguments: a `BG_BACKEND_` constant and a thread count (0: the
/// process default). Unknown backends and negative counts are `.invalid`.
func kernelOptions(backend: Int32, threads: Int32) throws(CFailure) -> KernelOptions {
    guard threads >= 0 else {
        throw CFailure.invalid("threads must be 0 (the process default) or a positive count, got \(threads)")
    }
    let chosen: Backend?
    switch Int(backend) {
    case Int(BG_BACKEND_DEFAULT): chosen = nil
    case Int(BG_BACKEND_SCALAR): chosen = .scalar
    case Int(BG_BACKEND_SIMD): chosen = .simd
    case Int(BG_BACKEND_C): chosen = .c
    default:
        throw CFailure.invalid(
            "\(backend) is not a backend (BG_BACKEND_DEFAULT 0, BG_BACKEND_SCALAR 1, BG_BACKEND_SIMD 2, BG_BACKEND_C 3)"
        )
    }
    // Checked first: KernelOptions stops the program on an unusable BATCHGEOMETRY_C_KERNEL
    // when the C backend is chosen.
    if chosen == .c, let problem = BGKernelEnvironmentProblem() {
        throw CFailure.environment(String(cString: problem))
    }
    let defaults = chosen == nil || threads == 0 ? try processDefaultOptions() : nil
    return KernelOptions(
        backend: chosen ?? defaults!.backend, threads: threads == 0 ? defaults!.threads : Int(threads))
}

/// The `BG_BACKEND_` constant of `backend`.
func backendConstant(_ backend: Backend) -> Int32 {
    switch backend {
    case .scalar: return Int32(BG_BACKEND_SCALAR)
    case .simd: return Int32(BG_BACKEND_SIMD)
    case .c: return Int32(BG_BACKEND_C)
    }
}

/// The hit-test rule of a `BG_HIT_TEST_` constant.
func hitTestRule(_ rule: Int32) throws(CFailure) -> HitTestRule {
    switch Int(rule) {
    case Int(BG_HIT_TEST_LAYER): return .layer
    case Int(BG_HIT_TEST_VIEW): return .view
    default: throw CFailure.invalid("\(rule) is not a hit-test rule (BG_HIT_TEST_LAYER 0, BG_HIT_TEST_VIEW 1)")
    }
}
