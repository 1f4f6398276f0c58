import CAffineKernels
import XCTest

@testable import BatchGeometry

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The BATCHGEOMETRY_* overrides fail loudly on a value that cannot be used, instead of
/// silently running another backend (the stop itself: scripts/eval-errors.sh, through
/// batchbench's exit status 2).
final class EnvironmentTests: XCTestCase {
    func testBackendAndThreadValues() {
        XCTAssertNil(KernelOptions.environmentProblem(backend: nil, threads: nil))
        XCTAssertNil(KernelOptions.environmentProblem(backend: "", threads: ""))
        XCTAssertNil(KernelOptions.environmentProblem(backend: "SIMD", threads: "3"))
        XCTAssertNil(KernelOptions.environmentProblem(backend: "auto", threads: nil))
        XCTAssertNil(KernelOptions.environmentProblem(backend: "AUTO", threads: nil))
        XCTAssertEqual(
            KernelOptions.environmentProblem(backend: "gpu", threads: nil),
            "BATCHGEOMETRY_BACKEND=gpu is not a backend (expected scalar, simd, c or auto)")
        for threads in ["0", "-2", "many", "1.5"] {
            XCTAssertEqual(
                KernelOptions.environmentProblem(backend: "c", threads: threads),
                "BATCHGEOMETRY_THREADS=\(threads) is not a positive number of threads")
        }
    }

    func testSplitValues() {
        for good in [nil, "", "claim", "Blocks"] { XCTAssertNil(SplitSchedule.environmentProblem(good)) }
        XCTAssertEqual(
            SplitSchedule.environmentProblem("spread"),
            "BATCHGEOMETRY_SPLIT=spread is not a split schedule (expected blocks or claim)")
    }

    func testCKernelValues() {
        defer { unsetenv("BATCHGEOMETRY_C_KERNEL") }
        for good in ["portable", "auto", "", KernelOptions.cInstructionSet] {
            setenv("BATCHGEOMETRY_C_KERNEL", good, 1)
            XCTAssertNil(BGKernelEnvironmentProblem(), good)
        }
        setenv("BATCHGEOMETRY_C_KERNEL", "avx9", 1)
        let message = BGKernelEnvironmentProblem().map { String(cString: $0) }
        // The list names the kernels this build has (x86-64: avx512, avx2 or portable).
        let expected = "BATCHGEOMETRY_C_KERNEL=avx9 is not a C kernel (expected "
        XCTAssertEqual(message?.hasPrefix(expected), true, message ?? "nil")
        XCTAssertEqual(message?.contains("portable"), true, message ?? "nil")
        XCTAssertEqual(message?.hasSuffix(", or auto)"), true, message ?? "nil")
        unsetenv("BATCHGEOMETRY_C_KERNEL")
        XCTAssertNil(KernelOptions.environmentProblem)
    }
}
