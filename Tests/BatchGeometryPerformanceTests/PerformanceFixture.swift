import BatchGeometry
import BatchGeometryWorkloads

/// The standard workload at a realistic size, built once for every performance test
/// (building it takes longer than most kernels it feeds).
///
/// 100,000 layers in release builds, where the times mean something. A debug build
/// (plain `swift test`, which CI runs) uses 10,000: its times mean nothing, and the
/// checks stay the same while the suite stays quick.
enum PerformanceFixture {
    #if DEBUG
    static let layerCount = 10_000
    static let hitTestPointCount = 5
    #else
    static let layerCount = 100_000
    static let hitTestPointCount = 20
    #endif
    static let workload = Workload(.standard, layerCount: layerCount)
    static let store = workload.makeStore()
    /// The same scene as one class instance per layer, with its world computed: an
    /// independent implementation of the frame and world math to check the kernels with.
    // Built once and only read afterwards (the tests run one at a time).
    nonisolated(unsafe) static let objectGraph: ObjectGraph = {
        let graph = workload.makeObjectGraph()
        graph.updateWorld()
        return graph
    }()
    /// Every 97th layer and the last one: spread over every depth of the tree.
    static let sampledLayers = Array(stride(from: 0, to: layerCount, by: 97)) + [layerCount - 1]
}

/// `|a - b| <= tolerance * max(1, |a|, |b|)`: relative for large values, absolute near 0.
func isClose(_ a: Double, _ b: Double, tolerance: Double) -> Bool {
    if a == b { return true }
    return abs(a - b) <= tolerance * Swift.max(1, abs(a), abs(b))
}

func isClose(_ a: Transform3D, _ b: Transform3D, tolerance: Double) -> Bool {
    zip(a.rowMajor, b.rowMajor).allSatisfy { isClose($0, $1, tolerance: tolerance) }
}
