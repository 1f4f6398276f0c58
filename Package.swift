// swift-tools-version:5.9
// BatchGeometry: Core Animation layer geometry for millions of layers at once.
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
    ],
    targets: [
        .target(name: "CAffineKernels"),
        .target(name: "BatchGeometry", dependencies: ["CAffineKernels"]),
        // The benchmark scenes, shared by batchbench and the performance tests (not a product).
        .target(name: "BatchGeometryWorkloads", dependencies: ["BatchGeometry"]),
        .executableTarget(name: "batchbench", dependencies: ["BatchGeometry", "BatchGeometryWorkloads"]),
        .testTarget(
            name: "BatchGeometryTests",
            dependencies: ["BatchGeometry", "CAffineKernels"],
            resources: [.copy("Fixtures")]
        ),
        .testTarget(
            name: "BatchGeometryPerformanceTests",
            dependencies: ["BatchGeometry", "BatchGeometryWorkloads"]
        ),
    ]
)
