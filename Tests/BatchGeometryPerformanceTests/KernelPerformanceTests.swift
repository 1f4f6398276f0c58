import BatchGeometryWorkloads
import XCTest

@_spi(Testing) @testable import BatchGeometry

/// `measure { }` for each batch kernel on the standard workload (100,000 layers in a
/// release build, 10,000 in a debug one), with the default options (C backend, every
/// core). Each test checks what it computed against a per-layer reference or an
/// independent computation; none asserts a time.
/// Run alone with `swift test -c release --filter BatchGeometryPerformanceTests`.
final class KernelPerformanceTests: PerformanceTestCase {
    func testFramesKernel() {
        let store = PerformanceFixture.store.copy()
        var frames = FrameColumns(count: 0)
        measure { store.computeFrames(into: &frames) }
        XCTAssertEqual(frames.count, store.count)
        let graph = PerformanceFixture.objectGraph
        for layer in PerformanceFixture.sampledLayers {
            // Bit for bit: the per-layer getter and the object graph's own frame math.
            XCTAssertEqual(frames[layer], store.frame(of: layer), "layer \(layer)")
            XCTAssertEqual(frames[layer], graph.layers[layer].frame, "layer \(layer)")
        }
    }

    func testWorldKernel() {
        let store = PerformanceFixture.store.copy()
        var world = store.worldTransforms()
        measure { world = store.worldTransforms() }
        let reference = store.referenceWorldTransforms()
        XCTAssertEqual(world.count, store.count)
        var mismatches = 0
        for layer in 0..<store.count where !isClose(world[layer], reference[layer], tolerance: 1e-12) {
            mismatches += 1
            if mismatches <= 3 { XCTFail("layer \(layer): \(world[layer]) != reference \(reference[layer])") }
        }
        XCTAssertEqual(mismatches, 0)
        // The object graph walks the same formula through class instances, independently.
        let graph = PerformanceFixture.objectGraph
        for layer in PerformanceFixture.sampledLayers {
            XCTAssertTrue(isClose(world[layer], graph.layers[layer].world, tolerance: 1e-12), "layer \(layer)")
        }
    }

    func testIncrementalWorldUpdate() {
        var store = PerformanceFixture.store.copy()
        store.updateWorld()
        // 1% of the layers, spread evenly, move by one point per call (alternating).
        let dirty = Array(stride(from: 50, to: store.count, by: 100))
        XCTAssertEqual(dirty.count, store.count / 100)
        let base = dirty.map { PerformanceFixture.workload.recipe(of: $0).position }
        var nudge = 0.0
        measure {
            nudge = nudge == 0 ? 1 : 0
            for (layer, position) in zip(dirty, base) {
                store.setPosition(Point(x: position.x + nudge, y: position.y), of: layer)
            }
            _ = store.updateWorld()
        }
        // One more move of a known size, so a stale cache could not pass the check below.
        for (layer, position) in zip(dirty, base) {
            store.setPosition(Point(x: position.x + 5, y: position.y - 3), of: layer)
        }
        let world = store.updateWorld()
        let reference = store.referenceWorldTransforms()
        var mismatches = 0
        for layer in 0..<store.count where !isClose(world[layer], reference[layer], tolerance: 1e-12) {
            mismatches += 1
            if mismatches <= 3 { XCTFail("layer \(layer): \(world[layer]) != reference \(reference[layer])") }
        }
        XCTAssertEqual(mismatches, 0)
        XCTAssertEqual(world[dirty[0]].m41, reference[dirty[0]].m41)
        XCTAssertNotEqual(
            world[dirty[0]], PerformanceFixture.objectGraph.layers[dirty[0]].world,
            "layer \(dirty[0]) moved, so its world differs from the unmoved scene's")
    }

    func testWorldRectsKernel() {
        let store = PerformanceFixture.store.copy()
        let world = store.worldTransforms()
        var rects: [RectEdges] = []
        measure { rects = store.worldRects(in: world, options: .default) }
        XCTAssertEqual(rects.count, store.count)
        let graph = PerformanceFixture.objectGraph
        for layer in PerformanceFixture.sampledLayers {
            // The standard workload is 2D: the box of the four corners mapped by ToWorld.
            let t = graph.layers[layer].world
            let b = store.bounds(of: layer)
            let xs = [b.minX, b.maxX]
            let ys = [b.minY, b.maxY]
            var corners: [Point] = []
            for x in xs {
                for y in ys {
                    corners.append(Point(x: x * t.m11 + y * t.m21 + t.m41, y: x * t.m12 + y * t.m22 + t.m42))
                }
            }
            let expected = RectEdges(
                minX: corners.map(\.x).min()!, minY: corners.map(\.y).min()!,
                maxX: corners.map(\.x).max()!, maxY: corners.map(\.y).max()!)
            let got = rects[layer]
            XCTAssertTrue(
                isClose(got.minX, expected.minX, tolerance: 1e-9) && isClose(got.minY, expected.minY, tolerance: 1e-9)
                    && isClose(got.maxX, expected.maxX, tolerance: 1e-9)
                    && isClose(got.maxY, expected.maxY, tolerance: 1e-9),
                "layer \(layer): \(got) != \(expected)")
        }
    }

    func testHitTestKernel() {
        let store = PerformanceFixture.store.copy()
        let world = store.worldTransforms()
        // Few points: each tests every layer (nothing masks), points × layers tests a call.
        let points = QueryPoints.world(count: PerformanceFixture.hitTestPointCount)
        var hits: [LayerHandle?] = []
        measure { hits = store.hitTest(points: points, in: world, rule: .layer, options: .default) }
        XCTAssertEqual(hits.count, points.count)
        // Independently: with nothing hidden or masking, the hit is the last layer in
        // pre-order whose bounds contain the point mapped into the layer.
        let order = store.preorder()
        var hitCount = 0
        for (point, hit) in zip(points, hits) {
            var expected: LayerHandle?
            for layer in order {
                guard let local = world[layer.index].unprojectPoint(point) else { continue }
                let b = store.bounds(of: layer)
                if b.minX <= local.x && local.x < b.maxX && b.minY <= local.y && local.y < b.maxY { expected = layer }
            }
            XCTAssertEqual(hit, expected, "point \(point)")
            if hit != nil { hitCount += 1 }
        }
        XCTAssertGreaterThan(hitCount, 0, "the query points lie over the scene, so some must hit")
    }

    func testConvertKernel() {
        let store = PerformanceFixture.store.copy()
        let world = store.worldTransforms()
        let source = store.count - 1
        let destination = store.count / 2
        let b = store.bounds(of: source)
        let points = QueryPoints.local(count: 10_000, width: b.width, height: b.height)
        var converted: [Point?] = []
        measure {
            converted = store.convert(points: points, from: source, to: destination, in: world, options: .default)
        }
        XCTAssertEqual(converted.count, points.count)
        let graph = PerformanceFixture.objectGraph
        let toWorld = graph.layers[source].world
        let fromWorldOf = graph.layers[destination].world
        for k in stride(from: 0, to: points.count, by: 37) {
            guard let got = converted[k] else {
                XCTFail("point \(k) did not convert")
                continue
            }
            // Independently (2D workload): into the world with the source's ToWorld, and
            // back through the destination's: mapping `got` forward must land there too.
            let p = points[k]
            let worldX = p.x * toWorld.m11 + p.y * toWorld.m21 + toWorld.m41
            let worldY = p.x * toWorld.m12 + p.y * toWorld.m22 + toWorld.m42
            let backX = got.x * fromWorldOf.m11 + got.y * fromWorldOf.m21 + fromWorldOf.m41
            let backY = got.x * fromWorldOf.m12 + got.y * fromWorldOf.m22 + fromWorldOf.m42
            XCTAssertTrue(
                isClose(backX, worldX, tolerance: 1e-9) && isClose(backY, worldY, tolerance: 1e-9),
                "point \(k): \(p) -> \(got) maps to (\(backX), \(backY)), expected (\(worldX), \(worldY))")
        }
    }
}
