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

/// A batch-kernel implementation. All give bit-identical frames and setter results;
/// hierarchical results agree with the scalar reference to 1e-12 relative.
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

/// How a batch kernel runs: which backend, and over how many threads.
///
/// `KernelOptions.default` reads `BATCHGEOMETRY_BACKEND` (`scalar`, `simd` or `c`; `c`
/// when unset) and `BATCHGEOMETRY_THREADS` (a positive count; the active processor count
/// when unset) once, so any result can be reproduced on any backend without
/// recompiling. A value it cannot use (an unknown backend, a thread count that is not a
/// positive integer, a `BATCHGEOMETRY_C_KERNEL` this build or CPU cannot run) stops the
/// program with a message naming the variable, rather than silently running something
/// else; `environmentProblem` says the same without stopping.
public struct KernelOptions: Sendable, Hashable {
    /// The backend. Choosing `.c` (here or in an initializer) stops the program when
    /// `BATCHGEOMETRY_C_KERNEL` names an instruction set this build or CPU cannot run.
    public var backend: Backend {
        didSet { if backend == .c { Self.requireUsableCKernel() } }
    }
    /// Threads to spread a batch over, at least 1. Results do not depend on it.
    public var threads: Int
    /// Whether world propagation may take the translate and scale-translate paths of
    /// blocks whose locals allow them (same bits either way); false forces the affine
    /// kernel, which tests compare against.
    var transformKindPaths = true

    public init(backend: Backend = KernelOptions.default.backend, threads: Int = KernelOptions.default.threads) {
        self.backend = backend
        self.threads = Swift.max(1, threads)
        if backend == .c { Self.requireUsableCKernel() }
    }

    /// Stops with the message of `BGKernelEnvironmentProblem` when there is one: options
    /// that never read `KernelOptions.default` would otherwise run another instruction set
    /// than the one `BATCHGEOMETRY_C_KERNEL` asks for, silently (C cannot report it).
    static func requireUsableCKernel() {
        if let problem = BGKernelEnvironmentProblem() { misuse(String(cString: problem), file: #file, line: #line) }
    }

    /// The options from the environment (see the type's documentation).
    public static let `default`: KernelOptions = {
        if let problem = environmentProblem { misuse(problem, file: #file, line: #line) }
        let backend = environmentValue("BATCHGEOMETRY_BACKEND").flatMap { Backend(rawValue: $0.lowercased()) } ?? .c
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
            ?? BGKernelEnvironmentProblem().map { String(cString: $0) }
    }

    /// The check of `BATCHGEOMETRY_BACKEND` and `BATCHGEOMETRY_THREADS` values.
    static func environmentProblem(backend: String?, threads: String?) -> String? {
        if let backend, !backend.isEmpty, Backend(rawValue: backend.lowercased()) == nil {
            return "BATCHGEOMETRY_BACKEND=\(backend) is not a backend (expected scalar, simd or c)"
        }
        if let threads, !threads.isEmpty, (Int(threads) ?? 0) <= 0 {
            return "BATCHGEOMETRY_THREADS=\(threads) is not a positive number of threads"
        }
        return nil
    }

    private init(backend: Backend, threads: Int, validated: Void) {
        self.backend = backend
        self.threads = Swift.max(1, threads)
    }

    /// One thread, the given backend.
    public static func serial(_ backend: Backend) -> KernelOptions { KernelOptions(backend: backend, threads: 1) }
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
