import Foundation
import XCTest

@testable import BatchGeometryPictures

final class BenchmarkChartTests: XCTestCase {
    private func report() throws -> ChartReport {
        try JSONDecoder().decode(ChartReport.self, from: Data(try fixtureBytes("charts/report.json")))
    }

    func testGoldenAndDeterminism() throws {
        let svg = try BenchmarkChart.svg(try report())
        XCTAssertEqual(svg, try BenchmarkChart.svg(try report()))
        XCTAssertNoThrow(try XMLChecker.check(svg))
        try assertGolden(svg, "charts/report.svg")
    }

    /// One bar per (kernel, backend) result at the selected size and thread count; the
    /// default selection is the largest size and the most threads.
    func testOneBarPerKernelAndBackend() throws {
        let report = try report()
        for selection in [ChartSelection(), ChartSelection(layers: 10_000, threads: 1)] {
            let svg = try BenchmarkChart.svg(report, selection: selection)
            let layers = selection.layers ?? 100_000
            let threads = selection.threads ?? 2
            let expected = report.results.filter { $0.layers == layers && $0.threads == threads }
            let bars = svgElements(svg, named: "rect").filter { $0["class"] == "bar" }
            XCTAssertEqual(bars.count, expected.count)
            XCTAssertEqual(
                Set(bars.map { "\($0["data-kernel"]!)/\($0["data-backend"]!)" }),
                Set(expected.map { "\($0.kernel)/\($0.backend)" }))
            XCTAssertEqual(Set(bars.map { "\($0["data-kernel"]!)/\($0["data-backend"]!)" }).count, bars.count)
            // The ceiling: one line per kernel whose copy was measured.
            XCTAssertEqual(svgElements(svg, named: "line").filter { $0["class"] == "ceiling" }.count, 3)
        }
    }

    /// Several thread counts and sizes: one scaling panel per kernel for each.
    func testScalingPanels() throws {
        let svg = try BenchmarkChart.svg(try report())
        XCTAssertTrue(svg.contains("id=\"scaling-threads\""))
        XCTAssertTrue(svg.contains("id=\"scaling-layers\""))
        XCTAssertEqual(svgElements(svg, named: "g").filter { $0["class"] == "panel" }.count, 6)
        XCTAssertEqual(svgElements(svg, named: "polyline").filter { $0["class"] == "scaling" }.count, 18)
        var single = try report()
        single.results = single.results.filter { $0.layers == 10_000 && $0.threads == 1 }
        let bare = try BenchmarkChart.svg(single)
        XCTAssertFalse(bare.contains("scaling-"))
        XCTAssertEqual(svgElements(bare, named: "rect").filter { $0["class"] == "bar" }.count, 9)
    }

    func testNoMatchingResultsIsAnError() throws {
        XCTAssertThrowsError(try BenchmarkChart.svg(try report(), selection: ChartSelection(workload: "3d"))) {
            XCTAssertEqual("\($0)", "no results for workload '3d' (the report has: standard)")
        }
        XCTAssertThrowsError(try BenchmarkChart.svg(try report(), selection: ChartSelection(layers: 5)))
    }

    func testCompactNumbersAndAxes() {
        XCTAssertEqual(compactNumber(1_234_567), "1.23M")
        XCTAssertEqual(compactNumber(456_000_000), "456M")
        XCTAssertEqual(compactNumber(12_345), "12.3k")
        XCTAssertEqual(compactNumber(7.5), "7.5")
        let log = ValueAxis(values: [2e5, 3e8])
        XCTAssertTrue(log.logarithmic)
        XCTAssertEqual(log.ticks, [1e5, 1e6, 1e7, 1e8, 1e9])
        let linear = ValueAxis(values: [3, 7])
        XCTAssertFalse(linear.logarithmic)
        XCTAssertEqual(linear.high, 10)
        XCTAssertEqual(linear.fraction(5), 0.5)
    }
}
