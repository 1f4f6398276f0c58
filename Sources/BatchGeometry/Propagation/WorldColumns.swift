import CAffineKernels

// The pointer bundles of the world pipeline. Each pass gets the raw pointers it needs in
// ONE place, a `with…` function whose closure scopes their lifetime, and hands the
// bundle to its stages and kernels; the stages never call `withUnsafe…` themselves.
//
//   withPlanInputs        PlanInputs          the layer properties a plan entry reads
//   runWorldPass(plan:…)  WorldPass           the full pass's kernels (WorldPropagation.swift)
//   withIncrementalColumns IncrementalColumns plan and world columns an update writes

/// Raw pointers to six `Double` columns in the planar order (a, b, c, d, tx, ty): a
/// plan's cached locals or a world snapshot's planar columns.
struct AffinePointers {
    let a, b, c, d, tx, ty: UnsafeMutablePointer<Double>

    /// The same pointers as the C kernels take them.
    var columns: BGAffineColumns { BGAffineColumns(a: a, b: b, c: c, d: d, tx: tx, ty: ty) }
}

/// Calls `body` with the base addresses of six columns of equal, non-zero length.
@inline(__always)
func withAffinePointers<R>(
    _ a: inout [Double], _ b: inout [Double], _ c: inout [Double], _ d: inout [Double], _ tx: inout [Double],
    _ ty: inout [Double], _ body: (AffinePointers) -> R
) -> R {
    a.withUnsafeMutableBufferPointer { a in
        b.withUnsafeMutableBufferPointer { b in
            c.withUnsafeMutableBufferPointer { c in
                d.withUnsafeMutableBufferPointer { d in
                    tx.withUnsafeMutableBufferPointer { tx in
                        ty.withUnsafeMutableBufferPointer { ty in
                            body(
                                AffinePointers(
                                    a: a.baseAddress!, b: b.baseAddress!, c: c.baseAddress!, d: d.baseAddress!,
                                    tx: tx.baseAddress!, ty: ty.baseAddress!))
                        }
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
    a.withUnsafeBufferPointer { a in
        b.withUnsafeBufferPointer { b in
            c.withUnsafeBufferPointer { c in
                d.withUnsafeBufferPointer { d in
                    tx.withUnsafeBufferPointer { tx in
                        ty.withUnsafeBufferPointer { ty in
                            body(
                                AffinePointers(
                                    a: UnsafeMutablePointer(mutating: a.baseAddress!),
                                    b: UnsafeMutablePointer(mutating: b.baseAddress!),
                                    c: UnsafeMutablePointer(mutating: c.baseAddress!),
                                    d: UnsafeMutablePointer(mutating: d.baseAddress!),
                                    tx: UnsafeMutablePointer(mutating: tx.baseAddress!),
                                    ty: UnsafeMutablePointer(mutating: ty.baseAddress!)))
                        }
                    }
                }
            }
        }
    }
}

/// Calls `body` with read-only base addresses of four columns.
@inline(__always)
func withPointers<R>(
    _ a: [Double], _ b: [Double], _ c: [Double], _ d: [Double],
    _ body: (UnsafePointer<Double>, UnsafePointer<Double>, UnsafePointer<Double>, UnsafePointer<Double>) -> R
) -> R {
    withPointers(a, b) { a, b in withPointers(c, d) { c, d in body(a, b, c, d) } }
}

/// Calls `body` with read-only base addresses of two columns.
@inline(__always)
func withPointers<R>(
    _ a: [Double], _ b: [Double], _ body: (UnsafePointer<Double>, UnsafePointer<Double>) -> R
) -> R {
    a.withUnsafeBufferPointer { a in b.withUnsafeBufferPointer { b in body(a.baseAddress!, b.baseAddress!) } }
}

extension PlanarPropagation {
    /// The planar kernel over cached locals `local` and world columns `world`.
    init(
        local: AffinePointers, world: AffinePointers, parents: UnsafePointer<Int32>, order: UnsafePointer<Int32>?,
        blockKinds: UnsafePointer<UInt8>?
    ) {
        self.init(
            la: local.a, lb: local.b, lc: local.c, ld: local.d, ltx: local.tx, lty: local.ty, parents: parents,
            order: order, wa: world.a, wb: world.b, wc: world.c, wd: world.d, wtx: world.tx, wty: world.ty,
            blockKinds: blockKinds)
    }
}

/// What an incremental update writes, as raw pointers (valid inside
/// `withIncrementalColumns`): the plan's locals, modes, position shortcut and kinds, the
/// world's planar columns, and the cached general locals.
struct IncrementalColumns {
    let local: AffinePointers
    let modes: UnsafeMutablePointer<UInt8>
    /// The plan's `unpositioned` (two doubles per layer).
    let unpositioned: UnsafeMutablePointer<Double>
    /// The plan's `blockKinds`; nil when it keeps none.
    let blockKinds: UnsafeMutablePointer<UInt8>?
    let world: AffinePointers
    /// The cached general locals (16 doubles per layer); nil when not cached.
    let generalLocals: UnsafeMutablePointer<Double>?
    /// The plan's order; nil for index order.
    let order: UnsafePointer<Int32>?

    /// The plan columns as plan-entry writers take them. `keepingUnpositioned` false:
    /// `writeCommonEntry` clears `WorldMode.positionSum` instead of caching the shortcut.
    func planOutput(keepingUnpositioned: Bool) -> PlanOutput {
        PlanOutput(
            a: local.a, b: local.b, c: local.c, d: local.d, tx: local.tx, ty: local.ty, modes: modes,
            blockKinds: blockKinds, unpositioned: keepingUnpositioned ? unpositioned : nil)
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
    var unpositioned = plan.unpositioned
    var blockKinds = plan.blockKinds
    plan.generalLocals = []
    plan.unpositioned = []
    plan.blockKinds = []
    defer {
        reattachColumns(planColumns, worldColumns, general, to: &plan, &world)
        plan.generalLocals = generalLocals
        plan.unpositioned = unpositioned
        plan.blockKinds = blockKinds
    }
    let count = planColumns.6.count
    return withAffinePointers(
        &planColumns.0, &planColumns.1, &planColumns.2, &planColumns.3, &planColumns.4, &planColumns.5
    ) { local in
        withAffinePointers(
            &worldColumns.0, &worldColumns.1, &worldColumns.2, &worldColumns.3, &worldColumns.4, &worldColumns.5
        ) { world in
            planColumns.6.withUnsafeMutableBufferPointer { modes in
                unpositioned.withUnsafeMutableBufferPointer { unpositioned in
                    generalLocals.withUnsafeMutableBufferPointer { locals in
                        withBlockKinds(&blockKinds, layerCount: count) { blockKinds in
                            withOptionalBuffer(plan.order) { order in
                                let columns = IncrementalColumns(
                                    local: local, modes: modes.baseAddress!, unpositioned: unpositioned.baseAddress!,
                                    blockKinds: blockKinds, world: world,
                                    // nil when not cached (an empty array may still have a base address).
                                    generalLocals: locals.isEmpty ? nil : locals.baseAddress, order: order)
                                return body(columns, &general)
                            }
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

/// Calls `body` with the array's base address, or nil for a nil array.
@inline(__always)
func withOptionalBuffer<R>(_ array: [Int32]?, _ body: (UnsafePointer<Int32>?) -> R) -> R {
    guard let array else { return body(nil) }
    return array.withUnsafeBufferPointer { body($0.baseAddress) }
}

/// A raw pointer that chunks running on other threads may write through (each chunk
/// writes its own slot).
struct SendablePointer<Element>: @unchecked Sendable {
    let pointer: UnsafeMutablePointer<Element>
    init(_ pointer: UnsafeMutablePointer<Element>) { self.pointer = pointer }
}
