import Foundation
import XCTest

@_spi(Testing) @testable import BatchGeometry

/// Structure operations in scene files (SCENE-FORMAT.md): moves with an index, removals;
/// a layer's scene index is its identity through every edit; removed layers print null.
final class SceneStructureTests: XCTestCase {
    /// window(0) has a(1) at (10,10), b(2) at (50,50), c(4) at (200,200); a1(3) is in a.
    /// b moves to the front of window's sublayers, a is removed with a1, c moves into b
    /// and gets position (25,25): its frame is (0,0,50,50) in b, (50,50,50,50) in the
    /// world. (60,60) is in b and c (c drawn later) → c; (11,11) was in a → window.
    static let scene = """
        {"layers": [
          {"name": "window", "frame": [0, 0, 300, 300]},
          {"name": "a", "parent": 0, "frame": [10, 10, 100, 100]},
          {"name": "b", "parent": 0, "frame": [50, 50, 100, 100]},
          {"name": "a1", "parent": 1, "frame": [5, 5, 10, 10]},
          {"name": "c", "parent": 0, "frame": [200, 200, 50, 50]}
         ],
         "operations": [
          {"layer": 2, "set": "superlayer", "value": 0, "index": 0},
          {"layer": 1, "remove": true},
          {"layer": 4, "set": "superlayer", "value": 2},
          {"layer": 4, "set": "position", "value": [25, 25]}
         ],
         "hitTests": [[60, 60], [11, 11]],
         "conversions": [{"point": [0, 0], "from": 4, "to": null}]}
        """

    func testMovesAndRemovalsKeepSceneIndices() throws {
        let evaluation = try evaluateScene(Self.scene)
        XCTAssertEqual(
            evaluation.storeLayers, [0, nil, 2, nil, 4], "a removed layer frees its slot; no other layer moves")
        XCTAssertEqual(evaluation.drawOrder, [0, 2, 4])
        XCTAssertEqual(evaluation.hits, [4, 0])
        XCTAssertEqual(evaluation.conversions, [Point(x: 50, y: 50)])
        let c = try XCTUnwrap(evaluation.storeLayers[4])
        XCTAssertEqual(evaluation.frames[c], Rect(x: 0, y: 0, width: 50, height: 50))
        XCTAssertEqual(evaluation.worldRects[c].rect, Rect(x: 50, y: 50, width: 50, height: 50))
        let output = try JSONSerialization.jsonObject(with: Data(evaluation.jsonText().utf8)) as? [String: Any]
        let layers = try XCTUnwrap(output?["layers"] as? [Any])
        XCTAssertTrue(layers[1] is NSNull && layers[3] is NSNull)
        XCTAssertEqual((layers[4] as? [String: Any])?["name"] as? String, "c")
    }

    /// The output bytes do not depend on the backend or thread count.
    func testSameBytesOnEveryBackend() throws {
        let scene = try Scene(jsonText: Self.scene)
        let reference = try scene.evaluate(options: .serial(.scalar)).jsonText()
        for backend in Backend.allCases {
            for threads in 1...3 {
                XCTAssertEqual(
                    try scene.evaluate(options: KernelOptions(backend: backend, threads: threads)).jsonText(),
                    reference, "\(backend), \(threads) threads")
            }
        }
    }

    /// A move to the roots at index 0 draws the layer first; null without an index makes
    /// it the last root.
    func testMovesAmongTheRoots() throws {
        let text = """
            {"layers": [{}, {}, {"parent": 1}],
             "operations": [{"layer": 2, "set": "superlayer", "value": null, "index": 0},
                            {"layer": 0, "set": "superlayer", "value": null}]}
            """
        XCTAssertEqual(try evaluateScene(text).drawOrder, [2, 1, 0])
    }

    /// Random moves (with and without an index) and removals on random trees: every
    /// remaining layer's frame, world transform and world rect, and the drawing order,
    /// equal those of a store built fresh with the final tree (layers added in pre-order
    /// with the same geometry).
    func testRandomEditsMatchAStoreBuiltFresh() throws {
        for seed in 0..<12 {
            var random = SplitMix64(seed: UInt64(800 + seed))
            var model = TreeModel(count: 24, random: &random)
            let layers = model.layerTexts  // the tree before any operation
            var operations: [String] = []
            for _ in 0..<30 { if let operation = model.randomOperation(&random) { operations.append(operation) } }
            let text =
                "{\"layers\": [\(layers.joined(separator: ", "))], \"operations\": [\(operations.joined(separator: ", "))]}"
            let evaluation = try evaluateScene(text)
            let fresh = model.freshStore()
            XCTAssertEqual(
                evaluation.drawOrder, fresh.store.drawOrderIndices().map { fresh.sceneLayers[$0] }, "seed \(seed)")
            let world = fresh.store.referenceWorldTransforms()
            for sceneLayer in 0..<model.count {
                guard let layer = evaluation.storeLayers[sceneLayer] else {
                    XCTAssertTrue(model.removed[sceneLayer], "seed \(seed): layer \(sceneLayer) should exist")
                    continue
                }
                let freshLayer = try XCTUnwrap(fresh.storeLayers[sceneLayer])
                XCTAssertEqual(
                    evaluation.frames[layer], fresh.store.frame(of: freshLayer), "seed \(seed) layer \(sceneLayer)")
                XCTAssertEqual(
                    evaluation.world[layer].rowMajor, world[freshLayer].rowMajor, "seed \(seed) layer \(sceneLayer)")
                XCTAssertEqual(evaluation.worldRects[layer], fresh.store.worldRect(of: freshLayer, in: world))
            }
        }
    }
}

/// An independent model of a scene's tree and its structure operations.
private struct TreeModel {
    let count: Int
    var parents: [Int?]
    var children: [[Int]]
    var roots: [Int]
    var removed: [Bool]
    let frames: [Rect]

    init(count: Int, random: inout SplitMix64) {
        self.count = count
        parents = (0..<count).map { $0 == 0 || random.chance(10) ? nil : random.below($0) }
        children = Array(repeating: [], count: count)
        roots = []
        for layer in 0..<count {
            if let parent = parents[layer] { children[parent].append(layer) } else { roots.append(layer) }
        }
        removed = Array(repeating: false, count: count)
        frames = (0..<count).map { _ in
            Rect(
                x: Double(random.below(200)), y: Double(random.below(200)), width: Double(10 + random.below(90)),
                height: Double(10 + random.below(90)))
        }
    }

    var layerTexts: [String] {
        (0..<count).map { layer in
            let f = frames[layer]
            return
                "{\"parent\": \(parents[layer].map(String.init) ?? "null"), \"frame\": [\(f.x), \(f.y), \(f.width), \(f.height)]}"
        }
    }

    func isInSubtree(_ candidate: Int, of layer: Int) -> Bool {
        var current: Int? = candidate
        while let c = current {
            if c == layer { return true }
            current = parents[c]
        }
        return false
    }

    /// A valid random operation, played on the model, as scene text.
    mutating func randomOperation(_ random: inout SplitMix64) -> String? {
        let alive = (0..<count).filter { !removed[$0] }
        guard alive.count > 1 else { return nil }
        let layer = alive[random.below(alive.count)]
        if random.chance(15) {
            detach(layer)
            var stack = [layer]
            while let current = stack.popLast() {
                removed[current] = true
                stack += children[current]
            }
            return "{\"layer\": \(layer), \"remove\": true}"
        }
        let targets = alive.filter { !isInSubtree($0, of: layer) }
        let target: Int? = random.chance(15) || targets.isEmpty ? nil : targets[random.below(targets.count)]
        detach(layer)
        let siblings = target.map { children[$0] } ?? roots
        let index: Int? = random.chance(50) ? random.below(siblings.count + 1) : nil
        if let target {
            children[target].insert(layer, at: index ?? siblings.count)
        } else {
            roots.insert(layer, at: index ?? siblings.count)
        }
        parents[layer] = target
        return "{\"layer\": \(layer), \"set\": \"superlayer\", \"value\": \(target.map(String.init) ?? "null")"
            + (index.map { ", \"index\": \($0)" } ?? "") + "}"
    }

    private mutating func detach(_ layer: Int) {
        if let parent = parents[layer] {
            children[parent].removeAll { $0 == layer }
        } else {
            roots.removeAll { $0 == layer }
        }
        parents[layer] = nil
    }

    /// The final tree built from scratch: surviving layers added in pre-order.
    func freshStore() -> FreshStore {
        var store = LayerStore()
        var storeLayers = [Int?](repeating: nil, count: count)
        var sceneLayers: [Int] = []
        var stack = roots.reversed().map { ($0, Int?.none) }
        while let (layer, parent) = stack.popLast() {
            let index = try! store.addLayer(superlayer: parent)
            store.setFrame(frames[layer], of: index)
            storeLayers[layer] = index
            sceneLayers.append(layer)
            stack += children[layer].reversed().map { ($0, Optional(index)) }
        }
        return FreshStore(store: store, storeLayers: storeLayers, sceneLayers: sceneLayers)
    }
}

/// `freshStore()`'s result: the store, and the scene index ↔ store slot maps.
struct FreshStore: ~Copyable {
    var store: LayerStore
    var storeLayers: [Int?]
    var sceneLayers: [Int]
}
