// Fixture files, golden comparison, and reading SVG attributes back.

import Foundation
import XCTest

@testable import BatchGeometryPictures

/// Fixtures/ beside this file.
let fixturesDirectory = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Fixtures")

func fixtureBytes(_ relativePath: String) throws -> [UInt8] {
    [UInt8](try Data(contentsOf: fixturesDirectory.appendingPathComponent(relativePath)))
}

/// With BATCHGEOMETRY_UPDATE_GOLDENS=1 in the environment, `assertGolden` rewrites the
/// golden files instead of comparing (then review `git diff` and commit them).
let updatingGoldens = ProcessInfo.processInfo.environment["BATCHGEOMETRY_UPDATE_GOLDENS"] == "1"

/// `actual` equals the committed file `relativePath` byte for byte (or, when updating,
/// is written there).
func assertGolden(_ actual: String, _ relativePath: String, file: StaticString = #filePath, line: UInt = #line) throws {
    let url = fixturesDirectory.appendingPathComponent(relativePath)
    if updatingGoldens {
        try Data(actual.utf8).write(to: url)
        return
    }
    guard let expected = try? String(decoding: Data(contentsOf: url), as: UTF8.self) else {
        XCTFail(
            "no golden \(relativePath); run with BATCHGEOMETRY_UPDATE_GOLDENS=1 to create it", file: file, line: line)
        return
    }
    if actual != expected {
        let actualLines = actual.split(separator: "\n", omittingEmptySubsequences: false)
        let expectedLines = expected.split(separator: "\n", omittingEmptySubsequences: false)
        let first =
            Array(zip(actualLines, expectedLines)).firstIndex { $0 != $1 }
            ?? min(actualLines.count, expectedLines.count)
        let got = first < actualLines.count ? String(actualLines[first]) : "<end>"
        let wanted = first < expectedLines.count ? String(expectedLines[first]) : "<end>"
        XCTFail(
            "\(relativePath) differs at line \(first + 1):\n  got:      \(got)\n  expected: \(wanted)\n(BATCHGEOMETRY_UPDATE_GOLDENS=1 regenerates it)",
            file: file, line: line)
    }
}

/// The start tags of elements named `name` in an SVG written by SVGWriter (one element
/// per line), as attribute dictionaries.
func svgElements(_ svg: String, named name: String) -> [[String: String]] {
    svg.split(separator: "\n").compactMap { line in
        let trimmed = line.drop { $0 == " " }
        guard trimmed.hasPrefix("<\(name) ") else { return nil }
        var attributes: [String: String] = [:]
        var rest = Substring(trimmed.dropFirst(name.count + 2))
        while let equals = rest.firstIndex(of: "=") {
            let key = rest[..<equals].trimmingCharacters(in: .whitespaces)
            let valueStart = rest.index(equals, offsetBy: 2)
            guard let valueEnd = rest[valueStart...].firstIndex(of: "\"") else { break }
            attributes[key] = String(rest[valueStart..<valueEnd])
            rest = rest[rest.index(after: valueEnd)...]
        }
        return attributes
    }
}

/// A `points` attribute read back.
func parsePoints(_ text: String) -> [Point2D] {
    text.split(separator: " ").map { pair in
        let parts = pair.split(separator: ",").map { Double(String($0))! }
        return Point2D(parts[0], parts[1])
    }
}
