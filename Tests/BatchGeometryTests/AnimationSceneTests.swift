import XCTest

@testable import BatchGeometry

/// The presentation tree against the model (docs/ANIMATION.md sections 10, 12; SCENE-FORMAT.md
/// "Animations and time"): the model is untouched, a sample touches only the animated
/// layers, and every malformed animation is one error line naming its index and field.
final class AnimationSceneTests: XCTestCase {
    /// A sample writes the animated layers only; the model keeps its values; a copy of it
    /// with the sample applied answers for the presentation tree, bounds animations
    /// autoresizing nothing.
    func testSampleTouchesOnlyAnimatedLayers() throws {
        var model = LayerStore()
        let root = try model.addLayer()
        model.setBounds(Rect(x: 0, y: 0, width: 100, height: 100), of: root)
        var layers: [LayerHandle] = []
        for index in 0..<1000 {
            let layer = try model.addLayer(superlayer: root)
            model.setFrame(Rect(x: Double(index), y: 0, width: 10, height: 10), of: layer)
            model.setAutoresizingMask([.flexibleWidth], of: layer)
            layers.append(layer)
        }
        let before = model.copy()
        var animations = AnimationStore()
        try animations.add(basic(.positionX, from: [0], to: [100]), to: layers[10], in: model)
        try animations.add(basic(.boundsSize, from: [300, 300], to: [300, 300]), to: root, in: model)
        var values = PresentationValues()
        try animations.sample(at: 0.5, model: model, into: &values)
        XCTAssertEqual(values.count, 2)
        XCTAssertEqual(Set(values.layers), [layers[10].index, root.index])
        XCTAssertNil(values.values(of: layers[11], model: model))
        for layer in [root] + layers {
            XCTAssertEqual(model.frame(of: layer), before.frame(of: layer))
        }
        var tree = model.copy()
        tree.applyPresentation(values)
        XCTAssertEqual(tree.position(of: layers[10]).x, 50)
        XCTAssertEqual(tree.bounds(of: root).size, Size(width: 300, height: 300))
        XCTAssertEqual(tree.bounds(of: layers[11]), model.bounds(of: layers[11]))  // not autoresized
        let world = tree.updateWorld(options: .serial(.scalar))
        // The root is 300 wide about position 0: its sublayers start at −150.
        XCTAssertEqual(world[layers[10]].m41, -150 + (50 - 5))
    }

    /// A scene without animations or times prints no presentation; `times` alone samples
    /// the model.
    func testPresentationOnlyWhenAsked() throws {
        let plain = try evaluateScene(#"{"layers":[{"frame":[0,0,10,10]}]}"#).jsonText()
        XCTAssertFalse(plain.contains("presentation"))
        let sampled = try evaluateScene(#"{"layers":[{"frame":[0,0,10,10]}],"times":[0,1]}"#)
        XCTAssertEqual(sampled.presentation?.map(\.time), [0, 1])
        XCTAssertEqual(sampled.presentation?[1].layers.frames[0], Rect(x: 0, y: 0, width: 10, height: 10))
    }

    static let errors: [(String, String)] = [
        (
            #"{"layers":[{}],"animations":[{"layer":0,"keyPath":"backgroundColor"}]}"#,
            "error: animations[0].keyPath: unknown key path 'backgroundColor' (the key paths are "
                + AnimationKeyPath.allCases.map(\.rawValue).joined(separator: ", ") + ")"
        ),
        (
            #"{"layers":[{}],"animations":[{"layer":0,"keyPath":"position","toValue":[1,2,3]}]}"#,
            "error: animations[0].toValue: position takes 2 numbers, got 3"
        ),
        (
            #"{"layers":[{}],"animations":[{"layer":0,"keyPath":"position.x","kind":"keyframe","values":[0,1],"keyTimes":[0.1,1]}]}"#,
            "error: animations[0].keyTimes[0]: must be 0"
        ),
        (
            #"{"layers":[{}],"animations":[{"layer":0,"keyPath":"position.x","kind":"keyframe","values":[0,1,2],"keyTimes":[0,0.6,0.5,1]}]}"#,
            "error: animations[0].keyTimes: expected 3 (one per value), got 4"
        ),
        (
            #"{"layers":[{}],"animations":[{"layer":0,"keyPath":"opacity","duration":-1}]}"#,
            "error: animations[0].duration: must be a finite number ≥ 0, got -1"
        ),
        (
            #"{"layers":[{}],"animations":[{"layer":0,"keyPath":"transform","byValue":[1,0,0,1,0,0]}]}"#,
            "error: animations[0].byValue: not allowed on transform"
        ),
        (
            #"{"layers":[{}],"animations":[{"layer":0,"keyPath":"sublayerTransform","cumulative":true}]}"#,
            "error: animations[0].cumulative: not allowed on sublayerTransform"
        ),
        (
            #"{"layers":[{}],"animations":[{"layer":0,"keyPath":"opacity","kind":"keyframe","values":[0],"calculationMode":"cubicPaced"}]}"#,
            "error: animations[0].calculationMode: unknown calculation mode 'cubicPaced' (cubicPaced is not in version 1)"
        ),
        (
            #"{"layers":[{}],"animations":[{"layer":0,"keyPath":"opacity","mass":2}]}"#,
            "error: animations[0].mass: not a key of a basic animation"
        ),
        (
            #"{"layers":[{}],"animations":[{"layer":0,"keyPath":"opacity","repeatCount":2,"repeatDuration":1}]}"#,
            "error: animations[0].repeatDuration: repeatCount and repeatDuration cannot both be set (Apple: undefined)"
        ),
        (
            #"{"layers":[{}],"animations":[{"layer":3,"keyPath":"opacity"}]}"#,
            "error: animations[0].layer: 3 is out of range (1 layer)"
        ),
        (
            #"{"layers":[{},{"parent":0}],"operations":[{"layer":1,"remove":true}],"animations":[{"layer":1,"keyPath":"opacity"}]}"#,
            "error: animations[0].layer: layer 1 was removed by operations[0]"
        ),
        (
            #"{"layers":[{}],"times":[0,"NaN"]}"#,
            #"error: times[1]: expected a finite number, got "NaN""#
        ),
        (
            #"{"layers":[{"speed":"+Infinity"}]}"#,
            #"error: layers[0].speed: expected a finite number, got "+Infinity""#
        ),
        (
            #"{"layers":[{}],"animations":[{"layer":0,"keyPath":"transform","kind":"keyframe","values":[[1,0,0,1,0,0]],"calculationMode":"paced"}]}"#,
            "error: animations[0].calculationMode: paced is not allowed on transform"
        ),
        (
            #"{"layers":[{}],"animations":[{"layer":0,"keyPath":"opacity","kind":"keyframe","values":[0,1],"timingFunctions":[]}]}"#,
            "error: animations[0].timingFunctions: expected 1 (one per segment), got 0"
        ),
    ]

    func testMalformedAnimationsGiveOneErrorLine() {
        for (scene, error) in Self.errors {
            XCTAssertEqual(sceneErrorLine(scene), error, scene)
        }
    }
}

extension AnimationSceneTests {
    /// The frame loop of the DocC article Animations.md, line for line; the presentation
    /// store it keeps ends equal to the model's last sample, and restoring gives the model.
    func testAnimationsArticleSnippetRuns() throws {
        var model = LayerStore()
        let card = try model.addLayer()
        model.setFrame(Rect(x: 20, y: 40, width: 100, height: 60), of: card)

        var animations = AnimationStore()
        var move = Animation(keyPath: .position, content: .basic(from: [70, 70], to: [270, 470], by: nil))
        move.timing.duration = 0.5
        move.timingFunction = TimingFunction(.easeInEaseOut)
        let moving = try animations.add(move, to: card, in: model)

        var values = PresentationValues()
        var previous = PresentationValues()  // the sample the presentation tree holds
        var screen = model.copy()  // the presentation tree, kept across frames
        var frames = 0
        for frame in 0...40 {
            // The host's edits go to `model` and `screen` alike, here.
            swap(&previous, &values)
            try animations.sample(at: Double(frame) / 60, model: model, into: &values)
            screen.updatePresentation(from: previous, to: values, model: model)  // undo the old, apply the new
            let world = screen.updateWorld()  // incremental: only the animated layers changed
            _ = world[card]
            frames += 1
            if frame == 15 {
                // Half way through 0.5 s: easeInEaseOut is symmetric, so the middle.
                let half = 70 + (270 - 70) * Double(TimingFunction(.easeInEaseOut).value(at: 0.5))
                XCTAssertEqual(screen.position(of: card).x, half)
            }
            if animations.finished.contains(moving) { break }
        }
        XCTAssertEqual(frames, 32)  // removed at the first sample after 0.5 s: frame 31
        XCTAssertEqual(values.count, 0)
        XCTAssertEqual(screen.position(of: card), model.position(of: card))
    }
}

extension AnimationSceneTests {
    /// The frame query and the culled hit test answer for either tree: the model (as
    /// UIKit hit-tests) or the presentation store (what is on screen), with the same API.
    func testFrameQueryAndHitTestForEitherTree() throws {
        var model = LayerStore()
        let root = try model.addLayer()
        model.setFrame(Rect(x: 0, y: 0, width: 400, height: 400), of: root)
        let card = try model.addLayer(superlayer: root)
        model.setFrame(Rect(x: 0, y: 0, width: 20, height: 20), of: card)
        var animations = AnimationStore()
        try animations.add(basic(.position, from: [310, 310], to: [310, 310]), to: card, in: model)
        try animations.add(basic(.opacity, from: [0.25], to: [0.25]), to: card, in: model)
        var values = PresentationValues()
        try animations.sample(at: 0.5, model: model, into: &values)
        var screen = model.copy()
        screen.applyPresentation(values)

        XCTAssertEqual(model.hitTest(Point(x: 10, y: 10)), card)
        XCTAssertEqual(screen.hitTest(Point(x: 10, y: 10)), root)
        XCTAssertEqual(screen.hitTest(Point(x: 305, y: 315)), card)
        let corner = Rect(x: 300, y: 300, width: 100, height: 100)
        XCTAssertEqual(model.visibleLayers(in: corner).layers, [root])
        let shown = screen.visibleLayers(in: corner)
        XCTAssertEqual(shown.layers, [root, card])
        XCTAssertEqual(shown.worldOpacities.last, Double(Float(0.25)))
    }
}
