// Curve charts (`batchbench render --timing-function … | --spring …`): byte-for-byte
// goldens, well-formed XML, polylines that are the library's samples, markers at
// ANIMATION.md's values, and the command's errors.

import BatchGeometry
import XCTest

@testable import BatchGeometryPictures

final class CurveChartTests: XCTestCase {
    /// The five named functions, GNUstep's custom one and one that overshoots both ways.
    static let timingArguments = [
        "--timing-function", "default", "--timing-function", "linear", "--timing-function", "easeIn",
        "--timing-function", "easeOut", "--timing-function", "easeInEaseOut", "--timing-function", "0.1,1,1,0.2",
        "--timing-function", "0.68,-0.55,0.265,1.55",
    ]
    /// Core Animation's default spring, critical and light damping, a negative start
    /// velocity, and ChouTiUI's damping ratio 1, response 1 spring (mass 1, k 4π², c 4π).
    static let springArguments = [
        "--spring", "1,100,10", "--spring", "1,100,20", "--spring", "1,100,5,-5", "--spring",
        "1,39.47841760435743,12.566370614359172",
    ]

    /// Runs the command; the SVG it printed, its status and error lines.
    private func run(_ arguments: [String]) -> (svg: String, status: Int32, errors: [String]) {
        let recorder = RenderCommandTests.Recorder()
        let status = RenderCommand.run(arguments, io: recorder.io)
        XCTAssertTrue(recorder.files.isEmpty)
        return (recorder.output, status, recorder.errors)
    }

    func testGoldensAndXML() throws {
        for (arguments, name) in [(Self.timingArguments, "timing-functions"), (Self.springArguments, "springs")] {
            let (svg, status, errors) = run(arguments)
            XCTAssertEqual(status, 0)
            XCTAssertEqual(errors, [])
            try assertGolden(svg, "charts/\(name).svg")
            XCTAssertGreaterThan(try XMLChecker.check(svg), 20, name)
            XCTAssertEqual(run(arguments).svg, svg, "the same arguments give the same bytes")
        }
    }

    /// The plot's value ranges and pixel rectangle, read back from the SVG.
    private func plot(_ svg: String) throws -> (x: ClosedRange<Double>, y: ClosedRange<Double>, rect: [Double]) {
        let frame = try XCTUnwrap(svgElements(svg, named: "rect").first { $0["class"] == "plot" })
        let number = { (key: String) in Double(frame[key] ?? "") ?? .nan }
        return (
            number("data-x-low")...number("data-x-high"), number("data-y-low")...number("data-y-high"),
            ["x", "y", "width", "height"].map(number)
        )
    }

    /// Each polyline point, mapped back to value space, is the curve's sample at the
    /// chart's time: the timing function's value (or the spring's progress) within the
    /// three printed decimals of a pixel.
    func testPolylinesAreTheLibrarysSamples() throws {
        let curves = try [Self.timingArguments, Self.springArguments].map { arguments in
            try RenderOptions.parse(arguments).options.curves
        }
        for (arguments, expectedCurves) in zip([Self.timingArguments, Self.springArguments], curves) {
            let svg = run(arguments).svg
            let (x, y, rect) = try plot(svg)
            let lines = svgElements(svg, named: "polyline").filter { $0["class"] == "curve" }
            XCTAssertEqual(lines.count, expectedCurves.count)
            for (line, curve) in zip(lines, expectedCurves) {
                let points = parsePoints(try XCTUnwrap(line["points"]))
                XCTAssertEqual(points.count, CurveChart.samples + 1)
                for (index, point) in points.enumerated() {
                    let time = x.lowerBound + (x.upperBound - x.lowerBound) * Double(index) / Double(CurveChart.samples)
                    let expected: Double
                    switch curve {
                    case .timingFunction(let function): expected = Double(function.value(at: time))
                    case .spring(let spring): expected = Double(spring.progress(at: time))
                    }
                    let pixelsPerUnit = rect[3] / (y.upperBound - y.lowerBound)
                    let shown = y.lowerBound + (rect[1] + rect[3] - point.y) / pixelsPerUnit
                    XCTAssertEqual(shown, expected, accuracy: 0.0006 / pixelsPerUnit, "\(curve) at \(time)")
                    XCTAssertEqual(
                        point.x, rect[0] + (time - x.lowerBound) / (x.upperBound - x.lowerBound) * rect[2],
                        accuracy: 0.0006)
                }
            }
        }
    }

    /// A timing function runs from (0, 0) to (1, 1) (Y(0) = 0 and Y(1) = 1 exactly,
    /// ANIMATION.md section 3.2), and its control points are drawn where they are.
    func testTimingFunctionEndsAndControlPoints() throws {
        let svg = run(["--timing-function", "0.68,-0.55,0.265,1.55"]).svg
        let (_, y, rect) = try plot(svg)
        let points = parsePoints(try XCTUnwrap(svgElements(svg, named: "polyline").first?["points"]))
        let pixelsPerUnit = rect[3] / (y.upperBound - y.lowerBound)
        let zero = rect[1] + rect[3] + y.lowerBound * pixelsPerUnit
        XCTAssertEqual(points.first, Point2D(rect[0], (zero * 1000).rounded() / 1000))
        XCTAssertEqual(points.last, Point2D(rect[0] + rect[2], ((zero - pixelsPerUnit) * 1000).rounded() / 1000))
        let controls = svgElements(svg, named: "circle").filter { $0["class"] == "control-point" }
        let values = controls.map { Double($0["cy"]!)! }.map { (zero - $0) / pixelsPerUnit }
        XCTAssertEqual(values[0], -0.55, accuracy: 1e-5)
        XCTAssertEqual(values[1], 1.55, accuracy: 1e-5)
        XCTAssertTrue(y.lowerBound <= -0.55 && y.upperBound >= 1.55)
    }

    /// Each spring's dashed line stands at its settlingDuration: 1.5000000000000002 s for
    /// ChouTiUI's spring (shared/conformance/animation/springs-apple-points), about 2.85 s
    /// for stiffness 100 and damping 5 (Apple's documentation, ANIMATION.md section 13).
    func testSettlingLinesAreTheSettlingDurations() throws {
        let svg = run(["--spring", "1,39.47841760435743,12.566370614359172", "--spring", "1,100,5"]).svg
        let lines = svgElements(svg, named: "line").filter { $0["class"] == "settling" }
        XCTAssertEqual(lines.count, 2)
        XCTAssertEqual(lines[0]["data-seconds"], "1.5000000000000002")
        XCTAssertEqual(Double(lines[1]["data-seconds"]!)!, 2.855, accuracy: 0.001)
        XCTAssertTrue(svg.contains("ζ 1 (critically damped), settles in 1.5 s, perceptual 1 s"))
    }

    func testErrorsAreOneLineAndNoOutput() {
        let cases: [([String], String)] = [
            (
                ["--spring", "1,100,10", "--timing-function", "linear"],
                "error: render: a chart shows timing functions or springs, not both (their time axes differ)"
            ),
            (["--timing-function", "linear", "scene.json"], "error: render: a curve chart takes no scene file, got 1"),
            (
                ["--spring", "0,100,10"],
                "error: render: --spring: expected MASS,STIFFNESS,DAMPING[,VELOCITY] with mass and stiffness "
                    + "positive and damping 0 or more, got '0,100,10'"
            ),
            (
                ["--timing-function", "1.5,0,1,1"],
                "error: render: --timing-function: expected a name (default, linear, easeIn, easeOut, "
                    + "easeInEaseOut) or x1,y1,x2,y2 with x1 and x2 in [0, 1], got '1.5,0,1,1'"
            ),
            (["--timing-function", "0.1,nan,1,1"], ""),
            (["--spring", "1,100"], ""),
            (["--spring"], ""),
        ]
        for (arguments, message) in cases {
            let (svg, status, errors) = run(arguments + ["-o", "out.svg"])
            XCTAssertEqual(status, 2, "\(arguments)")
            XCTAssertEqual(svg, "")
            XCTAssertEqual(errors.count, 1, "\(arguments)")
            if !message.isEmpty { XCTAssertEqual(errors.first, message) }
        }
    }
}
