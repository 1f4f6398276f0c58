// What the opaque `bg_store *` of batchgeometry.h points at: a `LayerStore`, the options
// its batch calls use, and the Swift results those calls keep and reuse. Every C call
// that may change the store goes through `mutate`, which bumps `version`; a cached
// result is valid while its recorded version is the store's. Each query runs the Swift
// API's caller-owned (`into:`) form over storage kept here (all but point conversion,
// which has none), so that a frame loop through the C interface allocates nothing in
// Swift once that storage has grown to the store.

@_spi(CInterface) import BatchGeometry
import CBatchGeometry

#if DEBUG && canImport(Glibc)
import Glibc
#elseif DEBUG && canImport(Musl)
import Musl
#elseif DEBUG && canImport(Darwin)
import Darwin
#endif

/// The object behind a `bg_store *` (retained by `bg_store_create`, released by
/// `bg_store_destroy`). Used by one thread at a time, as the header says.
final class CStore {
    /// The layers.
    private(set) var store: LayerStore
    /// Backend and threads of every batch call (`bg_store_set_options`).
    var options: KernelOptions
    /// Bumped after every call that changed `store`: names its current state.
    private(set) var version: UInt64 = 0

    /// `computeFrames(into:)`'s storage, reused by every frames call.
    var frames = FrameColumns(count: 0)
    /// `computeWorldTransforms(into:)`'s storage (`bg_store_compute_world`), current
    /// while `worldVersion == version`.
    private var world = WorldTransforms()
    private var worldVersion: UInt64?
    /// World rects and clip rects of state `rectsVersion` / `clipsVersion`, reused by
    /// clip rects and visibility.
    private var worldRectsCache: [RectEdges] = []
    private var rectsVersion: UInt64?
    private var clipRectsCache: [RectEdges?] = []
    private var clipsVersion: UInt64?
    /// Points copied in from a caller's buffer, reused.
    private var pointBuffer: [Point] = []
    /// The storage the other queries' `into:` forms write, each reused by its query.
    private var visibleFlags: [Bool] = []
    private var hits: [LayerHandle?] = []
    private var order: [LayerHandle] = []
    private var scratch = QueryScratch()
    /// The frame query's result (`visibleLayers(in:into:)`), reused by every frame query.
    private var visible = VisibleLayers()
    /// `worldOpacities(into:)`'s storage, reused by `bg_store_world_opacities`.
    private var worldOpacityBuffer: [Double] = []
    /// `visitedLayerCount` and `testedSublayerCount` of the last frame query that
    /// succeeded (`bg_store_get_frame_query_cost`); set by the C function on success, so
    /// that a failing call leaves them as they were.
    var frameQueryCost = (visited: 0, tested: 0)

    #if DEBUG
    /// Debug builds: the mutex a call holds while it uses the store, and whether
    /// `bg_store_destroy` ran (DebugChecks.swift).
    let lock: UnsafeMutablePointer<pthread_mutex_t> = {
        let lock = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
        pthread_mutex_init(lock, nil)
        return lock
    }()
    var destroyed = false

    deinit {
        pthread_mutex_destroy(lock)
        lock.deallocate()
    }

    /// Frees what the store holds (a destroyed store kept for the debug checks).
    func discardContents() {
        store = LayerStore()
        version &+= 1
        frames = FrameColumns(count: 0)
        world = WorldTransforms()
        (worldRectsCache, clipRectsCache, pointBuffer, visibleFlags) = ([], [], [], [])
        (hits, order, scratch, visible) = ([], [], QueryScratch(), VisibleLayers())
    }
    #endif

    init(store: consuming LayerStore, options: KernelOptions) {
        self.store = store
        self.options = options
    }

    /// The store behind `pointer`; a NULL pointer is `.null(name)`. In debug builds the
    /// calling thread's current call takes the store (`StoreOwnership.enter`).
    @inline(__always)
    static func from(_ pointer: OpaquePointer?, _ name: String = "store") throws(CFailure) -> CStore {
        guard let pointer else { throw CFailure.null(name) }
        let box = Unmanaged<CStore>.fromOpaque(UnsafeRawPointer(pointer)).takeUnretainedValue()
        #if DEBUG
        try StoreOwnership.enter(box, pointer)
        #endif
        return box
    }

    /// A new `bg_store *` for `store`, owned by the caller.
    static func make(_ store: consuming LayerStore, options: KernelOptions) -> OpaquePointer {
        OpaquePointer(Unmanaged.passRetained(CStore(store: store, options: options)).toOpaque())
    }

    /// Runs a change on the store; the caches are stale afterwards. A thrown error left
    /// the store unchanged (the Swift API's rule), so the version stays.
    @inline(__always)
    func mutate<Result>(_ change: (inout LayerStore) throws -> Result) rethrows -> Result {
        let result = try change(&store)
        version &+= 1
        return result
    }

    /// `raw` as the handle of a live layer, or `.staleLayer` with the message the Swift
    /// accessors stop with. O(1).
    @inline(__always)
    func live(_ raw: bg_layer) throws(CFailure) -> LayerHandle {
        let handle = LayerHandle(rawValue: raw)
        guard store.contains(handle) else { throw CFailure.staleLayer(store.staleHandleDescription(handle)) }
        return handle
    }

    /// `live(_:)`, with `BG_LAYER_NONE` as nil (world space, no superlayer).
    @inline(__always)
    func liveOrNone(_ raw: bg_layer) throws(CFailure) -> LayerHandle? {
        raw == noLayer ? nil : try live(raw)
    }
}

/// `BG_LAYER_NONE`.
let noLayer: bg_layer = .max

extension CStore {
    /// The world the queries read: the full pass of `bg_store_compute_world` while the
    /// store has not changed since, else the store's own cache brought up to date
    /// (`updateWorld`, incremental). The two are bit-identical (ARCHITECTURE.md, section 3).
    func currentWorld() -> WorldTransforms {
        if worldVersion == version { return world }
        return store.updateWorld(options: options)
    }

    /// `updateWorld(options:)`, the incremental update (`bg_store_update_world`).
    func updateWorld() {
        store.updateWorld(options: options)
    }

    /// `warmUp(options:)`: builds the store's caches; with a viewport,
    /// `warmUp(in:into:options:)`: then the frame query into the kept result, so that its
    /// storage has grown and the first frame's data are the last touched. Changes no geometry, so
    /// the cached results stay valid (and `frameQueryCost` stays: the C function sets it).
    func warmUp(viewport: Rect?) {
        if let viewport {
            store.warmUp(in: viewport, into: &visible, options: options)
        } else {
            store.warmUp(options: options)
        }
    }

    /// `invalidateWorld()`: the next update is a full pass. Changes no geometry, so the
    /// cached results stay valid.
    func invalidateWorld() {
        store.invalidateWorld()
    }

    /// `computeWorldTransforms(into:options:)` into the kept storage (`bg_store_compute_world`).
    func computeWorld() {
        store.computeWorldTransforms(into: &world, options: options)
        worldVersion = version
    }

    /// `computeFrames(into:options:)` into the kept storage.
    func computeFrames() {
        store.computeFrames(into: &frames, options: options)
    }

    // The per-query helpers: each gives the Swift API's result for the current state,
    // through its caller-owned (`into:`) form over an array kept above. The result is
    // returned sharing that array's storage: the C function copies it out and drops it
    // before the next call writes the array again (else that call would copy it). Each
    // reads the world (or anything else that may update the store) in a statement of its
    // own, before the query's call begins its access to `store`.

    /// `computeWorldRects(in:into:options:)`, kept until the store changes.
    func worldRects() -> [RectEdges] {
        if rectsVersion != version {
            let world = currentWorld()
            store.computeWorldRects(in: world, into: &worldRectsCache, options: options)
            rectsVersion = version
        }
        return worldRectsCache
    }

    /// `computeClipRects(worldRects:into:options:)`, kept until the store changes.
    func clipRects() -> [RectEdges?] {
        if clipsVersion != version {
            let rects = worldRects()
            store.computeClipRects(worldRects: rects, into: &clipRectsCache, options: options)
            clipsVersion = version
        }
        return clipRectsCache
    }

    /// `computeVisibility(worldRects:clipRects:viewport:into:options:)`.
    func visibility(viewport: Rect?) -> [Bool] {
        let rects = worldRects()
        let clips = clipRects()
        store.computeVisibility(
            worldRects: rects, clipRects: clips, viewport: viewport, into: &visibleFlags, options: options)
        return visibleFlags
    }

    /// `hitTest(points:rule:into:)`: the culled hit test, which answers what
    /// `hitTest(points:in:rule:into:scratch:options:)` answers (`FrameQueryTests`) while
    /// visiting only the subtrees under each point, and needs no world snapshot.
    /// It brings the store's subtree bounds and cached drawing order up to date, which
    /// changes no geometry: `version` stays, and with it every cached result.
    func hitTest(_ points: [Point], rule: HitTestRule) -> [LayerHandle?] {
        store.hitTest(points: points, rule: rule, into: &hits)
        return hits
    }

    /// `worldOpacities(into:)` into the kept storage: opacity is not geometry, so it
    /// needs no world and changes nothing.
    func worldOpacities() -> [Double] {
        store.worldOpacities(into: &worldOpacityBuffer)
        return worldOpacityBuffer
    }

    /// `visibleLayers(in:into:)`, the frame query, into the kept result. Like `hitTest`,
    /// it refreshes the store's internal caches only, so `version` stays.
    func visibleLayers(in viewport: Rect) -> VisibleLayers {
        store.visibleLayers(in: viewport, into: &visible)
        return visible
    }

    /// `convert(points:from:to:in:options:)`, which has no caller-owned form: it
    /// allocates its result array on every call.
    func convert(_ points: [Point], from source: LayerHandle?, to destination: LayerHandle?) -> [Point?] {
        store.convert(points: points, from: source, to: destination, in: currentWorld(), options: options)
    }

    /// `drawOrder(into:scratch:)`.
    func drawOrder() -> [LayerHandle] {
        store.drawOrder(into: &order, scratch: &scratch)
        return order
    }

    /// `count` points read from `pointer` (x, y pairs) into the reused point array.
    func points(_ pointer: UnsafePointer<Double>, count: Int) -> [Point] {
        pointBuffer.removeAll(keepingCapacity: true)
        pointBuffer.reserveCapacity(count)
        for k in 0..<count { pointBuffer.append(Point(x: pointer[2 * k], y: pointer[2 * k + 1])) }
        return pointBuffer
    }
}
