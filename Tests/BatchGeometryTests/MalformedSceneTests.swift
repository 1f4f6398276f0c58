import Foundation
import XCTest

@testable import BatchGeometry

/// Malformed scenes (SCENE-FORMAT.md "Errors", issue 5): each must give exactly this one
/// error line, the one `batchbench eval` prints, naming the layer or operation index and
/// the field. Every message was checked by hand against the scene text.
final class MalformedSceneTests: XCTestCase {
    /// (scene text, the exact error line)
    static let cases: [(scene: String, error: String)] = [
        (
            #"{"layers":[{"transform":[1,2,3,4,5]}]}"#,
            #"error: layers[0].transform: expected 6 or 16 numbers, got 5"#
        ),
        (
            #"{"layers":[{"parent":7},{},{},{},{},{},{}]}"#,
            #"error: layers[0].parent: 7 is out of range (7 layers)"#
        ),
        (
            #"{"layers":[{}],"operations":[{"layer":0,"set":"foo","value":1}]}"#,
            #"error: operations[0].set: unknown property 'foo'"#
        ),
        (
            #"{"layers":[{"parent":-1}]}"#,
            #"error: layers[0].parent: -1 is out of range (1 layer)"#
        ),
        (
            #"{"layers":[{"parent":1.5}]}"#,
            #"error: layers[0].parent: expected a layer index (a whole number), got 1.5"#
        ),
        (
            #"{"layers":[{"parent":"0"}]}"#,
            #"error: layers[0].parent: expected a layer index, got a string"#
        ),
        (
            #"{"layers":[{},{"parent":2},{"parent":1}]}"#,
            #"error: layers[1].parent: 2 makes a parent cycle (parent chain 1 -> 2 -> 1)"#
        ),
        (
            #"{"layers":[{"parent":0}]}"#,
            #"error: layers[0].parent: a layer cannot be its own parent"#
        ),
        (
            #"{"layers":[{"parent":3},{"parent":0},{"parent":1},{"parent":2}]}"#,
            #"error: layers[0].parent: 3 makes a parent cycle (parent chain 0 -> 3 -> 2 -> 1 -> 0)"#
        ),
        (
            #"{"layers":[{"frame":[1,2,3]}]}"#,
            #"error: layers[0].frame: expected 4 numbers [x, y, width, height], got 3"#
        ),
        (
            #"{"layers":[{"bounds":[1,2,3,4,5]}]}"#,
            #"error: layers[0].bounds: expected 4 numbers [x, y, width, height], got 5"#
        ),
        (
            #"{"layers":[{"position":[1]}]}"#,
            #"error: layers[0].position: expected 2 numbers [x, y], got 1"#
        ),
        (
            #"{"layers":[{"anchorPoint":"center"}]}"#,
            #"error: layers[0].anchorPoint: expected 2 numbers [x, y], got a string"#
        ),
        (
            #"{"layers":[{"frame":[1,true,3,4]}]}"#,
            #"error: layers[0].frame[1]: expected a number, got true"#
        ),
        (
            #"{"layers":[{"zPosition":"high"}]}"#,
            #"error: layers[0].zPosition: expected a number, got the string "high" (only "NaN", "+Infinity" and "-Infinity" stand for numbers)"#
        ),
        (
            #"{"layers":[{"zPosition":[1]}]}"#,
            #"error: layers[0].zPosition: expected a number, got an array"#
        ),
        (
            #"{"layers":[{"hidden":1}]}"#,
            #"error: layers[0].hidden: expected true or false, got a number"#
        ),
        (
            #"{"layers":[{"name":5}]}"#,
            #"error: layers[0].name: expected a string, got a number"#
        ),
        (
            #"{"layers":[{"contentSize":[1,2,3]}]}"#,
            #"error: layers[0].contentSize: expected 2 numbers [width, height], got 3"#
        ),
        (
            #"{"layers":[{"contentInset":[0,0,0,0]}]}"#,
            #"error: layers[0].contentInset: needs contentSize (only a scroll view has insets)"#
        ),
        (
            #"{"layers":[{"sublayerTransform":[1,0,0,1]}]}"#,
            #"error: layers[0].sublayerTransform: expected 6 or 16 numbers, got 4"#
        ),
        (
            #"{"layers":[{"frme":[1,2,3,4]}]}"#,
            #"error: layers[0].frme: unknown key (a layer has name, parent, bounds, position, frame, anchorPoint, zPosition, anchorPointZ, transform, sublayerTransform, geometryFlipped, masksToBounds, hidden, isTransformLayer, contentSize, contentInset, autoresizingMask, autoresizesSubviews, beginTime, speed, timeOffset, opacity, userInteractionEnabled)"#
        ),
        // Structure operations (SCENE-FORMAT.md).
        (
            #"{"layers":[{},{"parent":0}],"operations":[{"layer":0,"set":"superlayer","value":1}]}"#,
            #"error: operations[0].value: moving layer 0 under layer 1 would make a cycle (1 is inside 0's subtree)"#
        ),
        (
            #"{"layers":[{}],"operations":[{"layer":0,"set":"superlayer","value":0}]}"#,
            #"error: operations[0].value: layer 0 cannot be its own superlayer"#
        ),
        (
            #"{"layers":[{},{"parent":0}],"operations":[{"layer":1,"remove":true},{"layer":1,"set":"hidden","value":true}]}"#,
            #"error: operations[1].layer: layer 1 was removed by operations[0]"#
        ),
        (
            #"{"layers":[{},{"parent":0},{}],"operations":[{"layer":0,"remove":true},{"layer":2,"set":"superlayer","value":1}]}"#,
            #"error: operations[1].value: layer 1 was removed by operations[0]"#
        ),
        (
            #"{"layers":[{},{"parent":0},{"parent":0}],"operations":[{"layer":2,"set":"superlayer","value":0,"index":2}]}"#,
            #"error: operations[0].index: 2 is out of range (0...1: layer 0 has 1 sublayer besides layer 2)"#
        ),
        (
            #"{"layers":[{},{}],"operations":[{"layer":1,"set":"superlayer","value":null,"index":-1}]}"#,
            #"error: operations[0].index: -1 is out of range (0...1: there is 1 root besides layer 1)"#
        ),
        (
            #"{"layers":[{}],"operations":[{"layer":0,"set":"hidden","value":true,"index":0}]}"#,
            #"error: operations[0].index: only a superlayer operation takes an index"#
        ),
        (
            #"{"layers":[{}],"operations":[{"layer":0,"remove":false}]}"#,
            #"error: operations[0].remove: expected true ("remove": true removes the layer)"#
        ),
        (
            #"{"layers":[{}],"operations":[{"layer":0,"remove":true,"set":"hidden","value":true}]}"#,
            #"error: operations[0]: an operation either sets a property or removes the layer, not both"#
        ),
        (
            #"{"layers":[{},{}],"operations":[{"layer":0,"set":"superlayer","value":1.5}]}"#,
            #"error: operations[0].value: expected a layer index or null for superlayer, got 1.5"#
        ),
        (
            #"{"layers":[{},{}],"operations":[{"layer":0,"set":"superlayer","value":9}]}"#,
            #"error: operations[0].value: 9 is out of range (2 layers)"#
        ),
        (
            #"{"layers":[{},{"parent":0}],"operations":[{"layer":1,"remove":true}],"conversions":[{"point":[0,0],"from":1}]}"#,
            #"error: conversions[0].from: layer 1 was removed by operations[0]"#
        ),
        (
            #"{"layers":[{}],"operations":[{"layer":0}]}"#,
            #"error: operations[0]: missing "set" (or "remove": true)"#
        ),
        // Autoresizing and the display scale (GEOMETRY.md sections 1, 2 and 4).
        (
            #"{"layers":[{"autoresizingMask":["flexibleWidth","flexibleWidht"]}]}"#,
            #"error: layers[0].autoresizingMask[1]: unknown autoresizing flag 'flexibleWidht' (the flags are flexibleLeftMargin, flexibleWidth, flexibleRightMargin, flexibleTopMargin, flexibleHeight, flexibleBottomMargin)"#
        ),
        (
            #"{"layers":[{"autoresizingMask":64}]}"#,
            #"error: layers[0].autoresizingMask: expected an integer 0...63 (UIViewAutoresizing), got 64"#
        ),
        (
            #"{"layers":[{"autoresizingMask":-1}]}"#,
            #"error: layers[0].autoresizingMask: expected an integer 0...63 (UIViewAutoresizing), got -1"#
        ),
        (
            #"{"layers":[{"autoresizingMask":1.5}]}"#,
            #"error: layers[0].autoresizingMask: expected an integer 0...63 (UIViewAutoresizing), got 1.5"#
        ),
        (
            #"{"layers":[{"autoresizingMask":"NaN"}]}"#,
            #"error: layers[0].autoresizingMask: expected an integer 0...63 (UIViewAutoresizing), got "NaN""#
        ),
        (
            #"{"layers":[{"autoresizingMask":true}]}"#,
            #"error: layers[0].autoresizingMask: expected an array of autoresizing flag names or an integer 0...63, got true"#
        ),
        (
            #"{"layers":[{"autoresizingMask":[2]}]}"#,
            #"error: layers[0].autoresizingMask[0]: expected an autoresizing flag name, got a number"#
        ),
        (
            #"{"layers":[{"autoresizesSubviews":1}]}"#,
            #"error: layers[0].autoresizesSubviews: expected true or false, got a number"#
        ),
        (
            #"{"scale":-1,"layers":[{}]}"#,
            #"error: scale: expected a positive finite number, got -1"#
        ),
        (
            #"{"scale":0,"layers":[{}]}"#,
            #"error: scale: expected a positive finite number, got 0"#
        ),
        (
            #"{"scale":"+Infinity","layers":[{}]}"#,
            #"error: scale: expected a positive finite number, got "+Infinity""#
        ),
        (
            #"{"scale":"NaN","layers":[{}]}"#,
            #"error: scale: expected a positive finite number, got "NaN""#
        ),
        (
            #"{"scale":null,"layers":[{}]}"#,
            #"error: scale: expected a number, got null"#
        ),
        (
            #"{"layers":[{}],"operations":[{"layer":0,"set":"autoresizingMask","value":["flexibleHeight","left"]}]}"#,
            #"error: operations[0].value[1]: unknown autoresizing flag 'left' (the flags are flexibleLeftMargin, flexibleWidth, flexibleRightMargin, flexibleTopMargin, flexibleHeight, flexibleBottomMargin)"#
        ),
        (
            #"{"layers":[{}],"operations":[{"layer":0,"value":["left"],"set":"autoresizingMask"}]}"#,
            #"error: operations[0].value[0]: unknown autoresizing flag 'left' (the flags are flexibleLeftMargin, flexibleWidth, flexibleRightMargin, flexibleTopMargin, flexibleHeight, flexibleBottomMargin)"#
        ),
        (
            #"{"layers":[{}],"operations":[{"layer":0,"set":"autoresizingMask","value":99}]}"#,
            #"error: operations[0].value: expected an integer 0...63 (UIViewAutoresizing), got 99"#
        ),
        (
            #"{"layers":[{}],"operations":[{"layer":0,"value":[1,2],"set":"autoresizingMask"}]}"#,
            #"error: operations[0].value: expected an array of autoresizing flag names or an integer 0...63 for autoresizingMask, got an array of 2 numbers"#
        ),
        (
            #"{"layers":[{}],"operations":[{"layer":0,"set":"position","value":["left","right"]}]}"#,
            #"error: operations[0].value: expected 2 numbers [x, y] for position, got an array of 2 strings"#
        ),
        (
            #"{"layers":[{}],"operations":[{"layer":0,"set":"position","value":["left",2]}]}"#,
            #"error: operations[0].value[0]: expected a number, got the string "left" (only "NaN", "+Infinity" and "-Infinity" stand for numbers)"#
        ),
        (
            #"{"layers":[{}],"operations":[{"layer":0,"set":"autoresizesSubviews","value":0}]}"#,
            #"error: operations[0].value: expected true or false for autoresizesSubviews, got a number"#
        ),
        (
            #"{"layers":[{"frame":[0,0,1,1],"frame":[0,0,1,1]}]}"#,
            #"error: layers[0].frame: duplicate key"#
        ),
        (
            #"{"layers":{}}"#,
            #"error: layers: expected an array of layer objects, got an object"#
        ),
        (
            #"{"layers":[5]}"#,
            #"error: layers[0]: expected a layer object, got a number"#
        ),
        (
            #"{}"#,
            #"error: scene: missing "layers""#
        ),
        (
            #"[]"#,
            #"error: scene: expected a JSON object (the scene), got an array"#
        ),
        (
            #"{"layers":[]} x"#,
            #"error: scene: invalid JSON at line 1, column 15 (byte 14): unexpected data after the scene object, found 'x'"#
        ),
        (
            #"{"layers":[],"layers":[]}"#,
            #"error: layers: duplicate key"#
        ),
        (
            #"{"layers":[],"viewport":[0,0,1]}"#,
            #"error: viewport: expected 4 numbers [x, y, width, height], got 3"#
        ),
        (
            #"{"layers":[],"hitTestMode":"touch"}"#,
            #"error: hitTestMode: expected "layer" or "view", got "touch""#
        ),
        (
            #"{"layers":[],"hitTests":[[1,2,3]]}"#,
            #"error: hitTests[0]: expected 2 numbers [x, y], got 3"#
        ),
        (
            #"{"layers":[],"hitTests":[[1,null]]}"#,
            #"error: hitTests[0][1]: expected a number, got null"#
        ),
        (
            #"{"layers":[],"conversions":[{"from":0}]}"#,
            #"error: conversions[0]: missing "point""#
        ),
        (
            #"{"layers":[{}],"conversions":[{"point":[0,0],"to":1}]}"#,
            #"error: conversions[0].to: 1 is out of range (1 layer)"#
        ),
        (
            #"{"layers":[{}],"conversions":[{"point":[0,0],"via":1}]}"#,
            #"error: conversions[0].via: unknown key (a conversion has point, from, to)"#
        ),
        (
            #"{"layers":[{}],"operations":[{"layer":1,"set":"hidden","value":true}]}"#,
            #"error: operations[0].layer: 1 is out of range (1 layer)"#
        ),
        (
            #"{"layers":[{}],"operations":[{"layer":0,"set":"scrollTo","value":[0,10]}]}"#,
            #"error: operations[0].layer: scrollTo needs a scroll view, and layer 0 has no contentSize"#
        ),
        (
            #"{"layers":[{}],"operations":[{"layer":0,"set":"frame","value":[0,0,10]}]}"#,
            #"error: operations[0].value: expected 4 numbers [x, y, width, height] for frame, got an array of 3 numbers"#
        ),
        (
            #"{"layers":[{}],"operations":[{"layer":0,"set":"hidden","value":1}]}"#,
            #"error: operations[0].value: expected true or false for hidden, got a number"#
        ),
        (
            #"{"layers":[{}],"operations":[{"layer":0,"set":"zPosition","value":[1]}]}"#,
            #"error: operations[0].value: expected a number for zPosition, got an array of 1 number"#
        ),
        (
            #"{"layers":[{}],"operations":[{"layer":0,"set":"transform","value":[1,0,0,1,0]}]}"#,
            #"error: operations[0].value: expected 6 or 16 numbers, got 5"#
        ),
        (
            #"{"layers":[{}],"operations":[{"layer":0,"value":true}]}"#,
            #"error: operations[0]: missing "set" (or "remove": true)"#
        ),
        (
            #"{"layers":[{}],"operations":[{"set":"hidden","value":true}]}"#,
            #"error: operations[0]: missing "layer""#
        ),
        (
            #"{"layers":[{}],"operations":[{"layer":0,"set":"hidden"}]}"#,
            #"error: operations[0]: missing "value""#
        ),
        (
            #"{"layers":[{}],"operations":[{"layer":0,"set":"hidden","value":null}]}"#,
            #"error: operations[0].value: expected true or false for hidden, got null"#
        ),
        (
            #"{"layers":[{}],"operations":[{"layer":0,"set":"position","value":[[1],2]}]}"#,
            #"error: operations[0].value[0]: expected a number, got an array"#
        ),
        (
            #"{"layers":[{}],"operations":[{"layer":0,"set":"hidden","value":true,"extra":1}]}"#,
            #"error: operations[0].extra: unknown key (an operation has layer, set, value, index; or layer, remove)"#
        ),
        (
            #"{"layers":[{}],"operations":[5]}"#,
            #"error: operations[0]: expected an operation object {"layer", "set", "value"}, got a number"#
        ),
        (
            #"{"layers":[{"zPosition":1e999}]}"#,
            #"error: layers[0].zPosition: 1e999 is too large for a double (write "+Infinity" or "-Infinity" for infinity)"#
        ),
        (
            #"{"layers":[{"zPosition":01}]}"#,
            #"error: layers[0].zPosition: invalid JSON at line 1, column 26 (byte 25): invalid number: leading zero"#
        ),
        (
            #"{"layers":[{"zPosition":1.}]}"#,
            #"error: layers[0].zPosition: invalid JSON at line 1, column 27 (byte 26): invalid number: expected a digit after '.', found '}'"#
        ),
        (
            #"{"layers":[{"zPosition":-}]}"#,
            #"error: layers[0].zPosition: invalid JSON at line 1, column 26 (byte 25): invalid number: expected a digit, found '}'"#
        ),
        (
            #"{"layers":[{"zPosition":NaN}]}"#,
            #"error: layers[0].zPosition: invalid JSON at line 1, column 25 (byte 24): expected a value, found 'N'"#
        ),
        (
            #"{"layers":[{"name":"abc}]}"#,
            #"error: layers[0].name: invalid JSON at line 1, column 27 (byte 26): unterminated string"#
        ),
        (
            #"{"layers":[{"name":"a\qb"}]}"#,
            #"error: layers[0].name: invalid JSON at line 1, column 22 (byte 21): invalid escape '\q'"#
        ),
        // A backslash before a raw newline or tab: the byte is named, never printed
        // (the scene fuzzer's first find: a raw newline made the error two lines).
        (
            "{\"layers\":[{\"name\":\"a\\\nb\"}]}",
            #"error: layers[0].name: invalid JSON at line 1, column 22 (byte 21): invalid escape: '\' followed by byte 0xA"#
        ),
        (
            "{\"layers\":[{\"name\":\"a\\\tb\"}]}",
            #"error: layers[0].name: invalid JSON at line 1, column 22 (byte 21): invalid escape: '\' followed by byte 0x9"#
        ),
        (
            #"{"layers":[{"name":"\ud800"}]}"#,
            #"error: layers[0].name: invalid JSON at line 1, column 21 (byte 20): unpaired surrogate in a \u escape"#
        ),
        (
            #"{"layers":[{"frame":[1,2,3,4]"#,
            #"error: layers[0]: invalid JSON at line 1, column 30 (byte 29): expected ',' or '}' after an object member, found end of input"#
        ),
        (
            #"{"layers":[{"frame":[1,2 3,4]}]}"#,
            #"error: layers[0].frame: invalid JSON at line 1, column 26 (byte 25): expected ',' or ']' after an array element, found '3'"#
        ),
        (
            #"{"layers":[{"hidden":tru}]}"#,
            #"error: layers[0].hidden: invalid JSON at line 1, column 22 (byte 21): invalid literal (expected true)"#
        ),
        (
            #"{layers:[]}"#,
            #"error: scene: invalid JSON at line 1, column 2 (byte 1): expected a key in double quotes, found 'l'"#
        ),
    ]

    func testEachMalformedSceneGivesItsErrorLine() {
        XCTAssertGreaterThanOrEqual(Self.cases.count, 30)
        XCTAssertEqual(Set(Self.cases.map(\.scene)).count, Self.cases.count, "the cases are distinct")
        for (scene, error) in Self.cases {
            XCTAssertEqual(sceneErrorLine(scene), error, scene)
        }
    }

    func testErrorsCarryPathAndMessageSeparately() {
        XCTAssertThrowsError(try Scene(jsonText: #"{"layers":[{},{},{},{"transform":[1,2,3,4,5]}]}"#).layerCount) {
            error in
            XCTAssertEqual(
                error as? SceneError,
                SceneError(path: "layers[3].transform", message: "expected 6 or 16 numbers, got 5"))
        }
    }

    func testByteLevelProblems() {
        func line(_ bytes: [UInt8]) -> String? {
            do {
                _ = try Scene(json: bytes)
                return nil
            } catch { return "error: \(error)" }
        }
        XCTAssertEqual(
            line([]), "error: scene: invalid JSON at line 1, column 1 (byte 0): expected a value, found end of input")
        XCTAssertEqual(
            line(Array(#"{"layers":[{"name":"x"#.utf8) + [0x01] + Array(#""}]}"#.utf8)),
            "error: layers[0].name: invalid JSON at line 1, column 22 (byte 21): control character in a string (escape it)"
        )
        XCTAssertEqual(
            line(Array(#"{"layers":[{"name":""#.utf8) + [0xFF] + Array(#""}]}"#.utf8)),
            "error: layers[0].name: invalid JSON at line 1, column 21 (byte 20): invalid UTF-8 in a string")
        XCTAssertEqual(
            line(Array("{\n\"layers\": [\n  {\"frame\": [1, 2, 3, 4],\n   \"hidden\": yes}]}".utf8)),
            "error: layers[0].hidden: invalid JSON at line 4, column 14 (byte 53): expected a value, found 'y'")
    }

    func testAnEscapedKeyStaysOnOneLine() throws {
        let error = try XCTUnwrap(sceneErrorLine(#"{"layers":[{"na\nme":1}]}"#))
        XCTAssertFalse(error.contains("\n"), error)
        XCTAssert(error.hasPrefix(#"error: layers[0]."na\nme": unknown key"#), error)
    }

    func testDeepNestingIsAnErrorNotACrash() {
        let depth = 1_000_000
        let nested = #"{"layers":"# + String(repeating: "[", count: depth) + String(repeating: "]", count: depth) + "}"
        XCTAssertEqual(sceneErrorLine(nested), "error: layers[0]: expected a layer object, got an array")
        let operationValue =
            #"{"layers":[{}],"operations":[{"layer":0,"set":"position","value":"#
            + String(repeating: "[", count: depth) + "}"
        XCTAssertEqual(sceneErrorLine(operationValue), "error: operations[0].value[0]: expected a number, got an array")
        XCTAssertEqual(
            sceneErrorLine(String(repeating: "{", count: depth)),
            #"error: scene: invalid JSON at line 1, column 2 (byte 1): expected a key in double quotes, found '{'"#)
    }

    func testALongParentCycleIsNamedFromItsSmallestLayer() {
        // 100 layers, each the parent of the one before, and layer 0's parent the last.
        let layers = (0..<100).map { #"{"parent":\#(($0 + 1) % 100)}"# }.joined(separator: ",")
        XCTAssertEqual(
            sceneErrorLine(#"{"layers":[\#(layers)]}"#),
            "error: layers[0].parent: 1 makes a parent cycle (parent chain 0 -> 1 -> 2 -> 3 -> 4 -> 5 -> 6 -> 7 -> ... -> 0)"
        )
    }
    /// Random damage to the conformance scenes (byte flips, insertions, deletions,
    /// truncation, fixed seed): the decoder must either succeed (and then evaluate) or
    /// throw a one-line SceneError; it must never trap.
    func testDamagedScenesNeverTrap() throws {
        let folder = sceneFixturesDirectory + "/conformance"
        let names = try FileManager.default.contentsOfDirectory(atPath: folder).filter { $0.hasSuffix(".scene.json") }
            .sorted()
        var random = SplitMix64(seed: 0x5CE1E)
        let alphabet = Array(#"{}[]",:-+.0123456789eE "NaNInfinity truefalsenull\u"#.utf8) + [0x00, 0xFF, 0x0A]
        var errors = 0
        var decoded = 0
        for name in names {
            let original = [UInt8](try Data(contentsOf: URL(fileURLWithPath: folder + "/" + name)))
            for _ in 0..<150 {
                var bytes = original
                for _ in 0..<(1 + Int(random.next() % 3)) where !bytes.isEmpty {
                    let position = Int(random.next() % UInt64(bytes.count))
                    switch random.next() % 4 {
                    case 0: bytes[position] = alphabet[Int(random.next() % UInt64(alphabet.count))]
                    case 1: bytes.insert(alphabet[Int(random.next() % UInt64(alphabet.count))], at: position)
                    case 2: bytes.remove(at: position)
                    default: bytes.removeSubrange(position...)
                    }
                }
                do {
                    _ = try Scene(json: bytes).evaluate(options: .serial(.scalar)).jsonText()
                    decoded += 1
                } catch {
                    errors += 1
                    XCTAssertFalse(error.description.contains("\n"), error.description)
                    XCTAssertFalse(error.path.isEmpty)
                    XCTAssertFalse(error.message.isEmpty)
                }
            }
        }
        XCTAssertGreaterThan(errors, 1000, "most damage must be caught")
        XCTAssertGreaterThan(decoded, 0, "some damage (inside numbers or names) still decodes")
    }
}
