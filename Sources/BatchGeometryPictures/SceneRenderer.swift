// `batchbench render`: a scene after its operations, drawn in world space as SVG. All
// geometry comes from the library's SceneEvaluation and its projected quads.

import BatchGeometry

/// Draws scenes as SVG pictures.
package enum SceneRenderer {
    /// Decodes a scene file (SCENE-FORMAT.md), evaluates it and draws it.
    ///
    /// - Throws: `SceneError` for a malformed scene (its description is the one-line
    ///   `<path>: <message>` of `batchbench eval`); nothing is drawn then.
    /// - Complexity: O(layers × depth + hit tests × layers).
    package static func render(json: [UInt8], options: RenderOptions = RenderOptions()) throws(SceneError) -> String {
        let scene = try Scene(json: json)
        let evaluation = try scene.evaluate()
        return render(scene, evaluation, options: options)
    }

    /// Decodes a scene file, evaluates it and draws its presentation tree at
    /// `options.times` (`renderPresentation(_:_:times:options:)`).
    ///
    /// - Throws: `SceneError` for a malformed scene; `RenderUsageError` for a bad time.
    package static func renderPresentation(json: [UInt8], options: RenderOptions) throws -> String {
        let scene = try Scene(json: json)
        let evaluation = try scene.evaluate()
        return try renderPresentation(scene, evaluation, times: options.times, options: options)
    }

    /// Draws an evaluated scene: `evaluation` must come from `scene.evaluate()`. The same
    /// inputs always give the same bytes.
    package static func render(
        _ scene: consuming Scene, _ evaluation: consuming SceneEvaluation, options: RenderOptions = RenderOptions()
    ) -> String {
        ScenePicture(scene: scene, evaluation: PictureTree(model: evaluation), options: options).svg().text
    }

    /// Draws the presentation tree of a scene at each of `times` (seconds of the scene's
    /// clock, not decreasing): one picture for one time; for several, a film strip, the
    /// pictures side by side in one SVG, left to right. Deterministic, like `render`.
    ///
    /// - Throws: `RenderUsageError` for a decreasing or NaN time.
    /// - Complexity: O(times × layers × depth) plus O(times × animations).
    static func renderPresentation(
        _ scene: consuming Scene, _ evaluation: consuming SceneEvaluation, times: [Double],
        options: RenderOptions = RenderOptions()
    ) throws(RenderUsageError) -> String {
        var sampler = try PresentationSampler(scene, evaluation)
        var pictures: [(text: String, width: Double, height: Double)] = []
        for time in times {
            let tree = try sampler.tree(at: time, of: evaluation, viewport: scene.viewport)
            pictures.append(ScenePicture(scene: scene, evaluation: tree, options: options).svg())
        }
        guard pictures.count > 1 else { return pictures[0].text }
        return FilmStrip.svg(pictures)
    }
}

/// One picture being drawn: the evaluation, the frame, and per store layer its depth,
/// its projected quad (world points, from the library) and where its label goes.
struct ScenePicture: ~Copyable {
    static let titleHeight = 28.0
    static let margin = 16.0
    static let palette = ["#1f77b4", "#ff7f0e", "#2ca02c", "#d62728", "#9467bd", "#8c564b", "#e377c2", "#17becf"]

    /// What the picture reads of the scene itself.
    let scene: (viewport: Rect?, hitTests: [Point], hitTestMode: HitTestRule)
    let evaluation: PictureTree
    let options: RenderOptions
    let frame: PictureFrame
    /// By store index.
    let depths: [Int]
    /// By store index: `store.projectedQuad(of:in:)`.
    let quads: [[Point]]
    /// By store index: the label's pixel position (nil when nothing of the layer shows).
    var labelPositions: [Point2D?]

    init(scene: borrowing Scene, evaluation: consuming PictureTree, options: RenderOptions) {
        let quads = Self.quads(evaluation.store, evaluation.world)
        depths = Self.depths(evaluation.store)
        frame = PictureFrame(
            world: Self.framedWorld(scene, evaluation), width: options.width, height: options.height,
            margin: Self.margin, top: Self.titleHeight)
        labelPositions = quads.map { _ in nil }
        self.quads = quads
        self.scene = (scene.viewport, scene.hitTests, scene.hitTestMode)
        self.evaluation = evaluation
        self.options = options
        for layer in 0..<quads.count {
            let drawn = frame.mapPolygon(quads[layer])
            guard !drawn.isEmpty else { continue }
            let sum = drawn.reduce(Point2D(0, 0)) { Point2D($0.x + $1.x, $0.y + $1.y) }
            labelPositions[layer] = Point2D(sum.x / Double(drawn.count), sum.y / Double(drawn.count))
        }
    }

    /// The viewport when the scene has one (finite, positive size); else the union of
    /// the finite world rects; at least 1 × 1 points.
    /// By store index: the layer's projected quad; none for free slots (removed layers).
    static func quads(_ store: borrowing LayerStore, _ world: WorldTransforms) -> [[Point]] {
        var quads: [[Point]] = []
        for slot in 0..<store.count {
            quads.append(store.handle(at: slot).map { store.projectedQuad(of: $0, in: world) } ?? [])
        }
        return quads
    }

    /// By store index: how many superlayers the layer has (0 for free slots).
    static func depths(_ store: borrowing LayerStore) -> [Int] {
        var depths: [Int] = []
        for slot in 0..<store.count {
            var depth = 0
            if var current = store.handle(at: slot) {
                while let superlayer = store.superlayer(of: current) {
                    depth += 1
                    current = superlayer
                }
            }
            depths.append(depth)
        }
        return depths
    }

    static func framedWorld(_ scene: borrowing Scene, _ evaluation: borrowing PictureTree) -> RectEdges {
        var box = RectEdges(minX: .infinity, minY: .infinity, maxX: -.infinity, maxY: -.infinity)
        if let viewport = scene.viewport?.edges, viewport.minX.isFinite, viewport.maxX.isFinite,
            viewport.minY.isFinite, viewport.maxY.isFinite, viewport.maxX > viewport.minX,
            viewport.maxY > viewport.minY
        {
            box = viewport
        } else {
            for rect in evaluation.worldRects where !rect.isNull {
                guard rect.minX.isFinite, rect.minY.isFinite, rect.maxX.isFinite, rect.maxY.isFinite else { continue }
                box = RectEdges(
                    minX: min(box.minX, rect.minX), minY: min(box.minY, rect.minY), maxX: max(box.maxX, rect.maxX),
                    maxY: max(box.maxY, rect.maxY))
            }
            if !box.minX.isFinite { box = RectEdges(minX: 0, minY: 0, maxX: 1, maxY: 1) }
        }
        if box.maxX - box.minX < 1 { box.maxX = box.minX + 1 }
        if box.maxY - box.minY < 1 { box.maxY = box.minY + 1 }
        return box
    }

    /// The whole document: title, layers not drawn, layers in drawing order, frames,
    /// clip rects, viewport, labels, hit tests, legend.
    func svg() -> (text: String, width: Double, height: Double) {
        let legendRows = options.legend ? (legendItems().count + legendColumns - 1) / legendColumns : 0
        let height = frame.pixelBottom + Double(legendRows) * 20 + (options.legend ? 8 : 0)
        var writer = SVGWriter(width: frame.pixelWidth, height: height)
        writeTitle(&writer)
        writeLayers(&writer)
        if options.frames { writeFrames(&writer) }
        if options.clips { writeClipRects(&writer) }
        if options.viewport { writeViewport(&writer) }
        if options.labels { writeLabels(&writer) }
        if options.hits { writeHits(&writer) }
        if options.legend { writeLegend(&writer, top: frame.pixelBottom) }
        return (writer.finish(), frame.pixelWidth, height)
    }

    func colour(ofDepth depth: Int) -> String { Self.palette[depth % Self.palette.count] }

    /// A layer's name, or `#index` (scene index).
    func label(ofSceneLayer layer: Int) -> String { evaluation.names[layer] ?? "#\(layer)" }

    private func writeTitle(_ writer: inout SVGWriter) {
        let live = evaluation.storeLayers.filter { $0 != nil }.count
        let visible = evaluation.visible.filter { $0 }.count
        var title = "\(live) layers, \(visible) visible"
        // A presentation picture is often one of a film strip: a title that fits it.
        if let time = evaluation.time { title = "t = \(time) s: \(visible) of \(live) visible" }
        if !scene.hitTests.isEmpty {
            title += ", \(scene.hitTests.count) hit tests (\(scene.hitTestMode.rawValue) rule)"
        }
        writer.element(
            "text", [("x", SVGWriter.number(Self.margin)), ("y", "18"), ("font-size", "13"), ("fill", "#333333")],
            content: title)
    }
}
