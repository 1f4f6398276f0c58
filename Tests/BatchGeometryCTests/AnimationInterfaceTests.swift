// The animation functions of batchgeometry.h ("Animations: the presentation tree") against
// the Swift calls they run: a mix of every kind (basic with timing functions, spring,
// keyframe in each calculation mode, additive and cumulative, whole transforms, repeats,
// autoreverse, fills) added through C and through `AnimationStore`, sampled at the same
// times: the same presentation values to the bit, the same finished lists, the same
// presentation tree. (The C tests, Tests/CInterface/test_c_api_animations.h, check a
// conformance case's expected values from C.)

import CBatchGeometry
import XCTest

@testable import BatchGeometry
@testable import BatchGeometryC

final class AnimationInterfaceTests: XCTestCase {
    private var message: String { String(cString: bgLastErrorMessage()!) }

    /// A C store with a root and `count` sublayers, each with its own frame.
    private func makeStore(_ count: Int) -> (OpaquePointer, [bg_layer]) {
        var store: OpaquePointer?
        XCTAssertEqual(bgStoreCreate(0, &store), 0)
        var layers: [bg_layer] = []
        for index in 0...count {
            var layer: bg_layer = 0
            XCTAssertEqual(bgLayerAdd(store, index == 0 ? noLayer : layers[0], &layer), 0)
            let frame = [Double(index * 10), Double(index * 7), 50 + Double(index), 30]
            XCTAssertEqual(frame.withUnsafeBufferPointer { bgLayerSetFrame(store, layer, $0.baseAddress) }, 0)
            layers.append(layer)
        }
        return (store!, layers)
    }

    /// The mix: one animation per case, on layer `index % layers`.
    private func mix() -> [Animation] {
        var timing = AnimationTiming()
        timing.duration = 0.8
        var repeating = timing
        repeating.repeatCount = 2.5
        repeating.autoreverses = true
        repeating.fillMode = .both
        repeating.removedOnCompletion = false
        repeating.beginTime = 0.1
        let rotation = Transform3D(AffineTransform(a: 0.8, b: 0.6, c: -0.6, d: 0.8, tx: 5, ty: -3)).rowMajor
        let curve = TimingFunction(controlPoints: 0.3, -0.4, 0.6, 1.5)!
        return [
            Animation(
                keyPath: .position, content: .basic(from: [0, 0], to: [100, 50], by: nil), timing: timing,
                timingFunction: TimingFunction(.easeInEaseOut)),
            Animation(
                keyPath: .transformScale,
                content: .spring(
                    Spring(mass: 1, stiffness: 200, damping: 12, initialVelocity: 2), from: [1], to: [1.5], by: nil),
                timing: repeating),
            Animation(
                keyPath: .position,
                content: .keyframe(
                    Keyframes(
                        values: [[0, 0], [30, 10], [60, -20], [90, 0]], keyTimes: [0, 0.2, 0.7, 1],
                        timingFunctions: [curve, TimingFunction(.easeIn), TimingFunction(.linear)],
                        calculationMode: .cubic)), timing: timing, isAdditive: true),
            Animation(
                keyPath: .bounds, content: .basic(from: [0, 0, -20, -10], to: [0, 0, 0, 0], by: nil), timing: repeating,
                timingFunction: curve, isAdditive: true),
            Animation(
                keyPath: .transform, content: .basic(from: Transform3D.identity.rowMajor, to: rotation, by: nil),
                timing: timing),
            Animation(
                keyPath: .opacity, content: .basic(from: nil, to: nil, by: [-0.5]), timing: repeating,
                isCumulative: true),
            Animation(
                keyPath: .anchorPoint,
                content: .keyframe(Keyframes(values: [[0, 0], [1, 1], [0.5, 0.25]], calculationMode: .discrete)),
                timing: timing),
            Animation(
                keyPath: .zPosition,
                content: .keyframe(Keyframes(values: [[0], [10], [5]], calculationMode: .paced)), timing: repeating),
        ]
    }

    /// `animation` as the C struct, its arrays kept alive by `storage` for the call.
    private func add(
        _ animation: Animation, _ set: OpaquePointer, _ store: OpaquePointer, _ layer: bg_layer
    ) -> (status: Int32, number: Int) {
        var c = bg_animation()
        XCTAssertEqual(bgAnimationInit(&c), 0)
        var number = -1
        let width: Int
        var ends: [[Double]?] = [nil, nil, nil]
        var keyframes: Keyframes?
        switch animation.content {
        case .basic(let from, let to, let by):
            c.kind = Int32(BG_ANIMATION_BASIC)
            ends = [from, to, by]
        case .spring(let spring, let from, let to, let by):
            c.kind = Int32(BG_ANIMATION_SPRING)
            c.spring = bg_spring(
                mass: spring.mass, stiffness: spring.stiffness, damping: spring.damping,
                initial_velocity: spring.initialVelocity, allows_overdamping: spring.allowsOverdamping)
            ends = [from, to, by]
        case .keyframe(let frames):
            c.kind = Int32(BG_ANIMATION_KEYFRAME)
            keyframes = frames
            c.keyframe_count = frames.values.count
            c.calculation_mode = Int32(CalculationMode.allCases.firstIndex(of: frames.calculationMode)!)
        }
        width = (ends.compactMap { $0 }.first ?? keyframes!.values[0]).count
        c.value_count = width
        let t = animation.timing
        c.timing = bg_media_timing(
            begin_time: t.beginTime, duration: t.duration, speed: t.speed, time_offset: t.timeOffset,
            repeat_count: t.repeatCount, repeat_duration: t.repeatDuration,
            fill_mode: Int32(FillMode.allCases.firstIndex(of: t.fillMode)!), autoreverses: t.autoreverses,
            removed_on_completion: t.removedOnCompletion)
        if let function = animation.timingFunction {
            c.has_timing_function = true
            c.timing_function = bg_timing_function(function)
        }
        c.additive = animation.isAdditive
        c.cumulative = animation.isCumulative
        let flat = (keyframes?.values ?? []).flatMap { $0 }
        let times = keyframes?.keyTimes
        let functions = keyframes?.timingFunctions?.map { bg_timing_function($0) }
        c.key_time_count = times?.count ?? 0
        c.timing_function_count = functions?.count ?? 0
        let status = animation.keyPath.rawValue.withCString { path in
            c.key_path = path
            return withOptionalPointers(ends[0], ends[1], ends[2]) { from, to, by in
                (c.from_value, c.to_value, c.by_value) = (from, to, by)
                return flat.withUnsafeBufferPointer { values in
                    c.values = keyframes == nil ? nil : values.baseAddress
                    return withOptionalPointers(times, nil, nil) { keyTimes, _, _ in
                        c.key_times = keyTimes
                        return (functions ?? []).withUnsafeBufferPointer { functionPointer in
                            c.timing_functions = functions == nil ? nil : functionPointer.baseAddress
                            return bgAnimationsAdd(set, store, layer, &c, &number)
                        }
                    }
                }
            }
        }
        return (status, number)
    }

    func testEveryKindGivesTheSwiftAPIsBits() throws {
        let (store, layers) = makeStore(5)
        defer { bgStoreDestroy(store) }
        var set: OpaquePointer?
        XCTAssertEqual(bgAnimationsCreate(&set), 0)
        defer { bgAnimationsDestroy(set) }
        let model = try CStore.from(store).store.copy()
        var swift = AnimationStore()
        var presentation = PresentationValues()
        for (index, animation) in mix().enumerated() {
            let layer = layers[1 + index % 5]
            let (status, number) = add(animation, set!, store, layer)
            XCTAssertEqual(status, 0, "\(index): \(message)")
            XCTAssertEqual(number, try swift.add(animation, to: LayerHandle(rawValue: layer), in: model))
        }
        let slow = LayerTiming(beginTime: 0.05, speed: 0.5, timeOffset: 0.1)
        var cTiming = bg_layer_timing(begin_time: 0.05, speed: 0.5, time_offset: 0.1)
        XCTAssertEqual(bgAnimationsSetLayerTiming(set, store, layers[2], &cTiming), 0)
        try swift.setTiming(slow, of: LayerHandle(rawValue: layers[2]), in: model)
        var tree: OpaquePointer?
        var fusedTree: OpaquePointer?  // moved by bg_store_update_presentation alone
        XCTAssertEqual(bgStoreCopy(store, &tree), 0)
        XCTAssertEqual(bgStoreCopy(store, &fusedTree), 0)
        defer {
            bgStoreDestroy(tree)
            bgStoreDestroy(fusedTree)
        }
        var swiftTree = model.copy()
        var mostAnimated = 0
        for time in stride(from: -0.1, through: 4.5, by: 0.05) {
            XCTAssertEqual(bgStoreRestoreModelValues(tree, set, store), 0)
            swiftTree.restoreModelValues(of: presentation, from: model)
            XCTAssertEqual(bgAnimationsSample(set, store, time), 0)
            try swift.sample(at: time, model: model, into: &presentation)
            var count = -1
            var values = [bg_presentation](repeating: bg_presentation(), count: 8)
            XCTAssertEqual(bgAnimationsGetPresentations(set, store, &values, 8, &count), 0)
            XCTAssertEqual(count, presentation.count, "at \(time)")
            mostAnimated = max(mostAnimated, count)
            for k in 0..<min(count, presentation.count) {
                let expected = bg_presentation(
                    layer: model.handle(at: presentation.layers[k])!.rawValue,
                    presentation.values(ofLayerAt: presentation.layers[k], model: model)!)
                XCTAssertTrue(sameBytes(values[k], expected), "at \(time), entry \(k)")
            }
            var finished = [Int](repeating: -1, count: 8)
            XCTAssertEqual(bgAnimationsGetFinished(set, &finished, 8, &count), 0)
            XCTAssertEqual(Array(finished[0..<count]), swift.finished, "at \(time)")
            XCTAssertEqual(bgStoreApplyPresentation(tree, set), 0)
            XCTAssertEqual(bgStoreUpdatePresentation(fusedTree, set, store), 0)
            swiftTree.applyPresentation(presentation)
            try assertSameValues(tree, swiftTree, model, "at \(time)")
            try assertSameValues(fusedTree, swiftTree, model, "fused, at \(time)")
        }
        XCTAssertEqual(mostAnimated, 5, "at some time every layer is animated")
        XCTAssertFalse(swift.finished.isEmpty, "the mix ends some animations within the times sampled")
    }

    /// The presentation store behind `tree` has `swiftTree`'s values, to the bit, for every
    /// property an animation of the mix writes.
    private func assertSameValues(
        _ tree: OpaquePointer?, _ swiftTree: borrowing LayerStore, _ model: borrowing LayerStore, _ context: String
    ) throws {
        let box = try CStore.from(tree)
        #if DEBUG
        defer { StoreOwnership.leave() }  // as a C call ends: the next may take another store
        #endif
        for slot in 0..<model.count {
            let handle = model.handle(at: slot)!
            XCTAssertEqual(box.store.position(of: handle), swiftTree.position(of: handle), context)
            XCTAssertEqual(box.store.bounds(of: handle), swiftTree.bounds(of: handle), context)
            XCTAssertEqual(box.store.transform(of: handle), swiftTree.transform(of: handle), context)
            XCTAssertEqual(
                box.store.opacity(of: handle).bitPattern, swiftTree.opacity(of: handle).bitPattern, context)
        }
    }

    /// A deceleration added through C (bg_animations_add_deceleration) and through
    /// `addDeceleration` with the same timing, beside a basic animation on another layer:
    /// the same presentation values to the bit and the same finished lists.
    func testADecelerationGivesTheSwiftAPIsBits() throws {
        let (store, layers) = makeStore(2)
        defer { bgStoreDestroy(store) }
        let scroll = layers[1]
        XCTAssertEqual(
            [51.0, 400].withUnsafeBufferPointer { bgLayerSetScrollView(store, scroll, $0.baseAddress, nil) }, 0)
        var deceleration = bg_deceleration()
        XCTAssertEqual(
            [0.5, 0.3].withUnsafeBufferPointer {
                bgLayerDecelerate(store, scroll, $0.baseAddress, 0.998, &deceleration)
            },
            0)
        XCTAssertGreaterThan(deceleration.duration, 1, "a fling that lasts")
        var set: OpaquePointer?
        XCTAssertEqual(bgAnimationsCreate(&set), 0)
        defer { bgAnimationsDestroy(set) }
        let model = try CStore.from(store).store.copy()
        var swift = AnimationStore()
        var timing = AnimationTiming()
        timing.beginTime = 0.2
        timing.speed = 1.5
        timing.fillMode = .both
        var cTiming = bg_media_timing.defaults
        (cTiming.begin_time, cTiming.speed, cTiming.fill_mode) = (0.2, 1.5, Int32(BG_FILL_MODE_BOTH))
        var number = -1
        XCTAssertEqual(bgAnimationsAddDeceleration(set, store, scroll, &deceleration, &cTiming, &number), 0, message)
        XCTAssertEqual(
            number,
            try swift.addDeceleration(deceleration.curve, to: LayerHandle(rawValue: scroll), in: model, timing: timing))
        let fade = Animation(keyPath: .opacity, content: .basic(from: [0], to: [1], by: nil))
        XCTAssertEqual(
            add(fade, set!, store, layers[2]).number,
            try swift.add(fade, to: LayerHandle(rawValue: layers[2]), in: model))
        var presentation = PresentationValues()
        var offsets: Set<Double> = []
        for time in stride(from: 0, through: 0.2 + deceleration.duration / 1.5 + 0.1, by: 0.05) {
            XCTAssertEqual(bgAnimationsSample(set, store, time), 0)
            try swift.sample(at: time, model: model, into: &presentation)
            var count = -1
            var values = [bg_presentation](repeating: bg_presentation(), count: 4)
            XCTAssertEqual(bgAnimationsGetPresentations(set, store, &values, 4, &count), 0)
            XCTAssertEqual(count, presentation.count, "at \(time)")
            for k in 0..<min(count, presentation.count) {
                let expected = bg_presentation(
                    layer: model.handle(at: presentation.layers[k])!.rawValue,
                    presentation.values(ofLayerAt: presentation.layers[k], model: model)!)
                XCTAssertTrue(sameBytes(values[k], expected), "at \(time), entry \(k)")
                if values[k].layer == scroll { offsets.insert(values[k].bounds.1) }
            }
            var finished = [Int](repeating: -1, count: 4)
            XCTAssertEqual(bgAnimationsGetFinished(set, &finished, 4, &count), 0)
            XCTAssertEqual(Array(finished[0..<count]), swift.finished, "at \(time)")
        }
        XCTAssertEqual(swift.finished, [0, 1], "both ended within the times sampled")
        XCTAssertGreaterThan(offsets.count, 10, "the scroll view moved through many offsets")
    }

    func testAMalformedAnimationNamesItsFieldAndAddsNothing() throws {
        let (store, layers) = makeStore(1)
        defer { bgStoreDestroy(store) }
        var set: OpaquePointer?
        XCTAssertEqual(bgAnimationsCreate(&set), 0)
        defer { bgAnimationsDestroy(set) }
        let bad = Animation(
            keyPath: .position, content: .keyframe(Keyframes(values: [[0, 0], [1, 1]], keyTimes: [0, 0.5])))
        XCTAssertEqual(add(bad, set!, store, layers[1]).status, Int32(BG_ERROR_INVALID_ARGUMENT))
        XCTAssertEqual(message, "bg_animations_add: animation.key_times[1]: must be 1")
        let cumulative = Animation(
            keyPath: .transform, content: .basic(from: nil, to: Transform3D.identity.rowMajor, by: nil),
            isCumulative: true)
        XCTAssertEqual(add(cumulative, set!, store, layers[1]).status, Int32(BG_ERROR_INVALID_ARGUMENT))
        XCTAssertEqual(message, "bg_animations_add: animation.cumulative: not allowed on transform")
        XCTAssertEqual(try CAnimations.from(set).animations.count, 0)
        let good = Animation(keyPath: .opacity, content: .basic(from: [0], to: [1], by: nil))
        XCTAssertEqual(add(good, set!, store, layers[1]).number, 0)
    }
}

/// Whether two C structs have the same bytes.
private func sameBytes(_ a: bg_presentation, _ b: bg_presentation) -> Bool {
    var a = a
    var b = b
    return withUnsafeBytes(of: &a) { x in withUnsafeBytes(of: &b) { y in x.elementsEqual(y) } }
}

/// Pointers to up to three optional arrays (nil for nil) for the length of `body`.
private func withOptionalPointers<Result>(
    _ a: [Double]?, _ b: [Double]?, _ c: [Double]?,
    _ body: (UnsafePointer<Double>?, UnsafePointer<Double>?, UnsafePointer<Double>?) -> Result
) -> Result {
    let a = a ?? []
    let b = b ?? []
    let c = c ?? []
    let hasA = !a.isEmpty
    let hasB = !b.isEmpty
    let hasC = !c.isEmpty
    return a.withUnsafeBufferPointer { pa in
        b.withUnsafeBufferPointer { pb in
            c.withUnsafeBufferPointer { pc in
                body(hasA ? pa.baseAddress : nil, hasB ? pb.baseAddress : nil, hasC ? pc.baseAddress : nil)
            }
        }
    }
}
