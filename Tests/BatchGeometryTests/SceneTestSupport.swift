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
func decodeScene(_ text: String) throws -> Scene {
    try Scene(jsonText: text)
}

/// Decodes and evaluates `text` with the scalar serial options; an error fails the test.
func evaluateScene(_ text: String) throws -> SceneEvaluation {
    let scene = try decodeScene(text)
    return try scene.evaluate(options: .serial(.scalar))
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
