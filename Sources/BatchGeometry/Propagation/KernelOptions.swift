import CAffineKernels

// Which backend and how many threads every batch kernel uses.

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#elseif canImport(ucrt)
import ucrt
#endif

/// A batch-kernel implementation: a verification and benchmark axis. Every backend gives
/// bit-identical results (frames, world transforms, rects); hierarchical results agree
/// with the scalar reference to 1e-12 relative. Nothing needs to choose one:
/// `KernelOptions.default` runs each kernel on the backend measured fastest for it
/// (`KernelOptions.backend` nil), and forcing one backend for every kernel can only make
/// some kernel slower. Tests and `batchbench --backends` force each in turn.
public enum Backend: String, Sendable, CaseIterable, CustomStringConvertible {
    /// The plain Swift reference, one layer at a time, exactly as GEOMETRY.md reads.
    case scalar
    /// Swift `SIMD4<Double>`: four layers per lane group.
    case simd
    /// The C module `CAffineKernels`, whose instruction set (AVX-512, AVX2, NEON or
    /// portable) is chosen at run time from the CPU.
    case c

    public var description: String { rawValue }
}

/// The kernels a backend implements, and the backend each runs on when none is forced
/// (`KernelOptions.backend` nil): the one measured fastest for it, at 10,000 and 100,000
/// layers on one thread (Benchmarks/KERNELS.md, "One backend per kernel"), the way
/// Skia's SkOpts overrides only the functions a target improves. Kernels with one
/// implementation (the hit tests, conversion) are not listed.
enum BackendKernel: CaseIterable {
    /// `computeFrames`: every layer's frame (streaming).
    case frames
    /// The planar world kernel over one level of the level layout (no dependences
    /// inside the range: SIMD gathers four superlayers at once).
    case worldLevel
    /// The planar world kernel over a stretch with dependences inside it: merged
    /// narrow levels, a chain, the subtree layout's blocks, the index-order pass (SIMD
    /// runs its scalar lane code there).
    case worldSerial
    /// The 4×4 kernel of the general (3D) layers.
    case worldGeneral
    /// The incremental update's short runs gathered into lists, and its translation-only
    /// recomputations.
    case worldList
    /// The batch world rects (scalar: the projection per layer; SIMD and C: the planar
    /// fast path, one Swift loop).
    case worldRects

    /// The backend this kernel runs on by default.
    var automaticBackend: Backend {
        // Main's binary, 1 thread, µs at 100k (scalar / simd / c), medians of 10 runs.
        switch self {
        case .frames: return .c  // standard 430 / 450 / 229
        case .worldLevel: return .simd  // standard world 691 / 482 / 581; ui 399 / 422 / 529
        case .worldSerial: return .c  // random world 2258 / 2068 / 1806; chain 1168 / 1185 / 1076
        case .worldGeneral: return .c  // 3d world 4230 / 3046 / 2361
        case .worldList: return .c  // a tie at 10k and 100k; C's list kernel prefetches (1M)
        case .worldRects: return .c  // the fast path: 1924 / 743 / 772 (simd = c: one loop)
        }
    }
}

/// How a batch kernel runs: which backend, and over how many threads.
///
/// `KernelOptions.default` reads `BATCHGEOMETRY_BACKEND` (`scalar`, `simd` or `c` force
/// that backend for every kernel; `auto`, empty or unset: each kernel on its measured
/// best) and `BATCHGEOMETRY_THREADS` (a positive count; the active processor count when
/// unset) once, so any result can be reproduced on any backend without recompiling.
/// `BATCHGEOMETRY_SPLIT` (`blocks`, the default, or `claim`) picks how a split's threads
/// share its tasks (a many-core measurement knob; same results). A
/// value it cannot use (an unknown backend, a thread count that is not a positive
/// integer, a `BATCHGEOMETRY_C_KERNEL` this build or CPU cannot run) stops the program
/// with a message naming the variable, rather than silently running something else;
/// `environmentProblem` says the same without stopping.
public struct KernelOptions: Sendable, Hashable {
    /// The backend every kernel runs on, or nil (the default): each kernel on the backend
    /// measured fastest for it (frames and the 4×4 world kernel on C, a wide level of the
    /// planar world pass on SIMD4; Benchmarks/KERNELS.md). Same bits either way. Forcing
    /// one is for verification and benchmarks. Choosing `.c` or nil (here or in an
    /// initializer) stops the program when `BATCHGEOMETRY_C_KERNEL` names an
    /// instruction set this build or CPU cannot run.
    public var backend: Backend? {
        didSet { if backend != .scalar && backend != .simd { Self.requireUsableCKernel() } }
    }
    /// Threads to spread a batch over, at least 1. Results do not depend on it.
    public var threads: Int
    /// Whether world propagation may take the translate and scale-translate paths of
    /// blocks whose locals allow them (same bits either way); false forces the affine
    /// kernel, which tests compare against.
    var transformKindPaths = true
    /// The incremental range walk splits a level over `threads` when it has at least
    /// `levelSplitMinimum` layers to compute, in tasks of at most `levelSplitGrain`
    /// (`RangeWalk.finishLevel`); tests lower them to split small trees.
    var levelSplitMinimum = LayerStore.incrementalLevelSplitMinimum
    var levelSplitGrain = LayerStore.parallelGrain

    public init(backend: Backend? = KernelOptions.default.backend, threads: Int = KernelOptions.default.threads) {
        self.backend = backend
        self.threads = Swift.max(1, threads)
        if backend != .scalar && backend != .simd { Self.requireUsableCKernel() }
    }

    /// The backend `kernel` runs on: the forced one, or the kernel's measured best.
    @inline(__always)
    func backend(for kernel: BackendKernel) -> Backend { backend ?? kernel.automaticBackend }

    /// Stops with the message of `BGKernelEnvironmentProblem` when there is one: options
    /// that never read `KernelOptions.default` would otherwise run another instruction set
    /// than the one `BATCHGEOMETRY_C_KERNEL` asks for, silently (C cannot report it).
    static func requireUsableCKernel() {
        if let problem = BGKernelEnvironmentProblem() { misuse(String(cString: problem), file: #file, line: #line) }
    }

    /// The options from the environment (see the type's documentation).
    public static let `default`: KernelOptions = {
        if let problem = environmentProblem { misuse(problem, file: #file, line: #line) }
        let backend = environmentValue("BATCHGEOMETRY_BACKEND").flatMap { Backend(rawValue: $0.lowercased()) }
        let threads = environmentValue("BATCHGEOMETRY_THREADS").flatMap { Int($0) }
        return KernelOptions(backend: backend, threads: threads ?? activeProcessorCount, validated: ())
    }()

    /// What is wrong with the `BATCHGEOMETRY_*` variables of this process, or nil when
    /// each is unset, empty or usable (see the type's documentation). Tools check it at
    /// startup to exit with a message instead of stopping at the first kernel call.
    public static var environmentProblem: String? {
        environmentProblem(
            backend: environmentValue("BATCHGEOMETRY_BACKEND"),
            threads: environmentValue("BATCHGEOMETRY_THREADS"))
            ?? SplitSchedule.environmentProblem(environmentValue("BATCHGEOMETRY_SPLIT"))
            ?? BGKernelEnvironmentProblem().map { String(cString: $0) }
    }

    /// The check of `BATCHGEOMETRY_BACKEND` and `BATCHGEOMETRY_THREADS` values.
    static func environmentProblem(backend: String?, threads: String?) -> String? {
        if let backend, !backend.isEmpty, backend.lowercased() != "auto", Backend(rawValue: backend.lowercased()) == nil
        {
            return "BATCHGEOMETRY_BACKEND=\(backend) is not a backend (expected scalar, simd, c or auto)"
        }
        if let threads, !threads.isEmpty, (Int(threads) ?? 0) <= 0 {
            return "BATCHGEOMETRY_THREADS=\(threads) is not a positive number of threads"
        }
        return nil
    }

    private init(backend: Backend?, threads: Int, validated: Void) {
        self.backend = backend
        self.threads = Swift.max(1, threads)
    }

    /// One thread, the given backend (nil: each kernel's measured best).
    public static func serial(_ backend: Backend?) -> KernelOptions { KernelOptions(backend: backend, threads: 1) }
}

/// The processors available to this process (what `ProcessInfo.activeProcessorCount`
/// reports, without Foundation).
@_spi(Testing) public var activeProcessorCount: Int {
    #if canImport(Glibc) || canImport(Musl) || canImport(Darwin)
    let count = sysconf(Int32(_SC_NPROCESSORS_ONLN))
    return count > 0 ? Int(count) : 1
    #else
    return 1
    #endif
}

func environmentValue(_ name: String) -> String? {
    guard let value = getenv(name) else { return nil }
    return String(cString: value)
}

extension KernelOptions {
    /// The instruction set the C backend runs on this machine: `"avx512"`, `"avx2"`,
    /// `"neon"` or `"portable"`. Chosen once per process from the CPU's features, or
    /// forced with `BATCHGEOMETRY_C_KERNEL` (a value this CPU cannot run is reported by
    /// `environmentProblem`, and `KernelOptions.default` stops on it). O(1) after the
    /// first call.
    public static var cInstructionSet: String { String(cString: BGKernelBackendName()) }
}
