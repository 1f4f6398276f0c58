import Foundation
import XCTest

@testable import BatchGeometry

/// The table of `LayerProperty` (ARCHITECTURE.md, "Add a layer property"): every row is
/// checked here generically, so a property added to the table is tested as a scene key,
/// a `set` operation, an evaluation output, a C constant and a documented property
/// without a new test. What each property means is tested in its own tests
/// (OpacityTests).
final class LayerPropertyTableTests: XCTestCase {
    private static let repositoryRoot: String = {
        var components = "\(#filePath)".split(separator: "/", omittingEmptySubsequences: false)
        components.removeLast(3)  // Tests/BatchGeometryTests/this file
        return components.joined(separator: "/")
    }()

    private static func text(_ path: String) throws -> String {
        try String(contentsOfFile: repositoryRoot + "/" + path, encoding: .utf8)
    }

    /// A value other than the default, exactly representable as a 32-bit float, in
    /// JSON and as the `Double` the generic accessors give.
    private static func otherValue(_ property: LayerProperty) -> (json: String, value: Double) {
        switch property.kind {
        case .number: return ("0.25", 0.25)
        case .bool: return property.defaultValue == 1 ? ("false", 0) : ("true", 1)
        }
    }

    func testNamesAreUniqueAndFindTheirRow() {
        let names = LayerProperty.allCases.map(\.name)
        XCTAssertEqual(Set(names).count, names.count)
        XCTAssertEqual(Set(LayerProperty.allCases.map(\.cName)).count, names.count)
        // init(name:) walks the raw values from 0 up to the first gap.
        XCTAssertEqual(LayerProperty.allCases.map(\.rawValue), Array(0..<Int32(names.count)))
        for property in LayerProperty.allCases {
            XCTAssertEqual(LayerProperty(name: property.name), property)
            XCTAssertEqual(LayerProperty(rawValue: property.rawValue), property)
        }
        XCTAssertNil(LayerProperty(name: "Opacity"))
    }

    /// The header declares each C constant with the row's raw value; both contract docs
    /// name each property.
    func testTheHeaderAndTheDocsHaveEveryRow() throws {
        let header = try Self.text("Sources/CBatchGeometry/include/batchgeometry.h")
        let geometry = try Self.text("docs/GEOMETRY.md")
        let sceneFormat = try Self.text("docs/SCENE-FORMAT.md")
        for property in LayerProperty.allCases {
            XCTAssertTrue(header.contains("\(property.cName) = \(property.rawValue)"), property.cName)
            XCTAssertTrue(geometry.contains("| \(property.name) |"), "GEOMETRY.md section 2 lacks \(property.name)")
            XCTAssertTrue(sceneFormat.contains("| `\(property.name)` |"), "SCENE-FORMAT.md lacks \(property.name)")
        }
    }

    /// A new layer and a reused slot hold the row's default; the generic setter and
    /// getter round-trip the other value.
    func testDefaultsAndTheGenericAccessors() throws {
        var store = LayerStore()
        let layer = try store.addLayer()
        for property in LayerProperty.allCases {
            XCTAssertEqual(store.value(of: property, for: layer), property.defaultValue, property.name)
            let other = Self.otherValue(property).value
            store.setValue(other, of: property, for: layer)
            XCTAssertEqual(store.value(of: property, for: layer), other, property.name)
            XCTAssertTrue(property.accepts(other))
            XCTAssertEqual(property.accepts(0.5), property.kind == .number, property.name)
        }
        _ = try store.destroyLayer(layer)
        let reused = try store.addLayer()
        XCTAssertEqual(reused.index, layer.index)
        for property in LayerProperty.allCases {
            XCTAssertEqual(
                store.value(of: property, for: reused), property.defaultValue, "reused slot, \(property.name)")
        }
    }

    /// Each row is a layer key and a `set` operation of its kind; the evaluation output
    /// writes the rows marked as output, after `visible`, and worldOpacity after them.
    func testSceneKeysOperationsAndOutputFollowTheTable() throws {
        for property in LayerProperty.allCases {
            let (json, value) = Self.otherValue(property)
            let scene = try Scene(
                jsonText: """
                    {"layers": [{"frame": [0, 0, 10, 10], "\(property.name)": \(json)}, {"parent": 0}],
                     "operations": [{"layer": 1, "set": "\(property.name)", "value": \(json)}]}
                    """)
            XCTAssertEqual(scene.store.value(of: property, at: 0), value, property.name)
            XCTAssertEqual(scene.operations, [SceneOperation(layer: 1, change: .property(property, value))])
            let evaluation = try scene.evaluate()
            XCTAssertEqual(evaluation.store.value(of: property, at: 1), value, property.name)
            let output = try JSONSerialization.jsonObject(with: Data(evaluation.jsonText().utf8)) as? [String: Any]
            let layers = output?["layers"] as? [[String: Any]]
            let first = try XCTUnwrap(layers?.first)
            XCTAssertEqual(first[property.name] != nil, property.isEvaluationOutput, property.name)
            if property.isEvaluationOutput, property.kind == .number {
                XCTAssertEqual((first[property.name] as? NSNumber)?.doubleValue, value, property.name)
            }
            XCTAssertNotNil(first["worldOpacity"])
            let line = evaluation.jsonText().split(separator: "\n")[2]
            if property.isEvaluationOutput {
                XCTAssertTrue(line.contains("\"visible\": true, \"\(property.name)\": "), String(line))
            }
        }
    }

    /// Wrong types, as layer keys and as operation values, and duplicates: one error line
    /// naming the field.
    func testBadValuesAreSceneErrors() {
        for property in LayerProperty.allCases {
            let (wrong, expected) =
                property.kind == .number
                ? ("true", "expected a number, got true") : ("1", "expected true or false, got a number")
            XCTAssertEqual(
                sceneErrorLine(#"{"layers": [{"\#(property.name)": \#(wrong)}]}"#),
                "error: layers[0].\(property.name): \(expected)")
            let operationMessage =
                property.kind == .number
                ? "expected a number for \(property.name), got true"
                : "expected true or false for \(property.name), got a number"
            XCTAssertEqual(
                sceneErrorLine(
                    #"{"layers": [{}], "operations": [{"layer": 0, "set": "\#(property.name)", "value": \#(wrong)}]}"#),
                "error: operations[0].value: \(operationMessage)")
            let json = Self.otherValue(property).json
            XCTAssertEqual(
                sceneErrorLine(#"{"layers": [{"\#(property.name)": \#(json), "\#(property.name)": \#(json)}]}"#),
                "error: layers[0].\(property.name): duplicate key")
        }
        XCTAssertEqual(
            sceneErrorLine(#"{"layers": [{"opacity": "0.5"}]}"#),
            #"error: layers[0].opacity: expected a number, got the string "0.5" (only "NaN", "+Infinity" and "-Infinity" stand for numbers)"#
        )
        XCTAssertEqual(
            sceneErrorLine(#"{"layers": [{}], "operations": [{"layer": 0, "set": "opacity", "value": [0.5]}]}"#),
            "error: operations[0].value: expected a number for opacity, got an array of 1 number")
        XCTAssertEqual(
            sceneErrorLine(#"{"layers": [{"opacity": null}]}"#), "error: layers[0].opacity: expected a number, got null"
        )
    }

    /// Number words round-trip through the float column: NaN and the infinities are
    /// kept, and a finite value beyond the float range becomes an infinity.
    func testNonFiniteOpacitiesInScenes() throws {
        let scene = try Scene(
            jsonText: #"{"layers": [{"opacity": "NaN"}, {"opacity": "-Infinity"}, {"opacity": 1e39}]}"#)
        XCTAssertTrue(scene.store.opacity(of: 0).isNaN)
        XCTAssertEqual(scene.store.opacity(of: 1), -.infinity)
        XCTAssertEqual(scene.store.opacity(of: 2), .infinity)
        let text = try scene.evaluate().jsonText()
        XCTAssertTrue(text.contains(#""opacity": "NaN", "worldOpacity": "NaN""#), text)
        XCTAssertTrue(text.contains(#""opacity": "+Infinity", "worldOpacity": "+Infinity""#), text)
    }
}
