import XCTest

@testable import BatchGeometry

/// The lanes keep the entries (slot map, `layers`, `touched`) of presentation values they
/// wrote at an earlier sample (`PresentationValues.laneLayout`) and rewrite only the
/// cells; any other writer resets the values first. Two stores with lanes over
/// overlapping layers and random key paths, copies of them, the general path (a layer
/// timing set and cleared, a layer added) and culled samples take turns on one
/// `PresentationValues`. Each sample is compared with the scalar reference (bit for bit,
/// the same layers) and with the same store's copy sampled into fresh values (the same
/// entry order and written properties).
final class AnimationLaneLayoutTests: XCTestCase {
    func testLaneLayoutIsKeptOnlyForTheLanesThatWroteIt() throws {
        var model = LayerStore()
        let root = try model.addLayer(superlayer: nil)
        var random = SplitMix64(seed: 0x1A4E)
        var layers: [LayerHandle] = []
        for _ in 0..<60 {
            let layer = try model.addLayer(superlayer: root)
            model.setBounds(Rect(x: 1, y: 2, width: random.value(in: 1...100), height: 40), of: layer)
            model.setPosition(Point(x: random.value(in: 0...300), y: random.value(in: 0...300)), of: layer)
            model.setOpacity(Float(random.unit()), of: layer)
            layers.append(layer)
        }
        var stores = [AnimationStore(), AnimationStore()]
        var references = [ReferenceSampler(), ReferenceSampler()]
        for (k, layer) in layers.enumerated() {
            // Store 0 animates two layers in three, store 1 one in two: some layers both.
            for s in 0..<2 where k % (s == 0 ? 3 : 2) != 1 {
                let animation = AnimationLanesTests.laneAnimation(&random, longLived: true)
                _ = try stores[s].add(animation, to: layer, in: model)
                references[s].animations.append((animation, layer.index))
            }
        }
        var values = PresentationValues()
        var (kept, time) = (0, 0.0)
        let turns = [0, 0, 0, 1, 1, 1, 0, 1, 1, 0]
        for step in 0..<90 {
            let s = turns[step % turns.count]
            if step == 40 || step == 50 {
                let timing = step == 40 ? LayerTiming(beginTime: 0, speed: 2, timeOffset: 0) : .default
                try stores[s].setTiming(timing, of: layers[0], in: model)
                references[s].layerTimings[layers[0].index] = step == 40 ? timing : nil
            }
            if step == 60 { _ = try model.addLayer(superlayer: root) }
            // The culled sample orders its entries its own way: the copy culls too.
            let culled = step % 9 == 4
            let everywhere = Rect(x: -1e6, y: -1e6, width: 2e6, height: 2e6)
            var copy = stores[s]
            var fresh = PresentationValues()
            if culled {
                try copy.sample(at: time, model: model, into: &fresh, culledTo: everywhere)
            } else {
                try copy.sample(at: time, model: model, into: &fresh)
            }
            if values.laneLayout != 0 && values.laneLayout == stores[s].lanes.layout { kept += 1 }
            if culled {
                try stores[s].sample(at: time, model: model, into: &values, culledTo: everywhere)
            } else if step % 11 == 7 {
                // A copy of the store: the same lanes, so the same layout.
                var other = stores[s]
                try other.sample(at: time, model: model, into: &values)
            } else {
                try stores[s].sample(at: time, model: model, into: &values)
            }
            let expected = references[s].sample(at: time, model: model)
            let at = "store \(s), step \(step), \(time) s"
            XCTAssertEqual(values.layers, fresh.layers, "\(at): entry order")
            XCTAssertEqual(Set(values.layers), Set(expected.keys), at)
            for (slot, layer) in expected {
                let got = values.values(ofLayerAt: slot, model: model)
                XCTAssertTrue(
                    got.map { AnimationSamplerReferenceTests.sameBits($0, layer) } ?? false,
                    "\(at), layer \(slot): \(String(describing: got)) != \(layer)")
                XCTAssertEqual(values.properties(ofLayerAt: slot), fresh.properties(ofLayerAt: slot), at)
            }
            for slot in 0..<model.count where expected[slot] == nil {
                XCTAssertNil(values.values(ofLayerAt: slot, model: model), "\(at), layer \(slot)")
            }
            time += 0.02 + random.unit() * 0.05
        }
        XCTAssertGreaterThan(kept, 20, "the lanes kept their layout too rarely: the test does not exercise it")
    }
}
