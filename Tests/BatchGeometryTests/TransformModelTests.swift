import Foundation
import XCTest

@testable import BatchGeometry

/// The value types: rotation constructors, concatenation order, kinds, inverses.
final class TransformModelTests: XCTestCase {
    typealias Affine = BatchGeometry.AffineTransform

    /// Right angles written the usual ways are exact (docs/SEMANTICS.md): libm would give
    /// cos(.pi/2) = 6.1e-17.
    func testRightAnglesAreExact() {
        XCTAssertEqual(Affine.rotation(radians: .pi / 2), Affine(a: 0, b: 1, c: -1, d: 0, tx: 0, ty: 0))
        XCTAssertEqual(Affine.rotation(radians: -.pi / 2), Affine(a: 0, b: -1, c: 1, d: 0, tx: 0, ty: 0))
        XCTAssertEqual(Affine.rotation(radians: .pi), Affine(a: -1, b: 0, c: 0, d: -1, tx: 0, ty: 0))
        XCTAssertEqual(Affine.rotation(radians: 3 * .pi / 2), Affine(a: 0, b: -1, c: 1, d: 0, tx: 0, ty: 0))
        XCTAssertEqual(Affine.rotation(radians: 2 * .pi), Affine.identity)
        XCTAssertEqual(Affine.rotation(radians: 0), Affine.identity)
        let aboutZ = Transform3D.rotation(radians: .pi / 2, x: 0, y: 0, z: 1)
        XCTAssertEqual(aboutZ, Transform3D(Affine.rotation(radians: .pi / 2)))
    }

    /// Other angles agree with the platform's libm to a couple of ulps.
    func testOtherAnglesMatchLibm() {
        for angle in stride(from: -10.0, through: 10.0, by: 0.0137) {
            let rotation = Affine.rotation(radians: angle)
            XCTAssertEqual(rotation.a, cos(angle), accuracy: 4e-16, "cos(\(angle))")
            XCTAssertEqual(rotation.b, sin(angle), accuracy: 4e-16, "sin(\(angle))")
            XCTAssertEqual(rotation.c, -rotation.b)
        }
        let thirty = Affine.rotation(radians: .pi / 6)
        XCTAssertEqual(thirty.b, 0.5, accuracy: 1e-16)
        XCTAssertEqual(thirty.a, 3.0.squareRoot() / 2, accuracy: 2e-16)
        XCTAssertTrue(Affine.rotation(radians: .nan).a.isNaN)
        XCTAssertTrue(Affine.rotation(radians: .infinity).a.isNaN)
    }

    /// `a.concatenating(b)` is "a, then b": translate then scale doubles the translation.
    func testConcatenationOrder() {
        let translate = Affine.translation(x: 10, y: 0)
        let scale = Affine.scale(x: 2, y: 2)
        XCTAssertEqual(translate.concatenating(scale).apply(to: Point(x: 1, y: 1)), Point(x: 22, y: 2))
        XCTAssertEqual(scale.concatenating(translate).apply(to: Point(x: 1, y: 1)), Point(x: 12, y: 2))
        let t3 = Transform3D(translate).concatenating(Transform3D(scale))
        XCTAssertEqual(t3.projectPoint(Point(x: 1, y: 1)), Point(x: 22, y: 2))
        XCTAssertEqual(t3, Transform3D(translate.concatenating(scale)))
    }

    func testKinds() {
        XCTAssertEqual(Transform3D.identity.kind, .identity)
        XCTAssertEqual(Transform3D.translation(x: 1, y: 0).kind, .translate)
        XCTAssertEqual(Transform3D.translation(x: 0, y: 0, z: 1).kind, .threeDimensional)
        XCTAssertEqual(Transform3D.scale(x: 2, y: 1).kind, .scale)
        XCTAssertEqual(Transform3D(Affine.rotation(radians: 0.1)).kind, .affine)
        XCTAssertEqual(Transform3D.rotation(radians: 0.1, x: 1, y: 0, z: 0).kind, .threeDimensional)
        XCTAssertEqual(Transform3D.perspective(distance: 500).kind, .perspective)
        XCTAssertEqual(Transform3D.rotation(radians: 1, x: 0, y: 0, z: 0), .identity, "a zero axis is the identity")
    }

    func testAffineInverse() {
        let t = Affine(a: 2, b: 1, c: -1, d: 3, tx: 5, ty: -7)
        let p = Point(x: 3, y: 4)
        assertGeometryClose(t.inverted!.apply(to: t.apply(to: p)), p)
        XCTAssertNil(Affine.scale(x: 0, y: 1).inverted)
    }

    /// Unprojection inverts projection for a perspective matrix, and is nil when singular.
    func testUnprojection() {
        var m = Transform3D.rotation(radians: 0.6, x: 0.3, y: 1, z: 0)
        m.m34 = -1.0 / 500
        m = m.concatenating(.translation(x: 100, y: 50))
        let p = Point(x: 17, y: -23)
        assertGeometryClose(m.unprojectPoint(m.projectPoint(p)), p, tolerance: 1e-11)
        XCTAssertNil(Transform3D.scale(x: 1, y: 0).unprojectPoint(p))
    }

    func testRectHelpers() {
        let r = Rect(x: 10, y: 20, width: -4, height: 6)
        XCTAssertEqual(r.standardized, Rect(x: 6, y: 20, width: 4, height: 6))
        XCTAssertEqual(r.minX, 6)
        XCTAssertEqual(r.maxX, 10)
        XCTAssertTrue(Rect.null.isNull)
        XCTAssertTrue(Rect(x: 0, y: 0, width: 1, height: 1).contains(Point(x: 0, y: 0)))
        XCTAssertFalse(Rect(x: 0, y: 0, width: 1, height: 1).contains(Point(x: 1, y: 0)))
        let a = RectEdges(minX: 0, minY: 0, maxX: 10, maxY: 10)
        XCTAssertEqual(
            a.intersection(RectEdges(minX: 10, minY: 0, maxX: 20, maxY: 5)),
            RectEdges(minX: 10, minY: 0, maxX: 10, maxY: 5), "touching rects meet in an empty rect")
        XCTAssertTrue(a.intersection(RectEdges(minX: 11, minY: 0, maxX: 20, maxY: 5)).isNull)
        let halfInfinite = RectEdges(minX: -.infinity, minY: 0, maxX: 5, maxY: .infinity)
        XCTAssertEqual(a.intersection(halfInfinite), RectEdges(minX: 0, minY: 0, maxX: 5, maxY: 10))
        XCTAssertTrue(halfInfinite.hasPositiveArea)
    }
}
