import CAffineKernels

/// Thousands to millions of layers, stored as one contiguous column per property
/// (struct of arrays), with Core Animation's geometry rules.
///
/// A layer is named by a `LayerHandle`, which `addLayer(superlayer:)` returns and which
/// stays valid until `destroyLayer(_:)` destroys the layer, whatever happens to other
/// layers. Each layer lives in a *slot*, `handle.index`, which is also its entry in every
/// per-layer result; destroyed layers' slots are reused by later `addLayer` calls, so
/// the columns stay dense. Sublayer order is kept separately (linked lists), so
/// reparenting is O(1).
///
/// `LayerStore` is noncopyable (`~Copyable`): it has one owner, and a call through any
/// place that holds it (a global `var`, a class property, a `let`, an `inout` parameter)
/// borrows it in place, so an accessor costs a few nanoseconds wherever the store lives.
/// One exception: through an `inout` parameter, a non-mutating accessor called between
/// writes (so the compiler cannot hoist it) is passed a bitwise copy of the struct (about
/// 1.4 KB) unless it is inlined; `handle(at:)`, `contains(_:)`, `count` and `layerCount`
/// are, the property getters and queries are not (read them before the writes, or in one
/// call of a function that takes the store `borrowing`: one copy for all its reads).
/// A copy is explicit: `copy()`, O(n). A render thread that needs what to draw does not
/// need a copy: `VisibleLayers` is one, of what is visible. To keep several stores in a
/// collection, or share one between objects, put it in a class. It is `Sendable`, so
/// different stores may be processed (or moved to) different threads.
///
/// Errors: structural changes (adding under a parent, reparenting, detaching,
/// destroying) `throw` `LayerStoreError` and leave the store unchanged; property
/// accessors stop the program, with a message naming the handle that survives release
/// builds, when handed a stale handle or another store's (`contains(_:)` checks one
/// without stopping).
public struct LayerStore: ~Copyable, Sendable {
    /// The per-layer data: one array per property, and the values derived from them alone.
    var columns = LayerColumns()
    /// The slots (generations, free slots) and the hierarchy links. `@usableFromInline` for
    /// the `@inlinable` lookups (`LayerStore+Handles.swift`).
    @usableFromInline var hierarchy = LayerHierarchy()
    /// Every cache and the queries' working storage (`LayerCaches.swift`).
    var caches = LayerCaches()

    // MARK: The geometry columns, read-only (section 2 of GEOMETRY.md), one entry per slot.
    // Each getter is O(1) and allocates nothing: a `GeometryColumn` view shares the column
    // (copy-on-write; see its doc comment for what holding one costs an edit).
    /// Every slot's `bounds.origin.x`, in points.
    public var boundsX: GeometryColumn { GeometryColumn(columns.boundsX) }
    /// Every slot's `bounds.origin.y`, in points.
    public var boundsY: GeometryColumn { GeometryColumn(columns.boundsY) }
    /// Every slot's `bounds.size.width`, in points.
    public var boundsWidth: GeometryColumn { GeometryColumn(columns.boundsWidth) }
    /// Every slot's `bounds.size.height`, in points.
    public var boundsHeight: GeometryColumn { GeometryColumn(columns.boundsHeight) }
    /// Every slot's `position.x`, in the superlayer's points.
    public var positionX: GeometryColumn { GeometryColumn(columns.positionX) }
    /// Every slot's `position.y`, in the superlayer's points.
    public var positionY: GeometryColumn { GeometryColumn(columns.positionY) }
    /// Every slot's `anchorPoint.x`, in unit coordinates of the bounds.
    public var anchorX: GeometryColumn { GeometryColumn(columns.anchorX) }
    /// Every slot's `anchorPoint.y`, in unit coordinates of the bounds.
    public var anchorY: GeometryColumn { GeometryColumn(columns.anchorY) }
    /// Every slot's `zPosition`, in points.
    public var zPositions: GeometryColumn { GeometryColumn(columns.zValues, lane: 0) }
    /// Every slot's `anchorPointZ`, in points.
    public var anchorPointZs: GeometryColumn { GeometryColumn(columns.zValues, lane: 1) }
    /// Points to pixels (GEOMETRY.md section 1): what contentOffset rounds to.
    public var displayScale: Double { columns.displayScale }

    /// The largest number of layers one store holds; indices are stored as `Int32`.
    public static let maximumLayerCount = Int(Int32.max) - 1

    /// An empty store, with a new store tag (`LayerHandle`): its handles are not taken
    /// for another store's. O(1).
    public init() {
        hierarchy.storeTag = BGNextStoreTag(LayerHandle.tagCount)
    }

    /// An empty store with room for `capacity` layers before any column or cache
    /// reallocates (see `reserveCapacity(_:)` for the growth policy). O(capacity) memory.
    public init(minimumCapacity capacity: Int) {
        self.init()
        reserveCapacity(capacity)
    }

    /// A store made of these parts, keeping `hierarchy`'s store tag: `copy()`.
    private init(columns: LayerColumns, hierarchy: LayerHierarchy, caches: LayerCaches) {
        self.columns = columns
        self.hierarchy = hierarchy
        self.caches = caches
    }

    /// An independent copy of the store: every column, the hierarchy, the scroll views and
    /// the caches (so the copy answers its first query as cheaply as the original would);
    /// not the working storage of the queries, which the copy grows again on first use.
    ///
    /// `LayerStore` is noncopyable, so this is the only way to copy one, and its cost is
    /// explicit. The call itself is O(columns): the copy shares each column's buffer with
    /// the original until either store writes to it, and that first write copies the
    /// column, O(n). So the price comes with the next edits and queries of either store:
    /// at a million layers with every cache built, `copy()` and one setter take about
    /// 1 ms, and the first frame query after them about 160 ms (it writes every cache
    /// column), against 0.01 ms for the same edit and query on a store that shares
    /// nothing (`swift run -c release accessor-bench`). Memory doubles once both are
    /// written. A render thread that needs what to draw this frame does not need a copy
    /// of the store: `VisibleLayers` from `visibleLayers(in:into:)` is already a copy of
    /// what is visible, O(visible).
    ///
    /// Handles stay valid in the copy (same slots, same generations, same store tag: the
    /// copy is not "another store" for `LayerHandle`'s check, so the presentation tree
    /// takes the model's handles), and snapshots of the original's current structure are
    /// accepted by the copy until either changes structure.
    public func copy() -> LayerStore {
        LayerStore(columns: columns, hierarchy: hierarchy, caches: caches.copyWithoutScratch())
    }

    /// The number of slots: the length of every per-layer result (`FrameColumns`,
    /// `WorldTransforms`, world rects, clip rects, visibility), indexed by
    /// `LayerHandle.index`. Live layers plus free slots (`layerCount` counts only the
    /// live ones). O(1).
    @inlinable public var count: Int { hierarchy.parents.count }

    /// The number of live layers: added and not destroyed, attached or detached. O(1).
    @inlinable public var layerCount: Int { hierarchy.parents.count - hierarchy.freeSlots.count }

    /// Reserves room for `capacity` layers in every column and every per-layer cache, built
    /// or not, so that adding layers up to `capacity` reallocates nothing. O(columns):
    /// a column of 256 KiB or more grows inside its reserved address space (no copy, no
    /// move), a smaller one by a realloc (at most 256 KiB copied); allocates at most once
    /// per column and cache.
    ///
    /// Growth policy: every per-layer column and cache is a remapped column (on Linux, from
    /// 256 KiB on, an anonymous mapping inside a reservation of address space 2 MiB, 128
    /// MiB, 8 GiB, … long, that grows by making more of its reservation writable: no
    /// element is copied, no page moved and no old page touched; only every sixth doubling
    /// moves it to a larger reservation, by `mremap`; README "Growing the store"). A
    /// column doubles when an append finds it full, in that `addLayer`; the caches reserve
    /// the columns' capacity when they are built, so they grow in the same `addLayer`,
    /// every one without a copy, not by the copies that cost 60–490 ms at a million layers
    /// (Benchmarks/KERNELS.md, "Growth (fifth session)", "Growth inside reservations").
    /// Growth is amortized O(1) a layer. The new room costs nothing until written: each
    /// page is faulted in (zeroed by the kernel) by the append that first reaches it, as a
    /// small page (a grown tail asks for huge pages only at the next growth, when full, so
    /// no append faults 2 MiB at once; docs/DEBTS.md). A mapping's next doubling is made
    /// writable ahead by the call that maps or grows it (committed, not touched), so every
    /// other growth makes no system call, nor does the first growth past a capacity
    /// reserved here. Reserving ahead (here or with
    /// `init(minimumCapacity:)`) saves those system calls and each column's one copy from
    /// the heap into a mapping at 256 KiB, not the page faults. Not covered: the world transforms
    /// cache, which a full world pass (after any new slot) writes anew at `count` entries.
    /// Per wide list, not per layer: its R-tree, its parked lists and the walks' candidate
    /// stacks are sized to the tree's leaves (about a third more than its sublayers) when
    /// the R-tree is built (`warmUp()`); a list that outgrows them gets its R-tree rebuilt
    /// into more, which grows them in that query, once per rebuild.
    public mutating func reserveCapacity(_ capacity: Int) {
        columns.reserveCapacity(capacity)
        hierarchy.reserveCapacity(capacity)
        caches.reserveCapacity(capacity)
    }

    /// How many slots the columns hold without reallocating (at least `count`): what a
    /// per-layer cache reserves when it is built, so that it grows when the columns do,
    /// geometrically, and never sooner. O(1).
    var layerCapacity: Int { Swift.max(hierarchy.parents.capacity, count) }

    /// The check every index-taking accessor makes; its message survives release builds.
    @inline(__always)
    func checkIndex(_ layer: Int, file: StaticString = #file, line: UInt = #line) {
        // A local copy: the message's autoclosure would otherwise capture (and, in
        // unoptimized builds, copy) the whole store on every property access.
        let count = self.count
        require(layer >= 0 && layer < count, "layer \(layer) is out of range (\(count) layers)", file: file, line: line)
    }

    /// Records a structural change: a new structure version, so every snapshot of the
    /// old structure is recognized as stale.
    mutating func structureDidChange() {
        hierarchy.structureVersion = BGNextStructureVersion()
    }
}

/// Boolean layer properties, one byte per layer.
struct LayerFlags: OptionSet, Sendable, Hashable {
    let rawValue: UInt8
    static let geometryFlipped = LayerFlags(rawValue: 1 << 0)
    static let masksToBounds = LayerFlags(rawValue: 1 << 1)
    static let hidden = LayerFlags(rawValue: 1 << 2)
    static let transformLayer = LayerFlags(rawValue: 1 << 3)
    /// `autoresizesSubviews == false` (stored inverted so that the default is 0).
    static let doesNotAutoresizeSubviews = LayerFlags(rawValue: 1 << 4)
    /// Taken out of the tree by `removeFromSuperlayer(_:)`: structurally a root (so every
    /// pass still covers it), left out of `roots`, drawing, hit testing, world rects and
    /// visibility with its subtree.
    static let detached = LayerFlags(rawValue: 1 << 5)
    /// Derived, not set directly: `opacity < 0.01` or `userInteractionEnabled == false`,
    /// so the view rule of hit testing skips the layer with its subtree (kept by
    /// `attributesDidChange`).
    static let skippedByViewRule = LayerFlags(rawValue: 1 << 6)

    // Combinations the per-layer passes test, as constants: an option-set literal such
    // as `[.hidden, .detached]` builds an array (a heap allocation) per use in
    // unoptimized builds.
    /// `[.hidden, .detached]`: left out of drawing and visibility with the subtree.
    static let hiddenOrDetached = LayerFlags(rawValue: hidden.rawValue | detached.rawValue)
    /// `[.geometryFlipped, .transformLayer]`: flags that change the sublayers' plan entries.
    static let adjustingSublayers = LayerFlags(rawValue: geometryFlipped.rawValue | transformLayer.rawValue)
    /// `[.hidden, .skippedByViewRule]`: what the view rule's hit test skips a subtree for.
    static let hiddenOrSkippedByViewRule = LayerFlags(rawValue: hidden.rawValue | skippedByViewRule.rawValue)
}

/// `contentSize` and `contentInset` of a scroll view (GEOMETRY.md section 8).
public struct ScrollViewState: Hashable, Sendable {
    /// The size of the scrollable content, in the layer's bounds space.
    public var contentSize: Size
    /// Extra scrollable room around the content (`UIScrollView.contentInset`).
    public var contentInset: EdgeInsets
    public init(contentSize: Size, contentInset: EdgeInsets = .zero) {
        self.contentSize = contentSize
        self.contentInset = contentInset
    }
}

/// A structural change that cannot be made, with the layer it concerns. The store is
/// left unchanged when one is thrown.
public enum LayerStoreError: Error, Hashable, Sendable, CustomStringConvertible {
    /// A handle of this store (or of a copy, or the original) that names no live layer
    /// of it: the layer was destroyed (its slot was freed, and maybe reused), or the handle
    /// was never one of its layers'.
    case staleLayer(LayerHandle)
    /// The same, for the superlayer argument.
    case staleSuperlayer(LayerHandle)
    /// A handle made by another store (it carries another store tag, `LayerHandle`):
    /// a handle works only with the store that made it and that store's copies.
    case foreignLayer(LayerHandle)
    /// The same, for the superlayer argument.
    case foreignSuperlayer(LayerHandle)
    /// Making `layer` a sublayer of `superlayer` would close a cycle: `superlayer` is
    /// `layer` itself or inside its subtree.
    case cycle(layer: LayerHandle, superlayer: LayerHandle)
    /// A sublayer position past the end of the superlayer's sublayer list.
    case sublayerIndexOutOfRange(index: Int, sublayerCount: Int)
    /// `scroll(_:to:)` on a layer that has no `contentSize`.
    case notAScrollView(layer: LayerHandle)
    /// More layers than `LayerStore.maximumLayerCount`.
    case tooManyLayers(limit: Int)
    /// A display scale that is not a positive finite number.
    case invalidDisplayScale(Double)

    public var description: String {
        switch self {
        case .staleLayer(let layer):
            return "\(layer) is stale: no live layer of this store has that handle (destroyed, or never this store's)"
        case .staleSuperlayer(let superlayer):
            return
                "superlayer \(superlayer) is stale: no live layer of this store has that handle (destroyed, or never this store's)"
        case .foreignLayer(let layer):
            return "\(layer) belongs to another store (store tag \(layer.storeTag)): a handle works only with "
                + "the store that made it and its copies"
        case .foreignSuperlayer(let superlayer):
            return "superlayer \(superlayer) belongs to another store (store tag \(superlayer.storeTag)): a handle "
                + "works only with the store that made it and its copies"
        case .cycle(let layer, let superlayer):
            return superlayer == layer
                ? "\(layer) cannot be its own superlayer"
                : "making \(superlayer) the superlayer of \(layer) would make a cycle (it is inside \(layer)'s subtree)"
        case .sublayerIndexOutOfRange(let index, let sublayerCount):
            return "sublayer index \(index) is out of range (\(sublayerCount) sublayers)"
        case .notAScrollView(let layer): return "\(layer) is not a scroll view (it has no contentSize)"
        case .tooManyLayers(let limit): return "a store holds at most \(limit) layers"
        case .invalidDisplayScale(let scale):
            return "the display scale must be a positive finite number, got \(scale)"
        }
    }
}

/// Misuse of the API (an index out of range, a stale snapshot): stops the program with
/// `message`, which, unlike a `precondition`'s, is kept in release builds. Checked in
/// every build. The message is built only on failure.
@inline(__always)
func require(
    _ condition: Bool, _ message: @autoclosure () -> String,
    file: StaticString = #file, line: UInt = #line
) {
    if _slowPath(!condition) { misuse(message(), file: file, line: line) }
}

@inline(never)
func misuse(_ message: String, file: StaticString, line: UInt) -> Never {
    fatalError(message, file: file, line: line)
}
