// The decoded scene file (SCENE-FORMAT.md): a built layer store plus the operations
// and queries to run on it.

/// A scene file, decoded and validated: the layers already created in a `LayerStore`
/// (with the creation order of SCENE-FORMAT.md and their hierarchy linked), the
/// property changes to apply, and the queries to answer.
///
/// Decode with `init(json:)`, then `evaluate(options:)`. Every structural error
/// (a parent out of range, a parent cycle, an operation on a missing or removed layer,
/// a move into the layer's own subtree or to a sublayer index out of range, `scrollTo`
/// on a layer without `contentSize`) is found by `init(json:)`, so a `Scene` that
/// exists always evaluates.
///
/// A layer's index in the `layers` array is its identity for the whole scene, whatever
/// the structure operations do to other layers.
public struct Scene: ~Copyable, Sendable {
    /// The layers as created from the `layers` array, before any operation. Index =
    /// position in the array.
    public internal(set) var store: LayerStore
    /// Each layer's `name`, or nil when it has none.
    public internal(set) var names: [String?]
    /// The `operations`, in order.
    public internal(set) var operations: [SceneOperation]
    /// `viewport` (world space), or nil when absent.
    public internal(set) var viewport: Rect?
    /// `hitTestMode`: `.layer` (the default) or `.view`.
    public internal(set) var hitTestMode: HitTestRule
    /// `hitTests`: points in world space.
    public internal(set) var hitTests: [Point]
    /// `conversions`.
    public internal(set) var conversions: [SceneConversion]
    /// The standalone curve queries (`timingFunctions`, `springs`, `viewSprings`,
    /// `decelerations`, `rubberBands`; SCENE-FORMAT.md "Animations and time").
    public internal(set) var curveQueries = SceneCurveQueries()
    /// `animations`, in order (an animation's index is its identity).
    public internal(set) var animations: [SceneAnimation] = []
    /// `times`: the sample times of the presentation tree, non-decreasing.
    public internal(set) var times: [Double] = []
    /// Each layer's own timing (`beginTime`, `speed`, `timeOffset`), by scene index.
    public internal(set) var layerTimings: [LayerTiming] = []
    /// Whether the file has `animations` or `times` (then the output has `presentation`).
    public internal(set) var hasAnimationKeys = false

    /// The number of layers.
    public var layerCount: Int { store.count }
}

/// One entry of `operations`: a property of one layer set to a value.
public struct SceneOperation: Sendable, Equatable {
    /// The layer index.
    public var layer: Int
    /// The property and its new value.
    public var change: SceneChange

    public init(layer: Int, change: SceneChange) {
        self.layer = layer
        self.change = change
    }
}

/// A property change, with Core Animation's setter semantics (GEOMETRY.md section 4).
public enum SceneChange: Sendable, Equatable {
    /// The frame setter: bounds size and position (GEOMETRY.md section 4).
    case frame(Rect)
    /// Bounds, kept about the anchor point (position unchanged).
    case bounds(Rect)
    /// Position, in the superlayer's space.
    case position(Point)
    /// UIView `center`: the same as `position`.
    case center(Point)
    /// Anchor point in unit coordinates (position unchanged, so the frame moves).
    case anchorPoint(Point)
    /// The layer's transform (6 numbers in the file embed as an affine transform).
    case transform(Transform3D)
    /// The transform applied to the sublayers, about the anchor point.
    case sublayerTransform(Transform3D)
    /// z position, in points.
    case zPosition(Double)
    /// The anchor point's z, in points.
    case anchorPointZ(Double)
    /// Sets `bounds.origin` as given.
    case contentOffset(Point)
    /// Sets `bounds.origin` clamped to the scroll range (scroll views only).
    case scrollTo(Point)
    /// Flips the sublayers' y axis.
    case geometryFlipped(Bool)
    /// Clips the sublayers to the bounds.
    case masksToBounds(Bool)
    /// Hides the layer and its subtree.
    case hidden(Bool)
    /// Makes the layer a CATransformLayer (no flattening of its sublayers).
    case isTransformLayer(Bool)
    /// How the layer follows its superlayer's size (resizes nothing by itself).
    case autoresizingMask(AutoresizingMask)
    /// Whether the layer's size changes resize its masked sublayers.
    case autoresizesSubviews(Bool)
    /// A table property (`LayerProperty`: opacity, userInteractionEnabled) set to a value,
    /// a flag as 0 or 1 (`LayerStore.setValue(_:of:for:)`).
    case property(LayerProperty, Double)
    /// Moves the layer, with its subtree, to be a sublayer of the given layer (nil: a
    /// root) at `index` among its sublayers (nil: the last). The layer keeps its scene
    /// index.
    case superlayer(Int?, index: Int?)
    /// Removes the layer and its subtree; their scene indices name nothing afterwards.
    case remove
}

/// One entry of `conversions`: a point in `from`'s bounds space, to be expressed in
/// `to`'s (nil = world space for either).
public struct SceneConversion: Sendable, Equatable {
    /// The point, in the bounds space of `from` (or world space).
    public var point: Point
    /// The source layer index, nil for world space.
    public var from: Int?
    /// The destination layer index, nil for world space.
    public var to: Int?

    public init(point: Point, from: Int?, to: Int?) {
        self.point = point
        self.from = from
        self.to = to
    }
}

extension Scene {
    /// Decodes a scene file (UTF-8 JSON, SCENE-FORMAT.md) and builds its layers.
    ///
    /// Unknown keys and duplicate keys are rejected (a misspelt key would otherwise be
    /// silently ignored). Numbers may also be the strings `"NaN"`, `"+Infinity"`,
    /// `"-Infinity"`. A parent may come later in the array than its child; a parent
    /// cycle is an error. O(bytes) time; memory is the layer store plus the names, no
    /// document tree; no recursion, so any nesting depth is a clean error.
    ///
    /// - Throws: `SceneError` naming the field (`layers[3].transform`) and the problem
    ///   (`expected 6 or 16 numbers, got 5`), for bad JSON with its line, column and
    ///   byte offset.
    public init(json: [UInt8]) throws(SceneError) {
        let scene = try Scene.decoded(json)
        self.init(
            store: scene.store, names: scene.names, operations: scene.operations, viewport: scene.viewport,
            hitTestMode: scene.hitTestMode, hitTests: scene.hitTests, conversions: scene.conversions,
            curveQueries: scene.curveQueries, animations: scene.animations, times: scene.times,
            layerTimings: scene.layerTimings, hasAnimationKeys: scene.hasAnimationKeys)
    }

    private static func decoded(_ json: [UInt8]) throws(SceneError) -> Scene {
        // The opener returns only copyable results: the noncopyable scene leaves the
        // closure through an optional.
        var decoded: Scene? = nil
        try withThrowingRawList(reading: json) { (buffer) throws(SceneError) in
            var decoder = SceneDecoder(bytes: buffer)
            decoded = try decoder.decode()
        }
        return decoded.take()!
    }

    /// Decodes a scene from JSON text (see `init(json:)`).
    public init(jsonText: String) throws(SceneError) {
        try self.init(json: Array(jsonText.utf8))
    }
}
