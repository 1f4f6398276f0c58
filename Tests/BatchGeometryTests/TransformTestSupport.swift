import XCTest

@testable import BatchGeometry

// Test-side references written independently of the library: they walk a single point
// up the hierarchy step by step (GEOMETRY.md section 5 read literally, on a homogeneous
// 4-vector), instead of multiplying 4×4 matrices the way the library does. Agreement
// between the two is what the world-space tests check.

/// A homogeneous point `(x, y, z, w)`.
struct HomogeneousPoint {
    var x: Double, y: Double, z: Double, w: Double

    /// `p * T(tx, ty, tz)`: a translation acts in proportion to `w`.
    func translated(_ tx: Double, _ ty: Double, _ tz: Double) -> HomogeneousPoint {
        HomogeneousPoint(x: x + tx * w, y: y + ty * w, z: z + tz * w, w: w)
    }

    /// `p * M` with row vectors, element by element from the 16 row-major numbers.
    func times(_ matrix: Transform3D) -> HomogeneousPoint {
        let m = matrix.rowMajor
        let v = [x, y, z, w]
        var out = [0.0, 0.0, 0.0, 0.0]
        for column in 0..<4 {
            var sum = 0.0
            for row in 0..<4 { sum += v[row] * m[row * 4 + column] }
            out[column] = sum
        }
        return HomogeneousPoint(x: out[0], y: out[1], z: out[2], w: out[3])
    }

    var projected: Point { Point(x: x / w, y: y / w) }
}

/// Maps `(x, y)` of `layer`'s bounds space to world space by applying, one step at a
/// time, Local(L), then Flip(S), Sub(S) and Flat(S) of each superlayer S.
/// `referenceWorldPoint` for the layer in slot `layer`.
@_disfavoredOverload
func referenceWorldPoint(_ store: borrowing LayerStore, layer: Int, _ x: Double, _ y: Double) -> HomogeneousPoint {
    referenceWorldPoint(store, layer: store.handle(atSlot: layer), x, y)
}

func referenceWorldPoint(_ store: borrowing LayerStore, layer: LayerHandle, _ x: Double, _ y: Double)
    -> HomogeneousPoint
{
    var point = HomogeneousPoint(x: x, y: y, z: 0, w: 1)
    var current = layer
    while true {
        let bounds = store.bounds(of: current)
        let anchor = store.anchorPoint(of: current)
        point = point.translated(
            -(bounds.x + anchor.x * bounds.width), -(bounds.y + anchor.y * bounds.height),
            -store.anchorPointZ(of: current))
        point = point.times(store.transform(of: current))
        let position = store.position(of: current)
        point = point.translated(position.x, position.y, store.zPosition(of: current))
        guard let superlayer = store.superlayer(of: current) else { return point }
        let superBounds = store.bounds(of: superlayer)
        if store.isGeometryFlipped(superlayer) {
            point.y = (2 * superBounds.y + superBounds.height) * point.w - point.y
        }
        let sublayerTransform = store.sublayerTransform(of: superlayer)
        if sublayerTransform != .identity {
            let superAnchor = store.anchorPoint(of: superlayer)
            let pivotX = superBounds.x + superAnchor.x * superBounds.width
            let pivotY = superBounds.y + superAnchor.y * superBounds.height
            let pivotZ = store.anchorPointZ(of: superlayer)
            point = point.translated(-pivotX, -pivotY, -pivotZ).times(sublayerTransform)
                .translated(pivotX, pivotY, pivotZ)
        }
        if !store.isTransformLayer(superlayer) { point.z = 0 }
        current = superlayer
    }
}

/// True when `a` and `b` agree to `tolerance` relative to their size (absolute below 1).
func isGeometryClose(_ a: Double, _ b: Double, tolerance: Double = 1e-12) -> Bool {
    if a == b { return true }
    return abs(a - b) <= tolerance * max(1, abs(a), abs(b))
}

func assertGeometryClose(
    _ actual: Double, _ expected: Double, tolerance: Double = 1e-12, _ message: String = "",
    file: StaticString = #filePath, line: UInt = #line
) {
    XCTAssertTrue(
        isGeometryClose(actual, expected, tolerance: tolerance),
        "\(actual) is not within \(tolerance) of \(expected) \(message)", file: file, line: line)
}

func assertGeometryClose(
    _ actual: Point?, _ expected: Point, tolerance: Double = 1e-12, _ message: String = "",
    file: StaticString = #filePath, line: UInt = #line
) {
    guard let actual else { return XCTFail("nil, expected \(expected) \(message)", file: file, line: line) }
    XCTAssertTrue(
        isGeometryClose(actual.x, expected.x, tolerance: tolerance)
            && isGeometryClose(actual.y, expected.y, tolerance: tolerance),
        "\(actual) is not within \(tolerance) of \(expected) \(message)", file: file, line: line)
}

/// Edges compared with a relative tolerance; infinities must match exactly.
func assertGeometryClose(
    _ actual: RectEdges, _ expected: RectEdges, tolerance: Double = 1e-12, _ message: String = "",
    file: StaticString = #filePath, line: UInt = #line
) {
    let pairs = [
        (actual.minX, expected.minX), (actual.minY, expected.minY),
        (actual.maxX, expected.maxX), (actual.maxY, expected.maxY),
    ]
    XCTAssertTrue(
        pairs.allSatisfy { isGeometryClose($0.0, $0.1, tolerance: tolerance) },
        "\(actual) is not within \(tolerance) of \(expected) \(message)", file: file, line: line)
}

/// Bit-for-bit equality of two rects (what the frame getter and setters promise).
func assertSameBits(
    _ actual: Rect, _ expected: Rect, _ message: String = "",
    file: StaticString = #filePath, line: UInt = #line
) {
    let same =
        actual.x.bitPattern == expected.x.bitPattern && actual.y.bitPattern == expected.y.bitPattern
        && actual.width.bitPattern == expected.width.bitPattern
        && actual.height.bitPattern == expected.height.bitPattern
    XCTAssertTrue(same, "\(actual) is not bit-identical to \(expected) \(message)", file: file, line: line)
}

func assertSameBits(
    _ actual: Double, _ expected: Double, _ message: String = "",
    file: StaticString = #filePath, line: UInt = #line
) {
    XCTAssertEqual(
        actual.bitPattern, expected.bitPattern, "\(actual) is not bit-identical to \(expected) \(message)",
        file: file, line: line)
}

extension LayerStore {
    /// A layer set up the UIKit way, `initWithFrame:` under an identity transform.
    @discardableResult
    mutating func addViewWithFrame(_ frame: Rect, parent: LayerHandle? = nil) -> LayerHandle {
        let layer = try! addLayer(superlayer: parent)
        setFrame(frame, of: layer)
        return layer
    }

    /// The same with the superlayer's slot (tests that build trees by index).
    @_disfavoredOverload
    mutating func addViewWithFrame(_ frame: Rect, parent: Int?) -> Int {
        let layer = try! addLayer(superlayer: parent)
        setFrame(frame, of: layer)
        return layer
    }
}

extension Array {
    /// The entry of a per-layer result for `layer` (`self[layer.index]`): test shorthand.
    subscript(_ layer: LayerHandle) -> Element { self[layer.index] }
}

/// Every backend forced in turn, then nil: the default, each kernel on its measured best
/// (`BackendKernel.automaticBackend`), which mixes backends inside one pass.
let backendChoices: [Backend?] = Backend.allCases.map { $0 } + [nil]

extension Optional where Wrapped == Backend {
    /// The backend's name, or "auto" for the per-kernel default.
    var label: String { self?.rawValue ?? "auto" }
}
