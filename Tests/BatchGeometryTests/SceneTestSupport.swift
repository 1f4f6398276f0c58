import XCTest

@testable import BatchGeometry

/// Fixtures are read from the source tree (next to this file), which works for
/// `swift test` from any directory without depending on the resource bundle's layout.
let sceneFixturesDirectory: String = {
    var components = "\(#filePath)".split(separator: "/", omittingEmptySubsequences: false)
    components.removeLast()
    return components.joined(separator: "/") + "/Fixtures"
}()

/// Decodes `text`, or fails the test with the error.
func decodeScene(_ text: String, file: StaticString = #filePath, line: UInt = #line) -> Scene? {
    do {
        return try Scene(jsonText: text)
    } catch {
        XCTFail("unexpected error: \(error)", file: file, line: line)
        return nil
    }
}

/// Decodes and evaluates `text` serially with the scalar reference.
func evaluateScene(_ text: String, file: StaticString = #filePath, line: UInt = #line) -> SceneEvaluation? {
    guard let scene = decodeScene(text, file: file, line: line) else { return nil }
    do {
        return try scene.evaluate(options: .serial(.scalar))
    } catch {
        XCTFail("unexpected error: \(error)", file: file, line: line)
        return nil
    }
}

/// The error line `batchbench eval` would print for `text`, or nil if it decodes.
func sceneErrorLine(_ text: String) -> String? {
    do {
        _ = try Scene(jsonText: text)
        return nil
    } catch {
        return "error: \(error)"
    }
}
