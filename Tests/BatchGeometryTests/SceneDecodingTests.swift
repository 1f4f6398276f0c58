import Foundation
import XCTest

@testable import BatchGeometry

/// Good scene files: every key and every operation decoded with the meaning
/// SCENE-FORMAT.md and GEOMETRY.md give it (expected values derived by hand), and the
/// output's numbers reading back to the same doubles.
final class SceneDecodingTests: XCTestCase {
    func testEveryLayerKey() throws {
        let scene = try decodeScene(
            """
            {"layers": [
              {"name": "root", "frame": [0, 0, 375, 812], "masksToBounds": true},
              {"name": "card", "parent": 0, "bounds": [5, 6, 200, 120], "position": [187.5, 300],
               "anchorPoint": [0.25, 0.75], "zPosition": 3, "anchorPointZ": -2,
               "transform": [2, 0, 0, 2, 0, 0],
               "sublayerTransform": [1,0,0,0, 0,1,0,0, 0,0,1,-0.002, 0,0,0,1],
               "geometryFlipped": true, "hidden": true, "isTransformLayer": true},
              {"parent": null, "frame": [0, 400, 375, 300], "contentSize": [375, 2000],
               "contentInset": [1, 2, 3, 4]}
            ]}
            """)
        let store = scene.store.copy()
        XCTAssertEqual(scene.layerCount, 3)
        XCTAssertEqual(scene.names, ["root", "card", nil])
        XCTAssertEqual(store.superlayer(of: 0), nil)
        XCTAssertEqual(store.superlayer(of: 1), 0)
        XCTAssertEqual(store.superlayer(of: 2), nil)
        XCTAssertTrue(store.masksToBounds(0))
        XCTAssertEqual(store.bounds(of: 1), Rect(x: 5, y: 6, width: 200, height: 120))
        XCTAssertEqual(store.position(of: 1), Point(x: 187.5, y: 300))
        XCTAssertEqual(store.anchorPoint(of: 1), Point(x: 0.25, y: 0.75))
        XCTAssertEqual(store.zPosition(of: 1), 3)
        XCTAssertEqual(store.anchorPointZ(of: 1), -2)
        XCTAssertEqual(store.affineTransform(of: 1), AffineTransform(a: 2, b: 0, c: 0, d: 2, tx: 0, ty: 0))
        XCTAssertEqual(store.sublayerTransform(of: 1).m34, -0.002)
        XCTAssertEqual(store.sublayerTransform(of: 1).m11, 1)
        XCTAssertTrue(store.isGeometryFlipped(1))
        XCTAssertTrue(store.isHidden(1))
        XCTAssertTrue(store.isTransformLayer(1))
        XCTAssertFalse(store.masksToBounds(1))
        XCTAssertEqual(
            store.scrollView(of: 2),
            ScrollViewState(
                contentSize: Size(width: 375, height: 2000),
                contentInset: EdgeInsets(top: 1, left: 2, bottom: 3, right: 4)))
        XCTAssertNil(store.scrollView(of: 0))
        // frame (0, 400, 375, 300) with the default anchor: position = origin + size / 2.
        XCTAssertEqual(store.position(of: 2), Point(x: 187.5, y: 550))
    }

    func testTopLevelKeys() throws {
        let scene = try decodeScene(
            """
            {"viewport": [0, 0, 375, 812], "hitTestMode": "view", "layers": [{}, {}],
             "hitTests": [[1, 2], [3.5, -4]],
             "conversions": [{"point": [1, 2], "from": 0, "to": null}, {"point": [0, 0], "to": 1}, {"point": [5, 6]}]}
            """)
        XCTAssertEqual(scene.viewport, Rect(x: 0, y: 0, width: 375, height: 812))
        XCTAssertEqual(scene.hitTestMode, .view)
        XCTAssertEqual(scene.hitTests, [Point(x: 1, y: 2), Point(x: 3.5, y: -4)])
        XCTAssertEqual(
            scene.conversions,
            [
                SceneConversion(point: Point(x: 1, y: 2), from: 0, to: nil),
                SceneConversion(point: Point(x: 0, y: 0), from: nil, to: 1),
                SceneConversion(point: Point(x: 5, y: 6), from: nil, to: nil),
            ])
        let defaults = try decodeScene(#"{"layers": []}"#)
        XCTAssertEqual(defaults.hitTestMode, .layer)
        XCTAssertNil(defaults.viewport)
        XCTAssertEqual(defaults.layerCount, 0)
    }

    func testCreationOrderIsAnchorFrameBoundsPositionThenTheRest() throws {
        // Written in the opposite order on purpose: the keys' order in the file must not matter.
        let scene = try decodeScene(
            """
            {"layers": [
              {"transform": [2, 0, 0, 2, 0, 0], "position": [100, 100], "bounds": [0, 0, 60, 40],
               "frame": [10, 20, 30, 40], "anchorPoint": [0.25, 0.5]},
              {"transform": [2, 0, 0, 2, 0, 0], "frame": [0, 0, 100, 100]}
            ]}
            """)
        // anchorPoint first; frame (identity transform): position = (10 + 0.25*30, 20 + 0.5*40)
        // = (17.5, 40); then bounds 60x40 keeps that position; then position overrides it.
        XCTAssertEqual(scene.store.bounds(of: 0), Rect(x: 0, y: 0, width: 60, height: 40))
        XCTAssertEqual(scene.store.position(of: 0), Point(x: 100, y: 100))
        // Frame set under the identity transform, then scale 2 about the centre (50, 50):
        // the 100x100 frame grows to (-50, -50, 200, 200).
        XCTAssertEqual(scene.store.bounds(of: 1), Rect(x: 0, y: 0, width: 100, height: 100))
        XCTAssertEqual(scene.store.frame(of: 1), Rect(x: -50, y: -50, width: 200, height: 200))
        let evaluation = try evaluateScene(
            """
            {"layers": [{"anchorPoint": [0.25, 0.5], "frame": [10, 20, 30, 40], "bounds": [0, 0, 60, 40]}]}
            """)
        // Bounds grow about the anchor: x = 17.5 - 0.25*60 = 2.5, y = 40 - 0.5*40 = 20.
        XCTAssertEqual(evaluation.frames[0], Rect(x: 2.5, y: 20, width: 60, height: 40))
    }

    func testParentsMayComeLaterAndSiblingsKeepArrayOrder() throws {
        let evaluation = try evaluateScene(
            """
            {"layers": [{"parent": 2}, {"parent": 2}, {"frame": [10, 20, 100, 100]}, {"parent": 2}, {"parent": 0}]}
            """)
        XCTAssertEqual(evaluation.store.sublayers(of: 2), [0, 1, 3])
        XCTAssertEqual(evaluation.store.sublayers(of: 0), [4])
        XCTAssertEqual(evaluation.store.rootIndices, [2])
        XCTAssertEqual(evaluation.drawOrder, [2, 0, 4, 1, 3])
        // The child sits at its parent's origin (10, 20) in world space.
        XCTAssertEqual(evaluation.world[0].m41, 10)
        XCTAssertEqual(evaluation.world[4].m42, 20)
    }

    func testRandomForestsWithParentsAnywhereKeepArrayOrderAmongSiblings() throws {
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<50 {
            let count = Int.random(in: 1...40, using: &generator)
            // A random ranking makes the forest acyclic: a parent has a lower rank, any index.
            let rank = Array(0..<count).shuffled(using: &generator)
            let byRank = (0..<count).sorted { rank[$0] < rank[$1] }
            var parents = [Int?](repeating: nil, count: count)
            for position in 1..<max(count, 1) where Bool.random(using: &generator) {
                parents[byRank[position]] = byRank[Int.random(in: 0..<position, using: &generator)]
            }
            let layers = parents.map { $0.map { "{\"parent\": \($0)}" } ?? "{}" }.joined(separator: ", ")
            let scene = try decodeScene("{\"layers\": [\(layers)]}")
            for layer in 0..<count {
                XCTAssertEqual(scene.store.superlayer(of: layer), parents[layer])
                // Sublayers are exactly the layers naming this parent, in array order.
                XCTAssertEqual(scene.store.sublayers(of: layer), (0..<count).filter { parents[$0] == layer })
            }
            XCTAssertEqual(scene.store.rootIndices, (0..<count).filter { parents[$0] == nil })
        }
    }

    func testEveryOperation() throws {
        let evaluation = try evaluateScene(
            """
            {"layers": [
              {"frame": [0, 0, 375, 812]},
              {"parent": 0, "frame": [100, 100, 100, 100]},
              {"parent": 0, "frame": [0, 400, 375, 300], "contentSize": [375, 2000], "contentInset": [10, 0, 20, 0]}
            ],
             "operations": [
              {"layer": 1, "set": "transform", "value": [2, 0, 0, 2, 0, 0]},
              {"layer": 1, "set": "frame", "value": [50, 50, 100, 100]},
              {"value": [0, 0], "set": "anchorPoint", "layer": 0},
              {"layer": 0, "set": "center", "value": [1, 2]},
              {"layer": 0, "set": "position", "value": [3, 4]},
              {"layer": 0, "set": "bounds", "value": [0, 0, 10, 10]},
              {"layer": 0, "set": "sublayerTransform", "value": [1,0,0,0, 0,1,0,0, 0,0,1,-0.001, 0,0,0,1]},
              {"layer": 0, "set": "zPosition", "value": 7},
              {"layer": 0, "set": "anchorPointZ", "value": "-Infinity"},
              {"layer": 0, "set": "contentOffset", "value": [-5, -6]},
              {"layer": 0, "set": "geometryFlipped", "value": true},
              {"layer": 0, "set": "masksToBounds", "value": true},
              {"layer": 0, "set": "hidden", "value": true},
              {"layer": 0, "set": "isTransformLayer", "value": true},
              {"layer": 2, "set": "scrollTo", "value": [-50, 5000]}
            ]}
            """)
        let store = evaluation.store.copy()
        // Seed 001 Q3: after scale(2, 2), frame (50,50,100,100) gives bounds 50x50, position (100,100).
        XCTAssertEqual(store.bounds(of: 1), Rect(x: 0, y: 0, width: 50, height: 50))
        XCTAssertEqual(store.position(of: 1), Point(x: 100, y: 100))
        XCTAssertEqual(evaluation.frames[1], Rect(x: 50, y: 50, width: 100, height: 100))
        XCTAssertEqual(store.anchorPoint(of: 0), Point(x: 0, y: 0))
        XCTAssertEqual(store.position(of: 0), Point(x: 3, y: 4))
        XCTAssertEqual(store.bounds(of: 0), Rect(x: -5, y: -6, width: 10, height: 10))
        XCTAssertEqual(store.sublayerTransform(of: 0).m34, -0.001)
        XCTAssertEqual(store.zPosition(of: 0), 7)
        XCTAssertEqual(store.anchorPointZ(of: 0), -.infinity)
        XCTAssertTrue(store.isGeometryFlipped(0))
        XCTAssertTrue(store.masksToBounds(0))
        XCTAssertTrue(store.isHidden(0))
        XCTAssertTrue(store.isTransformLayer(0))
        // scrollTo clamps: x to -left = 0, y to contentSize + bottom - height = 2000 + 20 - 300.
        XCTAssertEqual(store.contentOffset(of: 2), Point(x: 0, y: 1720))
        // The scene's own store is untouched by evaluation.
        let scene = try decodeScene(
            #"{"layers": [{"frame": [1, 2, 3, 4]}], "operations": [{"layer": 0, "set": "position", "value": [0, 0]}]}"#
        )
        _ = try scene.evaluate()
        XCTAssertEqual(scene.store.frame(of: 0), Rect(x: 1, y: 2, width: 3, height: 4))
    }

    func testNonFiniteStringsAreAcceptedWhereverANumberIs() throws {
        let scene = try decodeScene(
            """
            {"viewport": ["-Infinity", "-Infinity", "+Infinity", "+Infinity"],
             "layers": [{"position": ["NaN", "+Infinity"], "zPosition": "-Infinity",
                         "transform": ["NaN", 0, 0, 1, 0, 0]}],
             "hitTests": [["NaN", 1]]}
            """)
        XCTAssertTrue(scene.store.position(of: 0).x.isNaN)
        XCTAssertEqual(scene.store.position(of: 0).y, .infinity)
        XCTAssertEqual(scene.store.zPosition(of: 0), -.infinity)
        XCTAssertTrue(scene.store.affineTransform(of: 0).a.isNaN)
        XCTAssertEqual(scene.viewport?.x, -.infinity)
        XCTAssertTrue(scene.hitTests[0].x.isNaN)
    }

    func testQueriesFollowTheHitTestModeAndConvertThroughTheWorld() throws {
        let scene = """
            {"hitTestMode": "%@", "viewport": [0, 0, 100, 100],
             "layers": [{"frame": [0, 0, 100, 100]}, {"parent": 0, "frame": [150, 0, 50, 50]},
                        {"parent": 0, "frame": [10, 20, 30, 30]}, {"parent": 0, "transform": [0, 0, 0, 0, 0, 0]}],
             "hitTests": [[160, 10], [15, 25], [-1, -1]],
             "conversions": [{"point": [0, 0], "from": 2, "to": null}, {"point": [10, 20], "to": 2},
                             {"point": [1, 1], "from": 2, "to": 1}, {"point": [1, 1], "to": 3}]}
            """
        let layerRule = try evaluateScene(scene.replacingOccurrences(of: "%@", with: "layer"))
        // The layer rule hits a sublayer sticking out of its unmasked superlayer; the view rule does not.
        XCTAssertEqual(layerRule.hits, [1, 2, nil])
        let viewRule = try evaluateScene(scene.replacingOccurrences(of: "%@", with: "view"))
        XCTAssertEqual(viewRule.hits, [nil, 2, nil])
        XCTAssertEqual(layerRule.conversions, [Point(x: 10, y: 20), Point(x: 0, y: 0), Point(x: -139, y: 21), nil])
        // Layer 1 lies outside the viewport; layer 3 has zero size.
        XCTAssertEqual(layerRule.visible, [true, false, true, false])
    }

    func testOutputNumbersReadBackToTheSameDoubles() throws {
        let values: [Double] = [
            // 5e-324 (the least nonzero), the largest finites, and a negative subnormal.
            -0.0, Double.leastNonzeroMagnitude, 1.7976931348623157e308, -1.7976931348623157e308,
            0.1, 1e-7, 1e21, 375, -(Double.leastNormalMagnitude / 1024),
        ]
        for value in values {
            let evaluation = try evaluateScene("{\"layers\": [{\"position\": [\(value), 1]}]}")
            XCTAssertEqual(evaluation.store.position(of: 0).x.bitPattern, value.bitPattern, "\(value) decoded")
            let output = evaluation.jsonText()
            // Take the written number back out of the output and parse it again.
            let marker = "\"position\": ["
            let start = try XCTUnwrap(output.range(of: marker)).upperBound
            let written = String(output[start...].prefix { $0 != "," })
            XCTAssertEqual(Double(written)?.bitPattern, value.bitPattern, "\(value) written as \(written)")
            let again = try evaluateScene("{\"layers\": [{\"position\": [\(written), 1]}]}")
            XCTAssertEqual(again.store.position(of: 0).x.bitPattern, value.bitPattern, "\(written) read back")
        }
        XCTAssert(
            try evaluateScene(#"{"layers": [{"position": [-0.0, 0]}]}"#).jsonText()
                .contains(#""position": [-0.0, 0.0]"#))
    }

    func testNonFiniteOutputIsWrittenAsStringsAndReadsBack() throws {
        let evaluation = try evaluateScene(
            #"{"layers": [{"position": ["NaN", "-Infinity"], "zPosition": "+Infinity"}]}"#)
        let output = evaluation.jsonText()
        XCTAssert(output.contains(#""position": ["NaN", "-Infinity"]"#), output)
        let scene = try decodeScene(#"{"layers": [{"position": ["NaN", "-Infinity"]}]}"#)
        XCTAssertTrue(scene.store.position(of: 0).x.isNaN)
    }

    func testNumberSyntaxIsCorrectlyRounded() throws {
        // Halfway cases and long mantissas must round to nearest-even, as the stdlib parser does.
        let cases: [(String, Double)] = [
            ("9007199254740993", 9_007_199_254_740_992), ("0.1", 0.1),
            // The largest subnormal:
            ("2.2250738585072011e-308", Double.leastNormalMagnitude.nextDown),
            ("1e-400", 0), ("-0", -0.0), ("123456789012345678901234567890", 1.2345678901234568e29), ("1E+2", 100),
        ]
        for (text, expected) in cases {
            let scene = try decodeScene("{\"layers\": [{\"zPosition\": \(text)}]}")
            XCTAssertEqual(scene.store.zPosition(of: 0).bitPattern, expected.bitPattern, text)
        }
    }

    func testStringsWithEscapesAndUnicode() throws {
        let scene = try decodeScene(#"{"layers": [{"name": "a\"b\\c\/d\n\u00e9\ud83d\ude00 é"}]}"#)
        XCTAssertEqual(scene.names[0], "a\"b\\c/d\n\u{e9}\u{1F600} é")
        let output = try scene.evaluate().jsonText()
        XCTAssert(output.contains(#""name": "a\"b\\c/d\né😀 é""#), output)
    }

    func testTopLevelKeysMayComeInAnyOrder() throws {
        // Operations and conversions before the layers they name are checked once all layers exist.
        let evaluation = try evaluateScene(
            """
            {"conversions": [{"point": [0, 0], "from": 1}],
             "operations": [{"layer": 1, "set": "position", "value": [30, 40]}],
             "hitTests": [[30, 40]],
             "layers": [{"frame": [0, 0, 100, 100]}, {"parent": 0, "bounds": [0, 0, 10, 10]}]}
            """)
        // Position (30, 40) with the default anchor: the 10x10 layer's origin is at (25, 35).
        XCTAssertEqual(evaluation.conversions, [Point(x: 25, y: 35)])
        XCTAssertEqual(evaluation.hits, [1])
    }

    func testEmptySceneAndBOMAndWhitespace() throws {
        let bytes: [UInt8] = [0xEF, 0xBB, 0xBF] + Array(" \t\r\n{\"layers\":[]} \n".utf8)
        let scene = try Scene(json: bytes)
        XCTAssertEqual(
            try scene.evaluate().jsonText(),
            "{\n \"layers\": [\n ],\n \"drawOrder\": [],\n \"hits\": [],\n \"conversions\": []\n}\n")
    }

    /// `scale`, `autoresizingMask` (names or the integer), `autoresizesSubviews`, and the
    /// same two as operations. Creation keys do not autoresize; a `bounds` operation does
    /// (x6's flexible margins: 10 + 100·10/70); contentOffset rounds at the scene's scale.
    func testScaleAndAutoresizing() throws {
        let text = """
            {"scale": 3, "layers": [
              {"frame": [0, 0, 100, 100], "autoresizesSubviews": false,
               "contentSize": [100, 1000]},
              {"parent": 0, "frame": [10, 10, 30, 30],
               "autoresizingMask": ["flexibleLeftMargin", "flexibleRightMargin"]},
              {"parent": 0, "frame": [10, 10, 30, 30], "autoresizingMask": 18}
            ],
            "operations": [
              {"layer": 0, "set": "bounds", "value": [0, 0, 150, 100]},
              {"layer": 0, "set": "autoresizesSubviews", "value": true},
              {"layer": 0, "set": "frame", "value": [0, 0, 250, 100]},
              {"layer": 2, "set": "autoresizingMask", "value": []},
              {"layer": 1, "set": "autoresizingMask", "value": 0},
              {"layer": 0, "set": "contentOffset", "value": [0, 71.75]},
              {"layer": 0, "set": "scrollTo", "value": [0, -187.5]}
            ]}
            """
        let scene = try decodeScene(text)
        XCTAssertEqual(scene.store.displayScale, 3)
        XCTAssertFalse(scene.store.autoresizesSubviews(0))
        XCTAssertEqual(scene.store.autoresizingMask(of: 1), [.flexibleLeftMargin, .flexibleRightMargin])
        XCTAssertEqual(scene.store.autoresizingMask(of: 2), [.flexibleWidth, .flexibleHeight])
        XCTAssertEqual(scene.operations[3].change, .autoresizingMask([]))
        let evaluation = try evaluateScene(text)
        let store = evaluation.store.copy()
        // The first resize (autoresizesSubviews false) moved nothing; the second,
        // 150 → 250, shared 100 between margins 10 and 110: x = 10 + 100·10/120.
        XCTAssertEqual(store.frame(of: 1), Rect(x: 10 + (100 * 10) / 120, y: 10, width: 30, height: 30))
        XCTAssertEqual(store.frame(of: 2), Rect(x: 10, y: 10, width: 130, height: 30))
        XCTAssertEqual(store.autoresizingMask(of: 1), [])
        // scrollTo clamps -187.5 to the range's top, 0; contentOffset 71.75 was rounded
        // to 71.66666666666667 before it.
        XCTAssertEqual(store.contentOffset(of: 0), Point(x: 0, y: 0))
        let withoutScroll = text.replacingOccurrences(
            of: """
                ,
                  {"layer": 0, "set": "scrollTo", "value": [0, -187.5]}
                """, with: "")
        XCTAssertNotEqual(withoutScroll, text)
        let partial = try evaluateScene(withoutScroll)
        XCTAssertEqual(partial.store.contentOffset(of: 0), Point(x: 0, y: 71.66666666666667))
    }
}
