// Scene pictures: byte-for-byte goldens, well-formed XML, and polygons that are the
// library's own projected quads.

import BatchGeometry
import XCTest

@testable import BatchGeometryPictures

final class SceneRenderGoldenTests: XCTestCase {
    /// Each fixture scene with the options its golden was made with.
    static let cases: [(scene: String, options: RenderOptions)] = {
        var frames = RenderOptions()
        frames.frames = true
        var bare = RenderOptions()
        bare.invisible = false
        bare.legend = false
        bare.width = 500
        return [
            ("card-flip", RenderOptions()), ("scroll-list", RenderOptions()), ("layer-rule-zorder", RenderOptions()),
            ("autoresize", frames), ("scroll-list-omit-invisible", bare),
        ]
    }()

    private func render(_ name: String, _ options: RenderOptions) throws -> String {
        let scene = try decoded(name)
        let evaluation = try scene.evaluate()
        return SceneRenderer.render(scene, evaluation, options: options)
    }

    /// The scene behind case `name`.
    private func decoded(_ name: String) throws -> Scene {
        let file = name == "scroll-list-omit-invisible" ? "scroll-list" : name
        return try Scene(json: try fixtureBytes("render/\(file).scene.json"))
    }

    func testGoldens() throws {
        for (name, options) in Self.cases {
            let svg = try render(name, options)
            try assertGolden(svg, "render/\(name).svg")
        }
    }

    func testEveryPictureIsWellFormedXML() throws {
        for (name, options) in Self.cases {
            let svg = try render(name, options)
            XCTAssertNoThrow(try XMLChecker.check(svg), name)
            XCTAssertGreaterThan(try XMLChecker.check(svg), 10, name)
        }
    }

    func testSameSceneGivesSameBytes() throws {
        let bytes = try fixtureBytes("render/card-flip.scene.json")
        XCTAssertEqual(try SceneRenderer.render(json: bytes), try SceneRenderer.render(json: bytes))
    }

    /// Every polygon drawn for a layer is the library's `projectedQuad` for it, mapped to
    /// pixels, within the printed precision (clipped to the picture where it leaves it).
    func testPolygonsAreTheLibrarysProjectedQuads() throws {
        for (name, options) in Self.cases {
            let svg = try render(name, options)
            let evaluation = try decoded(name).evaluate()
            let picture = ScenePicture(
                scene: try decoded(name), evaluation: PictureTree(model: try decoded(name).evaluate()), options: options
            )
            let polygons = svgElements(svg, named: "polygon").filter { $0["class"]?.hasPrefix("layer") == true }
            // Layers wholly outside the picture (row 7 below the viewport) are not written.
            let inPicture = picture.shownLayers.filter {
                !picture.frame.mapPolygon(picture.quads[$0.storeLayer]).isEmpty
            }
            XCTAssertEqual(polygons.count, inPicture.count, name)
            for polygon in polygons {
                let sceneLayer = Int(polygon["data-layer"]!)!
                let storeLayer = evaluation.storeLayers[sceneLayer]!
                let quad = evaluation.store.projectedQuad(
                    of: evaluation.store.handle(at: storeLayer)!, in: evaluation.world)
                let expected = PictureFrame.clip(quad, to: picture.frame.clipBox).map(picture.frame.map)
                let drawn = parsePoints(polygon["points"]!)
                XCTAssertEqual(drawn.count, expected.count, "\(name) layer \(sceneLayer)")
                for (got, want) in zip(drawn, expected) {
                    XCTAssertEqual(got.x, want.x, accuracy: 0.0005 + 1e-9, "\(name) layer \(sceneLayer)")
                    XCTAssertEqual(got.y, want.y, accuracy: 0.0005 + 1e-9, "\(name) layer \(sceneLayer)")
                }
                XCTAssertEqual(
                    polygon["class"] == "layer", evaluation.visible[storeLayer], "\(name) layer \(sceneLayer)")
            }
        }
    }

    /// The card flip draws the perspective card as a trapezoid (not its bounding box) and
    /// the wall that crosses the eye plane as a polygon cut there.
    func testPerspectiveLayersAreDrawnAsTheirShapes() throws {
        let svg = try render("card-flip", RenderOptions())
        let evaluation = try decoded("card-flip").evaluate()
        let polygons = svgElements(svg, named: "polygon")
        let card = parsePoints(polygons.first { $0["data-layer"] == "2" }!["points"]!)
        XCTAssertEqual(card.count, 4)
        XCTAssertEqual(Set(card.map(\.x)).count, 2)  // two vertical edges...
        XCTAssertEqual(Set(card.map(\.y)).count, 4)  // ...of different heights: a trapezoid
        let wallRect = evaluation.worldRects[5]
        XCTAssertTrue(wallRect.minX.isInfinite || wallRect.maxX.isInfinite || wallRect.maxY.isInfinite)
        let wall = try XCTUnwrap(evaluation.store.handle(at: 5))
        let bounds = evaluation.store.bounds(of: wall)
        let corners = [
            Point(bounds.minX, bounds.minY), Point(bounds.maxX, bounds.minY), Point(bounds.maxX, bounds.maxY),
            Point(bounds.minX, bounds.maxY),
        ]
        let behind = corners.filter { evaluation.world[5].applyHomogeneous(x: $0.x, y: $0.y).w <= 0 }
        XCTAssertEqual(behind.count, 2)
        let wallQuad = evaluation.store.projectedQuad(of: wall, in: evaluation.world)
        XCTAssertEqual(wallQuad.count, 4)  // two corners in front, two cut points at W = 1e-5
        XCTAssertNotEqual(wallQuad, corners.map { evaluation.world[5].projectPoint($0) })
        // The picture's edge cuts it once more: a pentagon.
        XCTAssertEqual(polygons.first { $0["data-layer"] == "5" }.map { parsePoints($0["points"]!).count }, 5)
    }

    func testHitMarkersNameTheLayersHitAndMisses() throws {
        for (name, options) in Self.cases {
            let svg = try render(name, options)
            let scene = try decoded(name)
            let evaluation = try scene.evaluate()
            let hits = svgElements(svg, named: "circle").filter { $0["class"] == "hit" }
            let misses = svgElements(svg, named: "path").filter { $0["class"] == "miss" }
            XCTAssertEqual(hits.count + misses.count, scene.hitTests.count, name)
            for hit in hits {
                let index = Int(hit["data-hit"]!)!
                XCTAssertEqual(evaluation.hits[index].map(String.init), hit["data-layer"], name)
            }
            for miss in misses { XCTAssertNil(evaluation.hits[Int(miss["data-hit"]!)!], name) }
        }
        let svg = try render("layer-rule-zorder", RenderOptions())
        XCTAssertTrue(svg.contains(">4: miss</text>"), "the point outside the root misses")
        XCTAssertTrue(svg.contains(">0 → back (z 2)</text>"), "the layer rule hits the higher zPosition first")
    }

    func testNamesAreEscaped() throws {
        let svg = try render("card-flip", RenderOptions())
        XCTAssertTrue(svg.contains(">title &lt;&amp;&quot;é&quot;&gt;</text>"))
        XCTAssertFalse(svg.contains("title <&"))
    }

    func testOmittingInvisibleLayersLeavesThemOut() throws {
        let svg = try render("scroll-list-omit-invisible", Self.cases[4].options)
        let evaluation = try decoded("scroll-list-omit-invisible").evaluate()
        let drawn = Set(svgElements(svg, named: "polygon").compactMap { $0["data-layer"].flatMap { Int($0) } })
        let visible = Set(evaluation.drawOrder.filter { evaluation.visible[evaluation.storeLayers[$0]!] })
        XCTAssertEqual(drawn, visible)
        XCTAssertFalse(svg.contains("id=\"legend\""))
    }
}
