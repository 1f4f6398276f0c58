import Foundation
import XCTest

@testable import BatchGeometry

/// The curve queries of scene files (docs/SCENE-FORMAT.md "Animations and time"): the
/// in-repo curve conformance cases through the library, outputs equal to the Time/
/// functions, absent when not asked for, and one error line per malformed query.
final class CurveSceneTests: XCTestCase {
    private var folder: String { sceneFixturesDirectory + "/conformance/animation" }

    /// The three curve cases (the other six are presentation cases:
    /// PresentationConformanceTests), compared as scripts/conformance.py compares them: timing
    /// function and spring values, deceleration targets and offsets bit for bit, the rest
    /// within 1e-9 relative.
    func testCurveConformanceCases() throws {
        let names = try FileManager.default.contentsOfDirectory(atPath: folder).filter { $0.hasSuffix(".scene.json") }
        XCTAssertEqual(names.count, 9)
        var curveCases = 0
        let exactFields: Set<String> = ["values", "target", "offsets"]
        for name in names.sorted() {
            let scene = try Scene(json: [UInt8](try Data(contentsOf: URL(fileURLWithPath: folder + "/" + name))))
            let output = try scene.evaluate(options: .serial(.scalar)).jsonText()
            let actual = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(output.utf8)) as? [String: Any])
            let expectedURL = URL(
                fileURLWithPath: folder + "/" + name.replacingOccurrences(of: ".scene", with: ".expected"))
            let expected = try XCTUnwrap(
                try JSONSerialization.jsonObject(with: Data(contentsOf: expectedURL)) as? [String: Any])
            if expected["presentation"] != nil { continue }
            curveCases += 1
            var compared = 0
            for key in ["timingFunctionOutputs", "rubberBandOutputs"] where expected[key] != nil {
                let exact = key == "timingFunctionOutputs"
                XCTAssertTrue(same(actual[key] as Any, expected[key]!, exact: exact), "\(name) \(key)")
                compared += 1
            }
            for key in ["springOutputs", "viewSpringOutputs", "decelerationOutputs"] where expected[key] != nil {
                let want = try XCTUnwrap(expected[key] as? [[String: Any]])
                let got = try XCTUnwrap(actual[key] as? [[String: Any]], "\(name) \(key)")
                XCTAssertEqual(got.count, want.count, "\(name) \(key)")
                for (index, (g, w)) in zip(got, want).enumerated() {
                    for (field, value) in w {
                        let exact = exactFields.contains(field)
                        XCTAssertTrue(same(g[field] as Any, value, exact: exact), "\(name) \(key)[\(index)].\(field)")
                    }
                }
                compared += 1
            }
            XCTAssertGreaterThan(compared, 0, name)
        }
        XCTAssertEqual(curveCases, 3)
    }

    private func same(_ a: Any, _ b: Any, exact: Bool) -> Bool {
        if let a = a as? [Any], let b = b as? [Any] {
            return a.count == b.count && zip(a, b).allSatisfy { same($0, $1, exact: exact) }
        }
        guard let x = (a as? NSNumber)?.doubleValue, let y = (b as? NSNumber)?.doubleValue else { return false }
        return exact
            ? x.bitPattern == y.bitPattern
            : Swift.abs(x - y) <= Swift.max(1e-9 * Swift.max(Swift.abs(x), Swift.abs(y)), 1e-9)
    }

    func testOutputsAreTheTimeFunctions() throws {
        let scene = try Scene(
            jsonText: """
                {"layers": [],
                 "timingFunctions": [{"function": "easeOut", "inputs": [0.1, 0.7]},
                                     {"function": [0.3, 1.4, 0.6, 0.9], "inputs": [0.5]}],
                 "springs": [{"stiffness": 250, "damping": 8, "initialVelocity": 2, "epsilons": [0.01],
                              "inputs": [0.3], "duration": 0.8},
                             {"damping": 40, "allowsOverdamping": true, "epsilons": [], "inputs": []}],
                 "viewSprings": [{"duration": 0.4, "dampingRatio": 0.8}],
                 "decelerations": [{"offset": [5, 10], "velocity": [-2, 3], "rate": 0.99, "times": [0.1]}],
                 "rubberBands": [{"offset": -30, "dimension": 400, "constant": 0.4}],
                 "scale": 3}
                """)
        let outputs = try scene.evaluate().curveOutputs
        let easeOut = TimingFunction(.easeOut)
        let custom = try XCTUnwrap(TimingFunction(controlPoints: 0.3, 1.4, 0.6, 0.9))
        XCTAssertEqual(
            outputs.timingFunctions, [[easeOut.value(at: 0.1), easeOut.value(at: 0.7)], [custom.value(at: 0.5)]])
        let spring = Spring(stiffness: 250, damping: 8, initialVelocity: 2)
        let overdamped = Spring(damping: 40, allowsOverdamping: true)
        XCTAssertEqual(
            outputs.springs,
            [
                SceneSpringOutput(
                    settlingDuration: spring.settlingDuration, perceptualDuration: spring.perceptualDuration,
                    durationForEpsilon: [spring.duration(forEpsilon: 0.01)],
                    values: [spring.progress(forInput: 0.3, duration: 0.8)]),
                SceneSpringOutput(
                    settlingDuration: overdamped.settlingDuration, perceptualDuration: overdamped.perceptualDuration,
                    durationForEpsilon: [], values: []),
            ])
        let view = Spring.viewAnimationParameters(duration: 0.4, dampingRatio: 0.8)
        XCTAssertEqual(
            outputs.viewSprings, [SceneViewSpringOutput(mass: 1, stiffness: view.stiffness, damping: view.damping)])
        // The deceleration's scale is the scene's, given after it in the file.
        let deceleration = ScrollDeceleration(
            offset: Point(x: 5, y: 10), velocity: Point(x: -2, y: 3), rate: 0.99, displayScale: 3)
        XCTAssertEqual(
            outputs.decelerations,
            [
                SceneDecelerationOutput(
                    target: deceleration.target, duration: deceleration.duration,
                    offsets: [deceleration.offset(at: 0.1)])
            ])
        XCTAssertEqual(outputs.rubberBands, [rubberBandOffset(overscroll: -30, dimension: 400, constant: 0.4)])
    }

    func testOutputsAreAbsentUnlessAskedFor() throws {
        let plain = try Scene(jsonText: #"{"layers": [{"frame": [0, 0, 10, 10]}]}"#).evaluate().jsonText()
        XCTAssertFalse(plain.contains("Outputs"))
        let empty = try Scene(jsonText: #"{"layers": [], "rubberBands": [], "springs": []}"#).evaluate().jsonText()
        XCTAssertTrue(empty.contains("\"rubberBandOutputs\": []"))
        XCTAssertTrue(empty.contains("\"springOutputs\": []"))
        XCTAssertFalse(empty.contains("timingFunctionOutputs"))
        XCTAssertNotNil(try JSONSerialization.jsonObject(with: Data(empty.utf8)))
    }

    func testDefaultsOfTheQueries() throws {
        let scene = try Scene(
            jsonText: """
                {"layers": [], "springs": [{}], "rubberBands": [{"offset": 5, "dimension": 100}],
                 "decelerations": [{"offset": [0, 0], "velocity": [1, 1]}]}
                """)
        XCTAssertEqual(
            scene.curveQueries.springs, [SceneSpringQuery(spring: Spring(), epsilons: [], inputs: [], duration: 1)])
        XCTAssertEqual(
            scene.curveQueries.rubberBands, [SceneRubberBandQuery(offset: 5, dimension: 100, constant: 0.55)])
        let deceleration = try XCTUnwrap(scene.curveQueries.decelerations?.first)
        XCTAssertEqual(deceleration.deceleration.rate, 0.998)
        XCTAssertEqual(deceleration.deceleration.displayScale, 1)
        XCTAssertNil(deceleration.times)
        XCTAssertEqual(deceleration.deceleration.maximumOffset.x, .infinity)
        XCTAssertNil(scene.curveQueries.timingFunctions)
    }

    /// (scene text, the exact error line); each message checked by hand against the scene.
    static let errors: [(scene: String, error: String)] = [
        (
            #"{"layers":[],"timingFunctions":[{"function":"bounce","inputs":[0.5]}]}"#,
            #"error: timingFunctions[0].function: unknown timing function 'bounce' (the names are default, linear, easeIn, easeOut, easeInEaseOut)"#
        ),
        (
            #"{"layers":[],"timingFunctions":[{"function":"linear"},{"function":[0.2,0,1.2,1]}]}"#,
            #"error: timingFunctions[1].function[2]: x2 must be in [0, 1], got 1.2"#
        ),
        (
            #"{"layers":[],"timingFunctions":[{"function":[0.2,0,1]}]}"#,
            #"error: timingFunctions[0].function: expected 4 numbers [x1, y1, x2, y2], got 3"#
        ),
        (
            #"{"layers":[],"timingFunctions":[{"function":"linear","inputs":[0,"NaN"]}]}"#,
            #"error: timingFunctions[0].inputs[1]: expected a finite number, got "NaN""#
        ),
        (
            #"{"layers":[],"timingFunctions":[{"inputs":[0.5]}]}"#,
            #"error: timingFunctions[0]: missing "function""#
        ),
        (
            #"{"layers":[],"springs":[{"mass":1,"mass":2}]}"#,
            #"error: springs[0].mass: duplicate key"#
        ),
        (
            #"{"layers":[],"springs":[{"stiffness":"+Infinity"}]}"#,
            #"error: springs[0].stiffness: expected a finite number, got "+Infinity""#
        ),
        (
            #"{"layers":[],"springs":[{"duration":-0.5}]}"#,
            #"error: springs[0].duration: must be 0 or more, got -0.5"#
        ),
        (
            #"{"layers":[],"springs":[{"timingFunction":"linear"}]}"#,
            #"error: springs[0].timingFunction: unknown key (a spring query has mass, stiffness, damping, initialVelocity, allowsOverdamping, epsilons, inputs, duration)"#
        ),
        (
            #"{"layers":[],"viewSprings":[{"dampingRatio":0.5}]}"#,
            #"error: viewSprings[0]: missing "duration""#
        ),
        (
            #"{"layers":[],"decelerations":[{"offset":[0,0],"velocity":[0,1],"rate":0}]}"#,
            #"error: decelerations[0].rate: must be between 0 and 1 (exclusive), got 0"#
        ),
        (
            #"{"layers":[],"decelerations":[{"offset":[0,0],"velocity":[0,1],"contentSize":[1,1]}]}"#,
            #"error: decelerations[0].contentSize: needs boundsSize (give both or neither)"#
        ),
        (
            #"{"layers":[],"decelerations":[{"offset":[0,0],"velocity":[0,1],"scale":-2}]}"#,
            #"error: decelerations[0].scale: must be positive, got -2"#
        ),
        (
            #"{"layers":[],"decelerations":[{"offset":[0,0],"velocity":[0,1],"times":[0,-0.1]}]}"#,
            #"error: decelerations[0].times[1]: must be 0 or more, got -0.1"#
        ),
        (
            #"{"layers":[],"decelerations":[{"velocity":[0,1]}]}"#,
            #"error: decelerations[0]: missing "offset""#
        ),
        (
            #"{"layers":[],"rubberBands":[{"offset":10,"dimension":0}]}"#,
            #"error: rubberBands[0].dimension: must be positive, got 0"#
        ),
        (
            #"{"layers":[],"times":[0,1,0.5]}"#,
            #"error: times[2]: sample times must not decrease (0.5 after 1)"#
        ),
        (
            #"{"layers":[],"rubberBands":{"offset":10}}"#,
            #"error: rubberBands: expected an array of rubber-band query objects, got an object"#
        ),
    ]

    func testMalformedQueriesGiveOneErrorLine() {
        for (scene, error) in Self.errors {
            XCTAssertEqual(sceneErrorLine(scene), error, scene)
        }
    }
}

/// Curve queries with extreme numbers (huge, tiny, negative, zero, subnormal) in every
/// field: each scene decodes or fails with one `SceneError` line, never traps, and its
/// output is JSON whose non-finite numbers are written as the scene format's strings.
/// Spring parameters stay moderate: an absurd spring's settling search is legitimately
/// long (docs/DEBTS.md).
final class CurveSceneRobustnessTests: XCTestCase {
    func testExtremeNumbersDecodeOrFailCleanly() throws {
        var random = SplitMix64(seed: 2323)
        let extremes: [String] = [
            "0", "-0.0", "1", "-1", "0.5", "1e308", "-1e308", "5e-324", "-5e-324", "1e-300", "3.4028234663852886e38",
            "1e20", "-7.25", "0.994", "0.99999999",
        ]
        func number() -> String { extremes[random.below(extremes.count)] }
        func moderate() -> String { ["0", "1", "-3", "0.25", "40", "300", "7.5"][random.below(7)] }
        var decoded = 0
        for _ in 0..<300 {
            let text = """
                {"layers": [], "scale": \(["1", "2", "3", "1e-300"][random.below(4)]),
                 "timingFunctions": [{"function": [\(random.unit()), \(number()), \(random.unit()), \(number())],
                                      "inputs": [\(number()), \(number())]}],
                 "springs": [{"mass": \(moderate()), "stiffness": \(moderate()), "damping": \(moderate()),
                              "initialVelocity": \(number()), "allowsOverdamping": \(random.below(2) == 0),
                              "epsilons": [\(number())], "inputs": [\(number())], "duration": \(number())}],
                 "viewSprings": [{"duration": \(number()), "dampingRatio": \(number()), "initialVelocity": \(number())}],
                 "decelerations": [{"offset": [\(number()), \(number())], "velocity": [\(number()), \(number())],
                                    "rate": \([number(), "0.5", "0.994", "0.998", "0.99"][random.below(5)]), "boundsSize": [\(number()), \(number())],
                                    "contentSize": [\(number()), \(number())],
                                    "contentInset": [\(number()), \(number()), \(number()), \(number())],
                                    "times": [\(number()), \(number())]}],
                 "rubberBands": [{"offset": \(number()), "dimension": \(number()), "constant": \(number())}]}
                """
            let scene: Scene
            do {
                scene = try Scene(jsonText: text)
            } catch {
                XCTAssertFalse(error.description.contains("\n"))
                continue
            }
            decoded += 1
            let output = try scene.evaluate(options: .serial(.scalar)).jsonText()
            let parsed = try JSONSerialization.jsonObject(with: Data(output.utf8)) as? [String: Any]
            XCTAssertNotNil(parsed?["rubberBandOutputs"], text)
            XCTAssertFalse(output.contains("nan") || output.contains("inf"), output)
        }
        XCTAssertGreaterThan(decoded, 30, "some scenes must get through the decoder")
        XCTAssertLessThan(decoded, 300, "and some must not")
    }
}
