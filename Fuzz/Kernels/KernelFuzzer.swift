// libFuzzer target: bytes → a random store (special values included) → every backend
// and thread count must agree with the scalar reference. Build and run: scripts/fuzz.sh.
//
// Oracles:
// - frames: every backend, 1...4 threads, bit-identical to the scalar kernel and to the
//   per-layer getter `frame(of:)`, for every layer (GEOMETRY.md section 1).
// - world transforms (`worldTransforms`, `updateWorld`, incremental `updateWorld` after
//   a change): within 1e-12 relative of `referenceWorldTransforms()` for layers without
//   wild values in their ancestry; for the others only "no trap" (IEEE results of
//   non-finite inputs depend on operation order, which backends may choose).
// - batch queries (world rects, hit tests, conversions) equal the one-at-a-time API.
// - drawOrder lists each visible layer once; clip rects and visibility do not trap.
// - the output-sensitive queries (visibleLayers, the culled hitTest), before and after a
//   random edit, equal the full passes (visible layers in drawing order, world
//   transforms bit for bit, world rects, clip rects; hits) whenever the full pass is
//   finite everywhere; otherwise they only must not trap.
// - animations (AnimationFuzz.swift): sampled, applied to a copy of the model and
//   restored; the presentation tree reads back as the sample and its queries equal its
//   full passes; the restored store reads as the model.

import FuzzSupport

// The oracles compare the public API with the internal slot-index API and the references.
@_spi(Testing) @testable import BatchGeometry

/// Every backend forced, then nil: the default, each kernel on its measured best.
let backendChoices: [Backend?] = Backend.allCases.map { $0 } + [nil]
let allOptions: [KernelOptions] = backendChoices.flatMap { backend in
    (1...4).map { KernelOptions(backend: backend, threads: $0) }
}
/// For tiled (large) stores, where each pass costs milliseconds: every backend, spread.
let largeStoreOptions = [
    KernelOptions(backend: .simd, threads: 3), KernelOptions(backend: .c, threads: 4),
    KernelOptions(backend: nil, threads: 2),
]

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzKernels(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    var input = FuzzInput(UnsafeBufferPointer(start: data, count: size))
    let recipe = StoreRecipe(&input)
    var wild: [Bool] = []
    let store = recipe.build(wild: &wild)
    checkFrames(store)
    checkWorld(
        store, wild, change: (input.int(below: Swift.max(1, store.count)), Point(input.moderate(), input.moderate())))
    // Queries go point by point; a large store adds nothing but time there.
    if store.count < 1_000 {
        checkQueries(store, &input)
        checkOutputSensitiveQueries(store, &input)
        checkAnimations(store, &input)
    }
    return 0
}

func checkFrames(_ store: borrowing LayerStore) {
    let reference = store.frames(options: .serial(.scalar))
    for layer in 0..<store.count {
        let frame = store.frame(of: layer)
        if !(sameBits(frame.x, reference.x[layer]) && sameBits(frame.y, reference.y[layer])
            && sameBits(frame.width, reference.width[layer]) && sameBits(frame.height, reference.height[layer]))
        {
            fuzzFailure("frame(of: \(layer)) = \(frame) but the scalar kernel gives \(reference[layer])")
        }
    }
    // Large (tiled) stores exist to cross chunk boundaries: multi-threaded options only.
    for options in allOptions where store.count < 1_000 || options.threads > 1 {
        let frames = store.frames(options: options)
        if !frames.isBitIdentical(to: reference) { fuzzFailure("frames differ with \(options)") }
        var reused = FrameColumns(count: 3)
        store.computeFrames(into: &reused, options: options)
        if !reused.isBitIdentical(to: reference) { fuzzFailure("computeFrames(into:) differs with \(options)") }
    }
}

func checkWorld(_ store: borrowing LayerStore, _ wild: [Bool], change: (layer: Int, position: Point)) {
    let reference = store.referenceWorldTransforms()
    func compare(_ world: WorldTransforms, _ reference: WorldTransforms, _ what: String) {
        if world.count != reference.count {
            fuzzFailure("\(what): \(world.count) transforms for \(reference.count) layers")
        }
        for layer in 0..<reference.count where !wild[layer] && !agrees(world[layer], reference[layer]) {
            fuzzFailure("\(what): layer \(layer) \(world[layer]) vs reference \(reference[layer])")
        }
    }
    let large = store.count >= 1_000
    for options in large ? largeStoreOptions : allOptions {
        compare(store.worldTransforms(options: options), reference, "worldTransforms(\(options))")
        if large && options.backend != .c { continue }  // the incremental path once
        var copy = store.copy()
        compare(copy.updateWorld(options: options), reference, "updateWorld(\(options))")
        guard copy.count > 0 else { continue }
        // Incremental: one changed layer, its subtree recomputed.
        copy.setPosition(change.position, of: change.layer)
        compare(
            copy.updateWorld(options: options), copy.referenceWorldTransforms(), "incremental updateWorld(\(options))")
    }
}

func checkQueries(_ store: borrowing LayerStore, _ input: inout FuzzInput) {
    let world = store.referenceWorldTransforms()
    let count = store.count
    let large = count >= 1_000
    var points = [Point(0, 0), Point(10, 10), Point(187.5, 406), Point(-5, 3)]
    for _ in 0..<input.int(below: large ? 2 : 6) { points.append(Point(input.double(), input.double())) }
    let source: Int? = count == 0 || input.bool() ? nil : input.int(below: count)
    let destination: Int? = count == 0 || input.bool() ? nil : input.int(below: count)
    let queryOptions =
        large
        ? [KernelOptions(backend: .c, threads: 4)]
        : [KernelOptions.serial(.scalar), .serial(.simd), .serial(.c), KernelOptions(backend: .c, threads: 4)]
    for options in queryOptions {
        let rects = store.worldRects(in: world, options: options)
        for layer in 0..<count where !sameBits(rects[layer], store.worldRect(of: layer, in: world)) {
            fuzzFailure("worldRects(\(options)) differs from worldRect(of: \(layer))")
        }
        for rule in HitTestRule.allCases {
            let hits = store.hitTestIndices(points: points, in: world, rule: rule, options: options)
            let expected = points.map { store.hitTestIndex($0, in: world, rule: rule) }
            if hits != expected {
                fuzzFailure("hitTest(points:) \(hits) vs one at a time \(expected), \(rule), \(options)")
            }
            for hit in hits { if let hit, !(0..<count).contains(hit) { fuzzFailure("hit \(hit) out of range") } }
        }
        let converted = store.convert(points: points, from: source, to: destination, in: world, options: options)
        for (k, point) in points.enumerated() {
            if !sameBits(converted[k], store.convert(point, from: source, to: destination, in: world)) {
                fuzzFailure("convert(points:) differs at \(point), \(options)")
            }
        }
    }
    _ = store.convert(Rect(1, 2, 3, 4), from: source, to: destination, in: world)
    let rects = store.referenceWorldRects(in: world)
    let clips = store.referenceClipRects(worldRects: rects)
    let visible = store.referenceVisibility(worldRects: rects, clipRects: clips, viewport: Rect(0, 0, 375, 812))
    if clips.count != count || visible.count != count { fuzzFailure("clip/visibility counts") }

    // drawOrder: exactly the layers with no hidden layer on their path to the root.
    let order = store.drawOrderIndices()
    var seen = [Bool](repeating: false, count: count)
    for layer in order {
        if seen[layer] { fuzzFailure("drawOrder lists \(layer) twice") }
        seen[layer] = true
    }
    for layer in 0..<count {
        var shown = !store.isDetached(layer)  // free slots (destroyed layers) are detached roots
        var current: Int? = layer
        while let l = current {
            if store.isHidden(l) { shown = false }
            current = store.superlayer(of: l)
        }
        if shown != seen[layer] { fuzzFailure("drawOrder and hidden disagree for layer \(layer)") }
    }
}

func checkOutputSensitiveQueries(_ original: borrowing LayerStore, _ input: inout FuzzInput) {
    var store = original.copy()
    let viewport = Rect(input.moderate(), input.moderate(), abs(input.moderate()) + 1, abs(input.moderate()) + 1)
    var result = VisibleLayers()
    for round in 0..<2 {
        store.visibleLayers(in: viewport, into: &result)
        let violations = store._invariantViolations()
        if !violations.isEmpty { fuzzFailure("round \(round): \(violations.joined(separator: "; "))") }
        let world = store.worldTransforms()
        let points = [Point(0, 0), Point(10, 10), Point(input.moderate(), input.moderate())]
        let hits = HitTestRule.allCases.flatMap { rule in points.map { store.hitTest($0, rule: rule) } }
        let finite = (0..<world.count).allSatisfy { world[$0].rowMajor.allSatisfy(\.isFinite) }
        if finite {
            let rects = store.worldRects(in: world)
            let clips = store.clipRects(worldRects: rects)
            let visible = store.visibility(worldRects: rects, clipRects: clips, viewport: viewport)
            let expected = store.drawOrderIndices().filter { visible[$0] }
            if result.layers.map(\.index) != expected {
                fuzzFailure("round \(round): visibleLayers \(result.layers.map(\.index)) vs \(expected)")
            }
            for (k, layer) in expected.enumerated() where k < result.count {
                if result.worldTransforms[k].rowMajor.map(\.bitPattern) != world[layer].rowMajor.map(\.bitPattern)
                    || !sameBits(result.worldRects[k], rects[layer]) || !sameBits(result.clipRects[k], clips[layer])
                {
                    fuzzFailure(
                        "round \(round): visibleLayers entry \(k) (layer \(layer)) differs from the full passes")
                }
            }
            let expectedHits = HitTestRule.allCases.flatMap { rule in
                points.map { store.hitTest($0, in: world, rule: rule) }
            }
            if hits != expectedHits { fuzzFailure("round \(round): culled hits \(hits) vs \(expectedHits)") }
        }
        // An edit between the rounds: the second round runs on refreshed bounds.
        guard store.count > 0 else { return }
        let layer = input.int(below: store.count)
        guard store.isLiveSlot(layer) else { return }
        switch input.int(below: 4) {
        case 0: store.setPosition(Point(input.moderate(), input.moderate()), of: layer)
        case 1: store.setContentOffset(Point(input.moderate(), input.moderate()), of: layer)
        case 2: store.setZPosition(input.moderate(), of: layer)
        default: try? store.insertSublayer(layer, into: input.int(below: store.count))
        }
    }
}
