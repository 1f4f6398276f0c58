@_spi(Testing) import BatchGeometry
import BatchGeometryWorkloads

/// Checks that what a kernel computed in its last timed call is right, so a report never
/// shows the speed of wrong code: frames bit for bit against the scalar backend (every
/// backend must match it exactly), everything else against the per-layer or per-point
/// scalar reference, within 1e-9 relative (loose enough for any legitimate operation
/// order, tight enough that a wrong kernel cannot pass; the tests hold 1e-12).
extension KernelFixture {
    /// Nil when right, else what differs (one example).
    func verify(_ kernel: BenchKernel, options: KernelOptions) -> String? {
        switch kernel {
        case .frames:
            let reference = store.frames(options: .serial(.scalar))
            if frames.isBitIdentical(to: reference) { return nil }
            let layer = (0..<store.count).first { frames[$0] != reference[$0] } ?? 0
            return "frame of layer \(layer) is \(frames[layer]), the scalar backend's is \(reference[layer])"
        case .world:
            guard worldOutput.count == store.count else { return "no result" }
            // Against the store as it is now: world-incremental may have moved layers.
            return compareWorld(worldOutput, store.referenceWorldTransforms())
        case .worldIncremental, .worldFullUpdate:
            var copy = store.copy()
            return compareWorld(copy.updateWorld(options: options), store.referenceWorldTransforms())
        case .worldRects:
            guard let rects = lastRects, rects.count == store.count else { return "wrong number of rects" }
            for layer in 0..<store.count {
                let expected = store.worldRect(of: store.layer(layer), in: world)
                let got = rects[layer]
                if !(close(got.minX, expected.minX) && close(got.minY, expected.minY)
                    && close(got.maxX, expected.maxX) && close(got.maxY, expected.maxY))
                {
                    return "world rect of layer \(layer) is \(got), the reference's is \(expected)"
                }
            }
            return nil
        case .hitTest:
            guard let hits = lastHits, hits.count == hitTestPoints.count else { return "wrong number of hits" }
            for (point, hit) in zip(hitTestPoints, hits) {
                let expected = store.hitTest(point, in: world, rule: .layer)
                if hit != expected {
                    return
                        "point \(point) hit \(hit.map { "\($0)" } ?? "nothing"), the reference hits \(expected.map { "\($0)" } ?? "nothing")"
                }
            }
            return nil
        case .convert:
            guard let converted = lastConverted, converted.count == convertPoints.count else {
                return "wrong number of points"
            }
            for (point, got) in zip(convertPoints, converted) {
                let expected = store.convert(point, from: convertSource, to: convertDestination, in: world)
                switch (got, expected) {
                case (nil, nil): continue
                case (let got?, let expected?) where close(got.x, expected.x) && close(got.y, expected.y): continue
                default:
                    return
                        "point \(point) converted to \(String(describing: got)), the reference gives \(String(describing: expected))"
                }
            }
            return nil
        case .autoresize:
            return verifyAutoresize()
        case .frame, .frameLive, .frameRelayout, .frameAnimated, .frameAnimatedUnculled:
            guard let frameFixture else { return "no frame was run" }
            return frameFixture.problem
        case .hitTestPoint, .hitTestCulled:
            return verifySinglePoints(kernel)
        case .hitTestCulledBatch:
            return verifyBatchPoints()
        case .curves:
            guard let curveFixture else { return "no curves were sampled" }
            return curveFixture.problem
        case .animations:
            guard let animationFixture else { return "no animations were sampled" }
            return animationFixture.problem(model: store)
        case .visibleLayers:
            return verifyVisibleLayers()
        }
    }

    /// The frame query's layers and world transforms against the full passes' (a
    /// scalar world pass, world rects, clip rects, visibility, drawing order), bit for bit.
    private func verifyVisibleLayers() -> String? {
        let world = store.worldTransforms(options: .serial(.scalar))
        let rects = store.worldRects(in: world, options: .serial(.scalar))
        let clips = store.clipRects(worldRects: rects, options: .serial(.scalar))
        let shown = store.visibility(
            worldRects: rects, clipRects: clips, viewport: FrameScript(workload).viewport, options: .serial(.scalar))
        let expected = store.drawOrder().filter { shown[$0.index] }
        guard visible.layers == expected else {
            return "\(visible.count) visible layers, the full passes show \(expected.count)"
        }
        for (k, layer) in expected.enumerated()
        where visible.worldTransforms[k].rowMajor.map(\.bitPattern) != world[layer.index].rowMajor.map(\.bitPattern) {
            return "the world transform of visible layer \(layer.index) is not the full pass's"
        }
        return nil
    }

    /// Up to 32 of the points answered in the timed calls, evenly spread: hit-test-point's
    /// answers against the batch form (`hitTest(points:in:rule:)`, with its unprojection
    /// table) on the same snapshot; hit-test-culled's against the snapshot walk
    /// (`hitTest(_:in:rule:)`) on a fresh snapshot of the store. (At 1M layers one
    /// snapshot walk costs ~15 ms, so not every point.)
    private func verifySinglePoints(_ kernel: BenchKernel) -> String? {
        let answered = singlePoints.indices.filter { singleAnswered[$0] }
        guard !answered.isEmpty else { return "no point was answered" }
        let step = (answered.count + 31) / 32
        let checked = Swift.stride(from: 0, to: answered.count, by: step).map { answered[$0] }
        let points = checked.map { singlePoints[$0] }
        let expected: [LayerHandle?]
        if kernel == .hitTestPoint {
            expected = store.hitTest(points: points, in: pointWorld!, rule: .layer, options: .serial(.scalar))
        } else {
            let world = store.worldTransforms(options: .serial(.scalar))
            expected = points.map { store.hitTest($0, in: world, rule: .layer) }
        }
        for (index, (k, point)) in zip(checked, points).enumerated() where singleHits[k] != expected[index] {
            return
                "point \(point) hit \(singleHits[k].map { "\($0)" } ?? "nothing"), the reference hits \(expected[index].map { "\($0)" } ?? "nothing")"
        }
        return nil
    }

    /// Two checks. The timed store scales uniformly (every part of every layer is
    /// flexible), so after the last timed call every layer's size must be its recipe
    /// size times the top layer's factor, to rounding: the timed calls reached every
    /// layer. And a fresh masked store resized to the larger size must equal, bit for bit
    /// in every layer's bounds and position, the object graph's independent autoresizing.
    private func verifyAutoresize() -> String? {
        if let problem = autoresizeStore?.timedAutoresizeProblem(workload) { return problem }
        var fresh = workload.makeStore(autoresizing: true)
        let graph = workload.makeObjectGraph(autoresizing: true)
        let size = workload.autoresizeSizes.1
        fresh.setBounds(Rect(x: 0, y: 0, width: size.width, height: size.height), of: fresh.layer(0))
        graph.resizeLayer(at: 0, to: size)
        for (layer, object) in graph.layers.enumerated() {
            let bounds = fresh.bounds(of: fresh.layer(layer))
            let position = fresh.position(of: fresh.layer(layer))
            let same =
                [bounds.width, bounds.height, position.x, position.y].map(\.bitPattern)
                == [object.bounds.size.width, object.bounds.size.height, object.position.x, object.position.y].map(
                    \.bitPattern)
            if !same {
                return
                    "layer \(layer): bounds \(bounds), position \(position); the object graph's \(object.bounds), \(object.position)"
            }
        }
        return nil
    }

    private func compareWorld(_ computed: WorldTransforms, _ reference: WorldTransforms) -> String? {
        guard computed.count == reference.count else {
            return "\(computed.count) transforms for \(reference.count) layers"
        }
        for layer in 0..<reference.count {
            let got = computed[layer].rowMajor
            let expected = reference[layer].rowMajor
            if !zip(got, expected).allSatisfy({ close($0, $1) }) {
                return "ToWorld of layer \(layer) is \(got), the reference's is \(expected)"
            }
        }
        return nil
    }

}

/// Equal, both NaN, or within 1e-9 of the larger magnitude (absolute below 1).
private func close(_ a: Double, _ b: Double) -> Bool {
    if a == b || (a.isNaN && b.isNaN) { return true }
    return abs(a - b) <= 1e-9 * Swift.max(1, abs(a), abs(b))
}

extension LayerStore {
    /// The autoresize kernel's store after its timed calls: every layer's width is its
    /// recipe's times the top layer's factor, to rounding; else what is wrong.
    fileprivate func timedAutoresizeProblem(_ workload: Workload) -> String? {
        let top = bounds(of: layer(0)).width / workload.recipe(of: 0).bounds.width
        for index in 0..<count {
            let expected = workload.recipe(of: index).bounds.width * top
            let got = bounds(of: layer(index)).width
            if !close(got, expected) {
                return "layer \(index) is \(got) wide after the timed calls, not \(expected)"
            }
        }
        return nil
    }
}

extension KernelFixture {
    /// 32 of hit-test-culled-batch's answers, evenly spread, against the snapshot walk
    /// (`hitTest(_:in:rule:)`) on a fresh snapshot of the store.
    fileprivate func verifyBatchPoints() -> String? {
        guard batchHits.count == batchPoints.count, !batchPoints.isEmpty else { return "wrong number of hits" }
        let world = store.worldTransforms(options: .serial(.scalar))
        for k in Swift.stride(from: 0, to: batchPoints.count, by: (batchPoints.count + 31) / 32) {
            let expected = store.hitTest(batchPoints[k], in: world, rule: .layer)
            if batchHits[k] != expected {
                return
                    "point \(batchPoints[k]) hit \(batchHits[k].map { "\($0)" } ?? "nothing"), the reference hits \(expected.map { "\($0)" } ?? "nothing")"
            }
        }
        return nil
    }
}
