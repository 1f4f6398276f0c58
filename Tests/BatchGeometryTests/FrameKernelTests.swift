import XCTest

@_spi(Testing) @testable import BatchGeometry

final class FrameKernelTests: XCTestCase {
    /// Every backend bit-identical to the scalar one for every count 0...67, random
    /// layers with special values (±0, NaN, ±infinity, huge and negative sizes, anchors
    /// outside 0…1, singular and perspective transforms).
    func testEveryBackendBitIdenticalForCounts0To67() {
        for count in 0...67 {
            for specials in [false, true] {
                let store = makeRandomStore(
                    count: count, seed: UInt64(500 + count * 2 + (specials ? 1 : 0)), specials: specials)
                let scalar = store.frames(options: .serial(.scalar))
                XCTAssertEqual(scalar.count, count)
                for backend in [Backend.simd, .c, nil] {
                    XCTAssertTrue(
                        store.frames(options: .serial(backend)).isBitIdentical(to: scalar),
                        "count \(count) specials \(specials) \(backend.label)")
                }
            }
        }
    }

    /// The scalar frames kernel equals the per-layer frame getter (an independent path
    /// through `frame(of:)`).
    func testScalarKernelMatchesFrameGetter() {
        let store = makeRandomStore(count: 67, seed: 3, specials: true)
        let frames = store.frames(options: .serial(.scalar))
        for layer in 0..<store.count {
            let expected = store.frame(of: layer)
            for (x, y) in [
                (frames[layer].x, expected.x), (frames[layer].y, expected.y),
                (frames[layer].width, expected.width), (frames[layer].height, expected.height),
            ] {
                XCTAssertTrue(x.bitPattern == y.bitPattern || (x.isNaN && y.isNaN), "layer \(layer)")
            }
        }
    }

    /// Thread counts 1...8 on a store big enough to be split: bit-identical.
    func testThreadCountsBitIdentical() {
        let store = makeRandomStore(count: 70_001, seed: 11, specials: true)
        let scalar = store.frames(options: .serial(.scalar))
        for backend in backendChoices {
            for threads in 1...8 {
                XCTAssertTrue(
                    store.frames(options: KernelOptions(backend: backend, threads: threads)).isBitIdentical(to: scalar),
                    "\(backend.label) threads \(threads)")
            }
        }
    }

    /// Hand-derived (GEOMETRY.md section 3, seed 001 Q1): a 100×100 layer at frame
    /// (100, 100, 100, 100) scaled by 2 reads frame (50, 50, 200, 200) on every backend.
    func testScaledFrameFromSpec() throws {
        var store = LayerStore()
        for _ in 0..<9 {
            let layer = try store.addLayer()
            store.setBounds(Rect(x: 0, y: 0, width: 100, height: 100), of: layer)
            store.setPosition(Point(x: 150, y: 150), of: layer)
            store.setAffineTransform(.scale(x: 2, y: 2), of: layer)
        }
        for backend in backendChoices {
            let frames = store.frames(options: .serial(backend))
            for layer in 0..<9 {
                XCTAssertEqual(frames[layer], Rect(x: 50, y: 50, width: 200, height: 200), "\(backend.label)")
            }
        }
    }

    /// A zero-size layer whose transform and position are -0 keeps the -0 of the scalar
    /// `(-w) * ax`: the corner x0 = (1·-0 + 0·-0) + -0 = -0 is the minimum (equal zeros
    /// keep the first), and frame.x = -0 + -0 = -0. A kernel that negates w = +0 into +0
    /// gets +0 instead (found by the kernels fuzzer). Four layers fill one SIMD4 step.
    func testZeroSizeKeepsNegativeZeroOnEveryBackend() throws {
        var store = LayerStore()
        for _ in 0..<4 {
            let layer = try store.addLayer()
            store.setAffineTransform(AffineTransform(a: 1, b: 0, c: 0, d: 1, tx: -0.0, ty: -0.0), of: layer)
            store.setPosition(Point(x: -0.0, y: -0.0), of: layer)
        }
        for backend in backendChoices {
            let frames = store.frames(options: .serial(backend))
            for layer in 0..<4 {
                XCTAssertEqual(frames.x[layer].sign, .minus, "\(backend.label) layer \(layer) x")
                XCTAssertEqual(frames.y[layer].sign, .minus, "\(backend.label) layer \(layer) y")
                XCTAssertEqual(store.frame(of: layer).x.sign, .minus)
            }
        }
    }

    /// `computeFrames(into:)` resizes a mismatched buffer and fills it.
    func testComputeFramesIntoResizes() {
        let store = makeRandomStore(count: 13, seed: 5, specials: false)
        var frames = FrameColumns(count: 2)
        store.computeFrames(into: &frames, options: .serial(.c))
        XCTAssertTrue(frames.isBitIdentical(to: store.frames(options: .serial(.scalar))))
    }
}
