// What a scene picture draws: the model tree of a scene's evaluation, or its presentation
// tree at a time (the scene's animations sampled there, docs/ANIMATION.md section 10).
// Both give the same answers the picture reads, under the evaluation's names.

import BatchGeometry

/// The answers a scene picture draws, by store index (names, store layers, draw order
/// and hits by scene index, as in `SceneEvaluation`).
struct PictureTree: ~Copyable {
    let names: [String?]
    let storeLayers: [Int?]
    let store: LayerStore
    let frames: FrameColumns
    let world: WorldTransforms
    let worldRects: [RectEdges]
    let clipRects: [RectEdges?]
    let visible: [Bool]
    let drawOrder: [Int]
    /// The model's hits (UIKit hit-tests the model, whatever is on screen).
    let hits: [Int?]
    /// The presentation tree's time, or nil for the model.
    let time: Double?

    /// The model tree of `evaluation`. O(layers) (the store is copied).
    init(model evaluation: borrowing SceneEvaluation) {
        names = evaluation.names
        storeLayers = evaluation.storeLayers
        store = evaluation.store.copy()
        frames = evaluation.frames
        world = evaluation.world
        worldRects = evaluation.worldRects
        clipRects = evaluation.clipRects
        visible = evaluation.visible
        drawOrder = evaluation.drawOrder
        hits = evaluation.hits
        time = nil
    }

    /// The presentation tree `tree` (the model with a sample's values applied) at `time`,
    /// every answer computed for it. O(layers × depth).
    init(
        presentation tree: consuming LayerStore, at time: Double, of evaluation: borrowing SceneEvaluation,
        viewport: Rect?
    ) {
        names = evaluation.names
        storeLayers = evaluation.storeLayers
        hits = evaluation.hits
        self.time = time
        frames = tree.frames()
        let world = tree.updateWorld()
        let worldRects = tree.worldRects(in: world)
        let clipRects = tree.clipRects(worldRects: worldRects)
        visible = tree.visibility(worldRects: worldRects, clipRects: clipRects, viewport: viewport)
        // A scene's layer k lives in slot k: the slot is the scene index.
        drawOrder = tree.drawOrder().map(\.index)
        (self.world, self.worldRects, self.clipRects) = (world, worldRects, clipRects)
        store = tree
    }
}

/// The presentation trees of a scene at increasing times, one after another (the
/// animations keep their state from sample to sample, as in a frame loop).
struct PresentationSampler {
    private var animations = AnimationStore()
    private var values = PresentationValues()

    /// The scene's animations and layer timings on the model of `evaluation`.
    ///
    /// - Throws: the message of the first animation or timing the store refuses (the
    ///   scene's evaluation already checked them, so only a removed layer's remain).
    init(_ scene: borrowing Scene, _ evaluation: borrowing SceneEvaluation) throws(RenderUsageError) {
        for (sceneLayer, timing) in scene.layerTimings.enumerated() where timing != .default {
            guard let slot = evaluation.storeLayers[sceneLayer], let handle = evaluation.store.handle(at: slot)
            else { continue }
            do {
                try animations.setTiming(timing, of: handle, in: evaluation.store)
            } catch {
                throw RenderUsageError(message: "layers[\(sceneLayer)].\(error.field): \(error.message)")
            }
        }
        for (index, entry) in scene.animations.enumerated() {
            guard entry.layer >= 0 && entry.layer < evaluation.storeLayers.count,
                let slot = evaluation.storeLayers[entry.layer], let handle = evaluation.store.handle(at: slot)
            else { continue }
            do {
                try animations.add(entry.animation, to: handle, in: evaluation.store)
            } catch {
                throw RenderUsageError(message: "animations[\(index)]: \(error.description)")
            }
        }
    }

    /// The presentation tree at `time` (not before the previous call's).
    mutating func tree(at time: Double, of evaluation: borrowing SceneEvaluation, viewport: Rect?)
        throws(RenderUsageError) -> PictureTree
    {
        do {
            try animations.sample(at: time, model: evaluation.store, into: &values)
        } catch {
            throw RenderUsageError(message: "--time \(time): \(error.message)")
        }
        var tree = evaluation.store.copy()
        tree.applyPresentation(values)
        return PictureTree(presentation: tree, at: time, of: evaluation, viewport: viewport)
    }
}

/// Several pictures side by side in one SVG document, left to right, each in a nested
/// `svg` element at its offset (the same pictures always give the same bytes).
enum FilmStrip {
    /// The strip of `pictures` (SVG documents with their pixel sizes).
    static func svg(_ pictures: [(text: String, width: Double, height: Double)]) -> String {
        let width = pictures.reduce(0) { $0 + $1.width }
        let height = pictures.map(\.height).max() ?? 0
        var writer = SVGWriter(width: width, height: height)
        var x = 0.0
        for picture in pictures {
            writer.embed(picture.text, x: x)
            x += picture.width
        }
        return writer.finish()
    }
}
