import Foundation
import XCTest

@testable import BatchGeometry

/// Every conformance fixture (real iOS values and the seed articles' worked examples in
/// `conformance/`; the cases settled by device evidence, GEOMETRY.md section 9, in
/// `conformance/device/`; opacity, userInteractionEnabled and the view rule in
/// `conformance/opacity/`), through the library, compared with the expected file by
/// check.py's rules: frame, bounds and position bit for bit, everything else to 1e-9
/// relative (1e-9 absolute near zero); opacity and worldOpacity bit for bit too. The output bytes must not depend on the backend
/// or thread count.
final class ConformanceTests: XCTestCase {
    private var folder: String { sceneFixturesDirectory + "/conformance" }

    /// The scenes, as paths relative to `folder`: 17 seed cases, 6 device cases, 2 opacity
    /// cases.
    private func sceneNames() throws -> [String] {
        func scenes(in subfolder: String) throws -> [String] {
            try FileManager.default.contentsOfDirectory(atPath: subfolder.isEmpty ? folder : folder + "/" + subfolder)
                .filter { $0.hasSuffix(".scene.json") }
                .sorted()
                .map { subfolder.isEmpty ? $0 : subfolder + "/" + $0 }
        }
        let seeds = try scenes(in: "")
        let device = try scenes(in: "device")
        XCTAssertEqual(seeds.count, 17, "conformance/ holds 17 seed scenes")
        XCTAssertEqual(device.count, 6, "conformance/device/ holds 6 device scenes")
        let opacity = try scenes(in: "opacity")
        XCTAssertEqual(opacity.count, 2, "conformance/opacity/ holds 2 scenes (both hit-test rules)")
        return seeds + device + opacity
    }

    private func evaluate(_ name: String, _ options: KernelOptions) throws -> String {
        let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: folder + "/" + name)))
        return try Scene(json: bytes).evaluate(options: options).jsonText()
    }

    func testEveryFixtureMatchesItsExpectedOutput() throws {
        for name in try sceneNames() {
            let output = try evaluate(name, .serial(.scalar))
            let actual = try JSONSerialization.jsonObject(with: Data(output.utf8)) as? [String: Any]
            let expectedPath = folder + "/" + name.replacingOccurrences(of: ".scene.json", with: ".expected.json")
            let expected =
                try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: expectedPath)))
                as? [String: Any]
            guard let actual, let expected else { return XCTFail("\(name): not a JSON object") }
            let problems = differences(actual: actual, expected: expected)
            XCTAssert(problems.isEmpty, "\(name):\n" + problems.prefix(8).joined(separator: "\n"))
        }
    }

    func testOutputBytesAreTheSameForEveryBackendAndThreadCount() throws {
        for name in try sceneNames() {
            let reference = try evaluate(name, .serial(.scalar))
            for backend in Backend.allCases {
                for threads in 1...4 {
                    let output = try evaluate(name, KernelOptions(backend: backend, threads: threads))
                    XCTAssertEqual(output, reference, "\(name) with \(backend), \(threads) threads")
                }
            }
        }
    }

    // MARK: check.py's comparison

    private func differences(actual: [String: Any], expected: [String: Any]) -> [String] {
        var problems: [String] = []
        guard let actualLayers = actual["layers"] as? [[String: Any]],
            let expectedLayers = expected["layers"] as? [[String: Any]], actualLayers.count == expectedLayers.count
        else {
            return ["layers: counts differ"]
        }
        for (index, (a, e)) in zip(actualLayers, expectedLayers).enumerated() {
            for (key, value) in e where key != "name" {
                guard let got = a[key] else {
                    problems.append("layers[\(index)].\(key): missing")
                    continue
                }
                let exact = ["frame", "bounds", "position", "opacity", "worldOpacity"].contains(key)
                if !same(got, value, exact: exact) {
                    problems.append("layers[\(index)].\(key): got \(got), expected \(value)")
                }
            }
        }
        for key in ["drawOrder", "hits", "conversions"] {
            if let value = expected[key], !same(actual[key] ?? NSNull(), value, exact: false) {
                problems.append("\(key): got \(actual[key] ?? "nothing"), expected \(value)")
            }
        }
        return problems
    }

    private func number(_ value: Any) -> Double? {
        if let text = value as? String {
            return [
                "+Infinity": Double.infinity, "-Infinity": -Double.infinity, "NaN": Double.nan, "Infinity": .infinity,
            ][text]
        }
        return (value as? NSNumber)?.doubleValue
    }

    private func same(_ a: Any, _ b: Any, exact: Bool) -> Bool {
        if a is NSNull || b is NSNull { return a is NSNull && b is NSNull }
        if let a = a as? [Any], let b = b as? [Any] {
            return a.count == b.count && zip(a, b).allSatisfy { same($0, $1, exact: exact) }
        }
        if a is [Any] || b is [Any] { return false }
        guard let x = number(a), let y = number(b) else { return false }
        if x.isNaN || y.isNaN { return x.isNaN && y.isNaN }
        if x.isInfinite || y.isInfinite || exact { return x == y }
        return abs(x - y) <= max(1e-9 * max(abs(x), abs(y)), 1e-9)
    }
}
