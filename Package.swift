// swift-tools-version:6.0
// BatchGeometry: Core Animation layer geometry for millions of layers at once.
// Tools version 6.0 and the Swift 6 language mode (complete concurrency checking); CI
// builds with warnings as errors on the toolchain it has (6.3.1).
// No package dependencies and no unsafe compiler-flag settings, so that any engine can
// depend on it;
// CPU-specific code lives in CAffineKernels as C functions with target attributes,
// chosen at run time.
import PackageDescription

let package = Package(
    name: "BatchGeometry",
    products: [
        .library(name: "BatchGeometry", targets: ["BatchGeometry"]),
        .executable(name: "batchbench", targets: ["batchbench"]),
        // The C interface (batchgeometry.h in Sources/CBatchGeometry/include), for C and C++
        // engines: a shared library for linking and dlopen/FFI, and the same as a static one.
        .library(name: "BatchGeometryC", type: .dynamic, targets: ["BatchGeometryC"]),
        .library(name: "BatchGeometryCStatic", type: .static, targets: ["BatchGeometryC"]),
    ],
    targets: [
        // libm: the package's sin and cos (vmath.c) hand arguments past 1.5·2^20 to the C
        // library's (Darwin and Windows have it in their C library).
        .target(name: "CAffineKernels", linkerSettings: [.linkedLibrary("m", .when(platforms: [.linux, .android]))]),
        .target(name: "BatchGeometry", dependencies: ["CAffineKernels"]),
        // The C interface: the header (a C target, so that Swift can import and check it)
        // and the @_cdecl functions that implement it over the Swift API.
        .target(name: "CBatchGeometry"),
        .target(name: "BatchGeometryC", dependencies: ["BatchGeometry", "CAffineKernels", "CBatchGeometry"]),
        // The benchmark scenes, shared by batchbench and the performance tests (not a product).
        .target(name: "BatchGeometryWorkloads", dependencies: ["BatchGeometry"]),
        // Scene pictures and benchmark charts as SVG (batchbench render, show --format svg); a
        // library target so that tests can reach them. Not a product.
        .target(name: "BatchGeometryPictures", dependencies: ["BatchGeometry"]),
        // AllocationCounter: the frame kernels report heap allocations per frame (issue 22).
        .executableTarget(
            name: "batchbench",
            dependencies: ["BatchGeometry", "BatchGeometryWorkloads", "BatchGeometryPictures", "AllocationCounter"]),
        // Misuses the API on purpose, one case per run, so tests can read the messages
        // (debug: MisuseMessageTests; release: scripts/misuse-messages.sh). Not a product.
        .executableTarget(name: "misuse-messages", dependencies: ["BatchGeometry"], path: "Tests/MisuseMessages"),
        // The C kernels on their own: every instruction set against a reference, bit for bit
        // (Tests/CKernelTests/run.sh builds and runs it in each configuration). Not a product.
        .executableTarget(
            name: "c-kernel-tests", dependencies: ["CAffineKernels"], path: "Tests/CKernelTests", exclude: ["run.sh"]),
        // Counts the process's heap allocations for the frame-loop allocation test and
        // batchbench's frame kernels, by interposing malloc and friends (Linux with glibc,
        // no sanitizer): one relaxed atomic add per allocation, plus CAffineKernels' count
        // of the column blocks it mapped or remapped (which bypass malloc). The library does not
        // depend on it. Not a product.
        .target(name: "AllocationCounter", dependencies: ["CAffineKernels"], path: "Tests/AllocationCounter"),
        // The C interface's overhead over the Swift API, in one process (scripts/c-examples.sh
        // --bench; Benchmarks/README.md, "C interface overhead"). Not a product.
        .executableTarget(
            name: "c-interface-bench",
            dependencies: ["BatchGeometry", "BatchGeometryWorkloads", "BatchGeometryC", "CBatchGeometry"],
            path: "Tests/CInterfaceBench"),
        // What an accessor costs by where the caller keeps the store (issue 21;
        // Benchmarks/KERNELS.md). Not a product.
        .executableTarget(name: "accessor-bench", dependencies: ["BatchGeometry"], path: "Tests/AccessorBench"),
        // The frame query of a live feed, still and with one insert and one destroy a frame
        // (issue 22; Benchmarks/KERNELS.md, "Incremental sublayer indexes"). Not a product.
        .executableTarget(
            name: "list-edit-bench", dependencies: ["BatchGeometry", "BatchGeometryWorkloads"],
            path: "Tests/ListEditBench"),
        // A growth frame's time, edits against query, by capacity policy (issue 22 item 3;
        // Benchmarks/KERNELS.md, "Growth past the capacity"). Not a product.
        .executableTarget(
            name: "growth-bench", dependencies: ["BatchGeometry", "BatchGeometryWorkloads"],
            path: "Tests/GrowthBench"),
        .testTarget(
            name: "BatchGeometryTests",
            dependencies: ["BatchGeometry", "CAffineKernels", "misuse-messages", "AllocationCounter"],
            resources: [.copy("Fixtures")]
        ),
        // The C interface from Swift: what C cannot reach (the C tests are Tests/CInterface,
        // built by scripts/c-examples.sh).
        .testTarget(
            name: "BatchGeometryCTests",
            dependencies: ["BatchGeometry", "BatchGeometryC", "CBatchGeometry"]
        ),
        .testTarget(
            name: "BatchGeometryPicturesTests",
            dependencies: ["BatchGeometry", "BatchGeometryPictures"],
            exclude: ["Fixtures"]
        ),
        .testTarget(
            name: "BatchGeometryPerformanceTests",
            dependencies: ["BatchGeometry", "BatchGeometryWorkloads"]
        ),
    ],
    swiftLanguageModes: [.v6]
)

// The libFuzzer targets (Fuzz/, docs/ROBUSTNESS.md section 5) exist only when
// BATCHGEOMETRY_FUZZ is set, as scripts/fuzz.sh does: they link only with
// `--sanitize=fuzzer` (libFuzzer provides `main`), so a plain `swift build` must not see them.
if Context.environment["BATCHGEOMETRY_FUZZ"] != nil {
    package.targets += [
        .target(name: "FuzzSupport", dependencies: ["BatchGeometry"], path: "Fuzz/Common"),
        .executableTarget(name: "fuzz-kernels", dependencies: ["BatchGeometry", "FuzzSupport"], path: "Fuzz/Kernels"),
        .executableTarget(name: "fuzz-scene", dependencies: ["BatchGeometry", "FuzzSupport"], path: "Fuzz/Scene"),
    ]
}
