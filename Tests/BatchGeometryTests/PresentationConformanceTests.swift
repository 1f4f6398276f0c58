import Foundation
import XCTest

@testable import BatchGeometry

/// The six presentation cases of the in-repo animation fixtures through the library
/// (docs/SCENE-FORMAT.md "Animations and time"): each sample's time and finished list
/// exactly, every presentation layer number within 1e-9 relative, and the model output
/// still the model's.
final class PresentationConformanceTests: XCTestCase {
    private var folder: String { sceneFixturesDirectory + "/conformance/animation" }

    func testPresentationCases() throws {
        let names = try FileManager.default.contentsOfDirectory(atPath: folder).filter { $0.hasSuffix(".scene.json") }
        var checked = 0
        for name in names.sorted() {
            let expected = try json(at: folder + "/" + name.replacingOccurrences(of: ".scene", with: ".expected"))
            guard let want = expected["presentation"] as? [[String: Any]] else { continue }
            let scene = try Scene(json: [UInt8](try Data(contentsOf: URL(fileURLWithPath: folder + "/" + name))))
            let output = try scene.evaluate(options: .serial(.scalar)).jsonText()
            let actual = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(output.utf8)) as? [String: Any])
            let got = try XCTUnwrap(actual["presentation"] as? [[String: Any]], name)
            XCTAssertEqual(got.count, want.count, name)
            for (index, (g, w)) in zip(got, want).enumerated() {
                XCTAssertEqual(g["time"] as? Double, w["time"] as? Double, "\(name) [\(index)] time")
                XCTAssertEqual(g["finished"] as? [Int], w["finished"] as? [Int], "\(name) [\(index)] finished")
                XCTAssertTrue(same(g["layers"] as Any, w["layers"] as Any), "\(name) presentation[\(index)].layers")
            }
            // The model output is not touched by the animations.
            XCTAssertTrue(same(actual["layers"] as Any, expected["layers"] as Any), "\(name) model layers")
            checked += 1
        }
        XCTAssertEqual(checked, 6)
    }

    private func json(at path: String) throws -> [String: Any] {
        try XCTUnwrap(
            try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: path))) as? [String: Any])
    }

    private func same(_ a: Any, _ b: Any) -> Bool {
        if let a = a as? [Any], let b = b as? [Any] {
            return a.count == b.count && zip(a, b).allSatisfy { same($0, $1) }
        }
        if let a = a as? [String: Any], let b = b as? [String: Any] {
            return b.allSatisfy { key, value in a[key].map { same($0, value) } ?? false }
        }
        if a is NSNull || b is NSNull { return a is NSNull && b is NSNull }
        if let a = a as? String, let b = b as? String { return a == b }
        guard let x = (a as? NSNumber)?.doubleValue, let y = (b as? NSNumber)?.doubleValue else { return false }
        return Swift.abs(x - y) <= Swift.max(1e-9 * Swift.max(Swift.abs(x), Swift.abs(y)), 1e-9)
    }
}
