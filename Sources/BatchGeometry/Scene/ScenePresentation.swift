// The presentation tree of a scene (SCENE-FORMAT.md "Animations and time", ANIMATION.md
// section 10): the scene's animations and layer timings in an `AnimationStore`, sampled at
// each of the scene's `times`; each sample's values put into a copy of the model store,
// which is then asked what the model is asked.

/// One `animations` entry: the scene index of its layer and the animation.
public struct SceneAnimation: Sendable, Equatable {
    /// The layer's index in the scene's `layers` array.
    public var layer: Int
    /// The animation, as `AnimationStore.add(_:to:in:)` takes it.
    public var animation: Animation

    /// An entry for scene layer `layer`. O(1).
    public init(layer: Int, animation: Animation) {
        self.layer = layer
        self.animation = animation
    }
}

/// The per-layer answers for one tree at one sample, by store index (as
/// `SceneEvaluation`'s model columns).
public struct SceneLayerAnswers: Sendable {
    /// `frame` of every layer.
    public let frames: FrameColumns
    /// `bounds` of every layer (zero for a free slot).
    public let bounds: [Rect]
    /// `position` of every layer (zero for a free slot).
    public let positions: [Point]
    /// `ToWorld` of every layer.
    public let world: WorldTransforms
    /// World rect of every layer (`isNull` when entirely behind the eye).
    public let worldRects: [RectEdges]
    /// Clip rect of every layer, nil when no ancestor masks to bounds.
    public let clipRects: [RectEdges?]
    /// Visibility against the scene's viewport.
    public let visible: [Bool]
    /// Per layer, the values of the table properties that are evaluation output, in
    /// table order (`LayerProperty.isEvaluationOutput`).
    public let properties: [[Double]]
    /// World opacity of every layer.
    public let worldOpacities: [Double]
}

/// One entry of `presentation`: the sample time, the presentation tree's answers and the
/// finished animations (ascending animation indices).
public struct ScenePresentationSample: Sendable {
    /// The sample time, seconds of the scene's clock, as given.
    public let time: Double
    /// The presentation tree's answers at that time.
    public let layers: SceneLayerAnswers
    /// Ascending indices of the animations finished at or before that time.
    public let finished: [Int]
}

extension Scene {
    /// The samples of the presentation tree, or nil when the scene has neither
    /// `animations` nor `times`. `store` is the model after the operations. O(times ×
    /// layers) (each sample answers for every layer) plus O(times × animations).
    func presentationSamples(
        model store: borrowing LayerStore, storeLayers: [Int?], options: KernelOptions
    ) throws(SceneError) -> [ScenePresentationSample]? {
        guard hasAnimationKeys else { return nil }
        var animations = AnimationStore()
        for (sceneLayer, timing) in layerTimings.enumerated() where timing != .default {
            guard let slot = storeLayers[sceneLayer], let handle = store.handle(at: slot) else { continue }
            do {
                try animations.setTiming(timing, of: handle, in: store)
            } catch {
                throw ScenePath(key: "layers", index: sceneLayer, field: error.field).error(error.message)
            }
        }
        for (index, entry) in self.animations.enumerated() {
            let path = ScenePath(key: "animations", index: index)
            guard entry.layer >= 0 && entry.layer < storeLayers.count, let slot = storeLayers[entry.layer],
                let handle = store.handle(at: slot)
            else { throw path.field("layer").error("layer \(entry.layer) is out of range or was removed") }
            do {
                try animations.add(entry.animation, to: handle, in: store)
            } catch {
                let field = path.field(error.field)
                throw (error.element.map { field.at(index: $0) } ?? field).error(error.message)
            }
        }
        var samples: [ScenePresentationSample] = []
        var values = PresentationValues()
        for (index, time) in times.enumerated() {
            do {
                try animations.sample(at: time, model: store, into: &values)
            } catch {
                throw ScenePath(key: "times", index: index).error(error.message)
            }
            var tree = store.copy()
            tree.applyPresentation(values)
            samples.append(
                ScenePresentationSample(
                    time: time, layers: Self.answers(&tree, viewport: viewport, options: options),
                    finished: animations.finished))
        }
        return samples
    }

    /// Every per-layer answer the output document writes, for `store`.
    static func answers(_ store: inout LayerStore, viewport: Rect?, options: KernelOptions) -> SceneLayerAnswers {
        let frames = store.frames(options: options)
        let world = store.updateWorld(options: options)
        let worldRects = store.worldRects(in: world, options: options)
        let clipRects = store.clipRects(worldRects: worldRects, options: options)
        let visible = store.visibility(
            worldRects: worldRects, clipRects: clipRects, viewport: viewport, options: options)
        let outputProperties = LayerProperty.allCases.filter(\.isEvaluationOutput)
        var bounds: [Rect] = []
        var positions: [Point] = []
        var properties: [[Double]] = []
        for layer in 0..<store.count {
            let live = store.isLiveSlot(layer)
            bounds.append(live ? store.bounds(of: layer) : .zero)
            positions.append(live ? store.position(of: layer) : .zero)
            properties.append(live ? outputProperties.map { store.value(of: $0, at: layer) } : [])
        }
        return SceneLayerAnswers(
            frames: frames, bounds: bounds, positions: positions, world: world, worldRects: worldRects,
            clipRects: clipRects, visible: visible, properties: properties, worldOpacities: store.worldOpacities())
    }
}

extension SceneEvaluation {
    /// `"presentation": [...]`, one object per sample: time, layers (null for a removed
    /// layer), finished. Hands `output` to `write` whenever it passes 64 KiB.
    func appendPresentation(
        _ samples: [ScenePresentationSample], _ outputProperties: [LayerProperty], to output: inout String,
        write: (String) -> Void
    ) {
        output += ",\n \"presentation\": ["
        for (index, sample) in samples.enumerated() {
            output += index > 0 ? ",\n  {\"time\": " : "\n  {\"time\": "
            appendJSONNumber(sample.time, to: &output)
            output += ", \"layers\": [\n"
            let answers = sample.layers
            for sceneLayer in 0..<names.count {
                if let layer = storeLayers[sceneLayer] {
                    let values = answers.properties[layer]
                    appendLayerEntry(
                        name: names[sceneLayer], frame: answers.frames[layer], bounds: answers.bounds[layer],
                        position: answers.positions[layer], toWorld: answers.world[layer],
                        worldRect: answers.worldRects[layer], clipRect: answers.clipRects[layer],
                        visible: answers.visible[layer], properties: outputProperties,
                        property: { values[outputProperties.firstIndex(of: $0)!] },
                        worldOpacity: answers.worldOpacities[layer], to: &output)
                } else {
                    output += "  null"
                }
                output += sceneLayer + 1 < names.count ? ",\n" : "\n"
                if output.utf8.count >= 1 << 16 {
                    write(output)
                    output.removeAll(keepingCapacity: true)
                }
            }
            output += "  ], \"finished\": ["
            output += sample.finished.map { "\($0)" }.joined(separator: ", ")
            output += "]}"
        }
        output += "\n ]"
    }
}
