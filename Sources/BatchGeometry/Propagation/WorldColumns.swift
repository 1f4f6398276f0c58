import CAffineKernels

// The pointer bundles of the world pipeline. Each pass gets the raw pointers it needs in
// ONE place, a `with…` function whose closure scopes their lifetime, and hands the
// bundle to its stages and kernels; the stages never open a column themselves. The
// columns themselves are `RawColumn`s (Memory/RawColumns.swift, with the lifetime rule).
//
//   withPlanInputs        PlanInputs          the layer properties a plan entry reads
//   runWorldPass(plan:…)  WorldPass           the full pass's kernels (WorldPropagation.swift)
//   withIncrementalColumns IncrementalColumns plan and world columns an update writes

/// Raw pointers to six `Double` columns in the planar order (a, b, c, d, tx, ty): a
/// plan's cached locals or a world snapshot's planar columns. Made only by
/// `withAffinePointers` (the rule of Memory/RawColumns.swift: never kept past its closure).
struct AffinePointers {
    let a, b, c, d, tx, ty: RawColumn<Double>

    /// The same pointers as the C kernels take them.
    var columns: BGAffineColumns {
        BGAffineColumns(a: a.base, b: b.base, c: c.base, d: d.base, tx: tx.base, ty: ty.base)
    }
}

/// Calls `body` with the base addresses of six columns of equal, non-zero length.
@inline(__always)
func withAffinePointers<R>(
    _ a: inout [Double], _ b: inout [Double], _ c: inout [Double], _ d: inout [Double], _ tx: inout [Double],
    _ ty: inout [Double], _ body: (AffinePointers) -> R
) -> R {
    withRawColumn(&a) { a in
        withRawColumn(&b) { b in
            withRawColumn(&c) { c in
                withRawColumn(&d) { d in
                    withRawColumn(&tx) { tx in
                        withRawColumn(&ty) { ty in body(AffinePointers(a: a, b: b, c: c, d: d, tx: tx, ty: ty)) }
                    }
                }
            }
        }
    }
}

/// Calls `body` with read-only base addresses of six columns of equal, non-zero length
/// (typed mutable because the C structs are; nothing writes through them).
@inline(__always)
func withAffinePointers<R>(
    reading a: [Double], _ b: [Double], _ c: [Double], _ d: [Double], _ tx: [Double], _ ty: [Double],
    _ body: (AffinePointers) -> R
) -> R {
    withRawColumns(reading: a, b, c, d) { a, b, c, d in
        withRawColumns(reading: tx, ty) { tx, ty in body(AffinePointers(a: a, b: b, c: c, d: d, tx: tx, ty: ty)) }
    }
}

/// `withAffinePointers(reading:…)` for remapped columns (the store's local transforms).
@inline(__always)
func withAffinePointers<R>(
    reading a: RemappedColumn<Double>, _ b: RemappedColumn<Double>, _ c: RemappedColumn<Double>,
    _ d: RemappedColumn<Double>, _ tx: RemappedColumn<Double>, _ ty: RemappedColumn<Double>,
    _ body: (AffinePointers) -> R
) -> R {
    withRawColumn(reading: a) { a in
        withRawColumn(reading: b) { b in
            withRawColumn(reading: c) { c in
                withRawColumn(reading: d) { d in
                    withRawColumn(reading: tx) { tx in
                        withRawColumn(reading: ty) { ty in body(AffinePointers(a: a, b: b, c: c, d: d, tx: tx, ty: ty))
                        }
                    }
                }
            }
        }
    }
}

extension PlanarPropagation {
    /// The planar kernel over cached locals `local` and world columns `world`.
    init(
        local: AffinePointers, world: AffinePointers, parents: RawColumn<Int32>, order: RawColumn<Int32>?,
        blockKinds: RawColumn<UInt8>?
    ) {
        self.init(
            la: local.a, lb: local.b, lc: local.c, ld: local.d, ltx: local.tx, lty: local.ty, parents: parents,
            order: order, wa: world.a, wb: world.b, wc: world.c, wd: world.d, wtx: world.tx, wty: world.ty,
            blockKinds: blockKinds)
    }
}

/// What an incremental update writes, as raw pointers (valid inside
/// `withIncrementalColumns`): the plan's locals, modes, position shortcut and kinds, the
/// world's planar columns, and the cached general locals. Never kept past that closure (the rule atop Memory/RawColumns.swift).
struct IncrementalColumns {
    let local: AffinePointers
    let modes: RawColumn<UInt8>
    /// The plan's `blockKinds`; nil when it keeps none.
    let blockKinds: RawColumn<UInt8>?
    let world: AffinePointers
    /// The cached general locals; nil when not cached.
    let generalLocals: GeneralLocalTable?
    /// The plan's order; nil for index order.
    let order: RawColumn<Int32>?

    /// The plan columns as plan-entry writers take them. `markingPositionSum` false:
    /// `writeCommonEntry` clears `WorldMode.positionSum` (no position shortcut).
    func planOutput(markingPositionSum: Bool) -> PlanOutput {
        PlanOutput(
            a: local.a, b: local.b, c: local.c, d: local.d, tx: local.tx, ty: local.ty, modes: modes,
            blockKinds: blockKinds, marksPositionSum: markingPositionSum)
    }

    @inline(__always) func layer(_ position: Int) -> Int { order.map { Int($0[position]) } ?? position }
}

/// Moves the columns an incremental pass writes out of `plan` and `world`, calls `body`
/// with raw pointers to them (and the general table, which it may write through its
/// subscript or its own pointers), then moves them back. Moved out, nothing else shares
/// their buffers, so writing copies nothing and there is no overlapping access to
/// `plan` or `world`. Both must have `count > 0` layers.
/// (Always inlined, so that the closures given to it, which call store methods, are
/// inlined too rather than capturing the store in a closure context.)
@inline(__always)
func withIncrementalColumns<R>(
    plan: inout WorldPlan, world: inout WorldTransforms, _ body: (IncrementalColumns, inout GeneralMatrices) -> R
) -> R {
    var (planColumns, worldColumns, general) = detachColumns(&plan, &world)
    var generalLocals = plan.generalLocals
    var localSlots = plan.generalLocalSlots
    var blockKinds = plan.blockKinds
    plan.generalLocals = []
    plan.generalLocalSlots = []
    plan.blockKinds = []
    defer {
        reattachColumns(planColumns, worldColumns, general, to: &plan, &world)
        plan.generalLocals = generalLocals
        plan.generalLocalSlots = localSlots
        plan.blockKinds = blockKinds
    }
    let count = planColumns.6.count
    return withAffinePointers(
        &planColumns.0, &planColumns.1, &planColumns.2, &planColumns.3, &planColumns.4, &planColumns.5
    ) { local in
        withAffinePointers(
            &worldColumns.0, &worldColumns.1, &worldColumns.2, &worldColumns.3, &worldColumns.4, &worldColumns.5
        ) { world in
            withRawColumn(&planColumns.6) { modes in
                // nil when not cached (empty).
                withGeneralLocals(&generalLocals, &localSlots) { locals in
                    withBlockKinds(&blockKinds, layerCount: count) { blockKinds in
                        withOptionalRawColumn(reading: plan.order) { order in
                            let columns = IncrementalColumns(
                                local: local, modes: modes, blockKinds: blockKinds,
                                world: world, generalLocals: locals, order: order)
                            return body(columns, &general)
                        }
                    }
                }
            }
        }
    }
}

/// The plan's local columns and modes, and the world's columns, as an incremental pass
/// holds them while it writes them through raw pointers.
typealias DetachedPlanColumns = ([Double], [Double], [Double], [Double], [Double], [Double], [UInt8])
typealias DetachedWorldColumns = ([Double], [Double], [Double], [Double], [Double], [Double])

/// Moves the columns an incremental pass writes out of `plan` and `world` (see
/// `withIncrementalColumns`); `reattachColumns` puts them back. O(1).
func detachColumns(
    _ plan: inout WorldPlan, _ world: inout WorldTransforms
) -> (DetachedPlanColumns, DetachedWorldColumns, GeneralMatrices) {
    let detached = (
        (plan.a, plan.b, plan.c, plan.d, plan.tx, plan.ty, plan.modes),
        (world.a, world.b, world.c, world.d, world.tx, world.ty), world.general
    )
    (plan.a, plan.b, plan.c, plan.d, plan.tx, plan.ty, plan.modes) = ([], [], [], [], [], [], [])
    (world.a, world.b, world.c, world.d, world.tx, world.ty) = ([], [], [], [], [], [])
    world.general = GeneralMatrices()
    return detached
}

/// Puts back what `detachColumns` moved out. O(1).
func reattachColumns(
    _ planColumns: DetachedPlanColumns, _ worldColumns: DetachedWorldColumns, _ general: GeneralMatrices,
    to plan: inout WorldPlan, _ world: inout WorldTransforms
) {
    (plan.a, plan.b, plan.c, plan.d, plan.tx, plan.ty, plan.modes) = planColumns
    (world.a, world.b, world.c, world.d, world.tx, world.ty) = worldColumns
    world.general = general
}

/// Everything one full world pass reads and writes, as raw pointers (valid inside
/// `withWorldPassColumns` only): the plan's cached locals, modes, block kinds, order and
/// general layers, the superlayer links, and the world's planar columns and general table.
/// Never kept past that closure (the rule atop Memory/RawColumns.swift).
struct WorldPassColumns {
    let local: AffinePointers
    let world: AffinePointers
    let parents: RawColumn<Int32>
    let modes: RawColumn<UInt8>
    /// The plan's `blockKinds`; nil when it keeps none.
    let blockKinds: RawColumn<UInt8>?
    /// The cached general locals; nil when there are none.
    let generalLocals: GeneralLocalTable?
    /// The positions of the general layers in the plan's order, ascending.
    let generalPositions: RawList<Int>
    /// The world's general table and presence flags (`GeneralMatrices.withRawColumns`).
    let generalWorld: RawColumn<Double>?
    let present: RawColumn<UInt8>?
    /// The plan's order; nil for index order.
    let order: RawColumn<Int32>?
}

/// Calls `body` with the pointers of a full pass over `plan`: its locals, modes, kinds
/// and order; `parents`; the general `locals` and `generalPositions`; the detached
/// `world` columns and `general` table (moved out of the snapshot by the caller, so
/// that they and the plan can be opened side by side). `plan` must have layers.
@inline(__always)
func withWorldPassColumns<R>(
    plan: WorldPlan, parents: RemappedColumn<Int32>, generalLocals: GeneralLocalsStorage, generalPositions: [Int],
    world: inout DetachedWorldColumns, general: inout GeneralMatrices, _ body: (WorldPassColumns) -> R
) -> R {
    withAffinePointers(reading: plan.a, plan.b, plan.c, plan.d, plan.tx, plan.ty) { local in
        withAffinePointers(&world.0, &world.1, &world.2, &world.3, &world.4, &world.5) { worldColumns in
            withRawColumn(reading: parents) { parents in
                withRawColumn(reading: plan.modes) { modes in
                    withOptionalRawColumn(reading: plan.blockKinds) { blockKinds in
                        withGeneralLocals(reading: generalLocals.table, generalLocals.slots) { generalLocals in
                            withRawList(reading: generalPositions) { generalPositions in
                                general.withRawColumns { generalWorld, present in
                                    withOptionalRawColumn(reading: plan.order) { order in
                                        body(
                                            WorldPassColumns(
                                                local: local, world: worldColumns, parents: parents, modes: modes,
                                                blockKinds: blockKinds, generalLocals: generalLocals,
                                                generalPositions: generalPositions, generalWorld: generalWorld,
                                                present: present, order: order))
                                    }
                                }
                            }
                        }
                    }
                }
            }
        }
    }
}

extension GeneralPropagation {
    /// The 4×4 kernel over raw columns (`locals` nil: the caller computes each general
    /// layer from its properties instead).
    init(
        locals: GeneralLocalTable?, parents: RawColumn<Int32>, order: RawColumn<Int32>?, modes: RawColumn<UInt8>,
        world: AffinePointers, generalWorld: RawColumn<Double>?, present: RawColumn<UInt8>?
    ) {
        self.init(
            columns: BGGeneralWorld(
                locals: locals?.table.base, localSlots: locals?.slots.base, parent: parents.base, order: order?.base,
                modes: modes.base,
                world: world.columns, generalWorld: generalWorld?.base, present: present?.base))
    }

    /// The cached locals, the general table, superlayers and modes as columns.
    /// `layer`'s cached local (its entry of the compact table).
    @inline(__always) func local(of layer: Int) -> RawColumn<Double> {
        RawColumn(reading: columns.locals) + 16 * Int(RawColumn(reading: columns.localSlots)[layer])
    }
    @inline(__always) var generalWorld: RawColumn<Double> { RawColumn(columns.generalWorld) }
    @inline(__always) var parents: RawColumn<Int32> { RawColumn(reading: columns.parent) }
    @inline(__always) var modes: RawColumn<UInt8> { RawColumn(reading: columns.modes) }
    @inline(__always) var worldColumns: AffinePointers {
        let world = columns.world
        return AffinePointers(
            a: RawColumn(world.a), b: RawColumn(world.b), c: RawColumn(world.c), d: RawColumn(world.d),
            tx: RawColumn(world.tx), ty: RawColumn(world.ty))
    }
}
