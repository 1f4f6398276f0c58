// `batchbench render SCENE --time T` and `--times A,B,...`: the presentation tree drawn at
// a time, and a film strip of several. The layers' outlines are checked against the
// world rects the conformance case basic-position-easeinout expects
// (shared/conformance/animation, copied to Fixtures/presentation), mapped to pixels the
// way the model picture of the same scene maps its model rects.

import BatchGeometry
import XCTest

@testable import BatchGeometryPictures

final class PresentationRenderTests: XCTestCase {
    private let scene = "presentation/basic-position-easeinout.scene.json"
    /// The case's expected world rects of card and label, by time.
    private let expected: [Double: [[Double]]] = [
        0.125: [[45.83238184452057, 91.66476368904114, 100, 60], [55.83238184452057, 101.66476368904114, 80, 20]],
        0.25: [[120, 240, 100, 60], [130, 250, 80, 20]],
        0.5: [[220, 440, 100, 60], [230, 450, 80, 20]],
        0.75: [[20, 40, 100, 60], [30, 50, 80, 20]],
    ]

    private func run(_ arguments: [String]) throws -> (svg: String, status: Int32, errors: [String]) {
        let recorder = RenderCommandTests.Recorder()
        let bytes = try fixtureBytes(scene)
        let io = RenderCommand.IO(
            read: { _ in .success(bytes) }, writeFile: { _, _ in RenderIOError(message: "no files") },
            writeOutput: { recorder.output += $0 }, writeError: { recorder.errors.append($0) })
        let status = RenderCommand.run(arguments, io: io)
        return (recorder.output, status, recorder.errors)
    }

    /// The layer outlines (`data-layer` → points) of one picture.
    private func outlines(_ svg: String) -> [String: [Point2D]] {
        var outlines: [String: [Point2D]] = [:]
        for polygon in svgElements(svg, named: "polygon") where polygon["class"] == "layer" {
            outlines[polygon["data-layer"]!] = parsePoints(polygon["points"]!)
        }
        return outlines
    }

    /// The pixel mapping of the model picture: scale and offset from the card's model
    /// rect (20, 40, 100, 60), which the conformance case's model output also gives.
    private func mapping() throws -> (scale: Double, x: Double, y: Double) {
        let card = outlines(try run(["scene.json"]).svg)["1"]!
        let scale = (card[1].x - card[0].x) / 100
        return (scale, card[0].x - 20 * scale, card[0].y - 40 * scale)
    }

    func testOneTimeDrawsThePresentationTreeWhereTheSpecPutsIt() throws {
        let map = try mapping()
        for (time, rects) in expected {
            let (svg, status, errors) = try run(["scene.json", "--time", "\(time)"])
            XCTAssertEqual(status, 0)
            XCTAssertEqual(errors, [])
            XCTAssertGreaterThan(try XMLChecker.check(svg), 10)
            XCTAssertTrue(svg.contains(">t = \(time) s: 3 of 3 visible</text>"))
            let drawn = outlines(svg)
            for (layer, rect) in zip(["1", "2"], rects) {
                let corner = drawn[layer]![0]
                XCTAssertEqual(corner.x, map.x + rect[0] * map.scale, accuracy: 0.001, "layer \(layer) at \(time)")
                XCTAssertEqual(corner.y, map.y + rect[1] * map.scale, accuracy: 0.001, "layer \(layer) at \(time)")
                XCTAssertEqual(drawn[layer]![2].x - corner.x, rect[2] * map.scale, accuracy: 0.001)
            }
        }
    }

    func testAFilmStripIsTheSinglePicturesSideBySide() throws {
        let times = [0.125, 0.25, 0.5, 0.75]
        let (strip, status, errors) = try run(["scene.json", "--times", times.map { "\($0)" }.joined(separator: ",")])
        XCTAssertEqual(status, 0)
        XCTAssertEqual(errors, [])
        XCTAssertGreaterThan(try XMLChecker.check(strip), 40)
        XCTAssertEqual(try run(["scene.json", "--times", "0.125,0.25,0.5,0.75"]).svg, strip, "deterministic")
        let nested = svgElements(strip, named: "svg")
        XCTAssertEqual(nested.count, 1 + times.count)
        var x = 0.0
        for (k, time) in times.enumerated() {
            // Each picture is the one --time draws, placed after the ones before it.
            let single = try run(["scene.json", "--time", "\(time)"]).svg
            let body = single.split(separator: "\n", maxSplits: 2)[2]
            XCTAssertTrue(strip.contains(body), "picture \(k) embedded as drawn alone")
            XCTAssertEqual(nested[1 + k]["x"], SVGWriter.number(x))
            x += Double(nested[1 + k]["width"]!)!
        }
        XCTAssertEqual(nested[0]["width"], SVGWriter.number(x))
    }

    func testBadTimesAreRefused() throws {
        for (arguments, message) in [
            (["--times", "0.5,0.25"], "error: render: --times: times must not decrease, got 0.25 after 0.5"),
            (["--time", "nan"], "error: render: --time: expected finite seconds, got 'nan'"),
            (["--time", "0.1,0.2"], "error: render: --time: expected one time, got 2; --times takes a list"),
        ] {
            let (svg, status, errors) = try run(["scene.json"] + arguments)
            XCTAssertEqual(status, 2)
            XCTAssertEqual(errors, [message])
            XCTAssertEqual(svg, "")
        }
    }
}
