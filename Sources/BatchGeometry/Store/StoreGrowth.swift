// Growth ahead of need (issue 22 item 3). Most columns and per-layer caches are now
// `RemappedColumn`s (Memory/RemappedColumn.swift), whose growth from 2 MiB on is an
// `mremap` (no copy); the geometry columns, flags, masks and transform kinds are still Swift
// arrays. An array that runs out of room copies itself whole, and they all run out with the
// same `addLayer`, which then copied every one of them at once (60–90 ms at a million
// layers). Instead, once the slots pass 7/8 of the capacity, `addLayer` grows one array
// to twice the capacity every `interval` new slots, spaced so that the 41–48 arrays are
// done before the old capacity is reached: the copies spread over many frames, each one
// array (the largest, a subtree-bounds box column, 32 bytes a layer). An array whose
// step has not come when the slots reach its capacity grows by itself when appended to,
// as before (the rest of the schedule then finds it grown). A capacity reserved with
// `reserveCapacity(_:)` is honoured: nothing grows ahead below it, so a store reserved
// for exactly the layers it gets holds no more than that (growing past it then has no
// headroom to spread the copies over). Deterministic: the steps depend only on the
// reservations and the sequence of adds.

/// How many arrays one growth step may still reallocate. `grow` spends one per array
/// that reallocates and notes, once spent, that some array was left short.
struct GrowthBudget {
    /// Arrays this step may still reallocate (`Int.max`: every one).
    private var arraysLeft: Int
    /// Some array is still short of the capacity asked for: the budget ran out first.
    private(set) var leftSomeShort = false

    init(arrays: Int) { arraysLeft = arrays }

    /// What `reserveCapacity(_:)` spends: every array, and each one made unique as
    /// `Array.reserveCapacity` does (the drawing-order cache's build relies on that to
    /// stop sharing the hierarchy's link arrays).
    static var unlimited: GrowthBudget { GrowthBudget(arrays: .max) }

    /// Reserves `capacity` in `array` if the budget reaches it; a limited budget skips
    /// an array that has the room already. O(n) when it reallocates, O(1) otherwise.
    @inline(__always)
    mutating func grow<Element>(_ array: inout [Element], to capacity: Int) {
        growColumn(capacity: array.capacity, to: capacity) { array.reserveCapacity(capacity) }
    }

    /// Calls `reserve` if the budget reaches a column of `current` capacity that should
    /// hold `capacity`; an unlimited budget always calls it (to make the column unique).
    @inline(__always)
    mutating func growColumn(capacity current: Int, to capacity: Int, _ reserve: () -> Void) {
        if arraysLeft == .max {
            reserve()
            return
        }
        guard current < capacity else { return }
        guard arraysLeft > 0 else {
            leftSomeShort = true
            return
        }
        arraysLeft -= 1
        reserve()
    }
}

/// The growth ahead of need under way (`LayerHierarchy.growth`).
struct GrowthSchedule: Sendable {
    /// The capacity the arrays are being grown to; 0 while no growth is under way.
    var target = 0
    /// The slot count at which `addLayer` next looks at the capacity or takes a step.
    var nextCheck = 0
    /// New slots between two steps of the growth under way.
    var interval = 1
    /// The largest capacity reserved with `reserveCapacity(_:)`: no growth starts until the
    /// slots pass it.
    var reserved = 0

    /// At most this many steps before the old capacity is reached (the store has 41–48
    /// per-layer arrays with every cache built, so the last step comes with headroom).
    static let stepsPerHeadroom = 64
}

extension LayerStore {
    /// Reserves `capacity` in every column and per-layer cache the budget reaches, in a
    /// fixed order (columns, hierarchy, caches). O(n) for each array that reallocates.
    mutating func reserveCapacity(_ capacity: Int, budget: inout GrowthBudget) {
        columns.reserveCapacity(capacity, budget: &budget)
        hierarchy.reserveCapacity(capacity, budget: &budget)
        caches.reserveCapacity(capacity, budget: &budget)
    }

    /// Called by `addLayer` when the slots reach `hierarchy.growth.nextCheck`: starts a
    /// growth once the slots pass 7/8 of the capacity and the reserved capacity, or takes the next step of the one
    /// under way (one array grown). O(arrays) plus the one array's copy, O(n).
    mutating func growAhead() {
        var growth = hierarchy.growth
        if growth.target == 0 {
            let capacity = layerCapacity
            // Past the reservation, not at it: a store filled to exactly what it reserved
            // keeps its size.
            let start = Swift.max(capacity - capacity / 8, growth.reserved + 1)
            guard count >= start else {
                hierarchy.growth.nextCheck = start
                return
            }
            growth.target = Swift.max(2 * capacity, 16)
            growth.interval = Swift.max(1, (capacity - count) / GrowthSchedule.stepsPerHeadroom)
        }
        var budget = GrowthBudget(arrays: 1)
        reserveCapacity(growth.target, budget: &budget)
        if budget.leftSomeShort {
            growth.nextCheck = count + growth.interval
        } else {
            // Done: the next add finds the new capacity's start.
            growth = GrowthSchedule(reserved: growth.reserved)
        }
        hierarchy.growth = growth
    }
}

extension DrawOrderCache {
    /// Room for `capacity` layers in every per-layer array, once built. O(n) when it
    /// reallocates.
    mutating func reserveCapacity(_ capacity: Int) {
        var budget = GrowthBudget.unlimited
        reserveCapacity(capacity, budget: &budget)
    }
}

extension SubtreeBounds {
    /// `reserveCapacity(_:budget:)` whether built or not, every column: the build calls
    /// it with the store's capacity, so the columns grow with the store's.
    mutating func reserveColumns(_ capacity: Int) {
        var budget = GrowthBudget.unlimited
        reserveColumns(capacity, budget: &budget)
    }
}
