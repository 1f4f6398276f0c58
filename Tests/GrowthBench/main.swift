// Growth past the store's capacity (issue 22 item 3): where a growth frame's time goes.
// The list-edit-bench feed (`lists` lists of `cards` cards of 6 layers in a 1920×1080
// window), built in a store, warmed up (`warmUp()`), then `frames` frames that each
// scroll every list, insert one card at a random index of one list (6 new slots: the
// store grows every frame) and run `visibleLayers(in:into:)`. Four capacity policies:
// reserved exactly (crossed in frame ~80), the growth reserved, none (16,000 frames, to
// cross the capacity doubling gave), half of the growth reserved (crossed in frame
// 500). Prints, per policy, the frame's median / p99 / max, the slowest frame split into
// the edits (the columns' and per-layer caches' reallocation happen in `addLayer`) and
// the query, the frames whose edits grew an array (the store's memory footprint
// changed, measured outside the timing), the worst 1,000-frame window of a long run,
// and, apart, `reserveCapacity` timed on the columns alone (before any cache is built)
// and on the columns with every cache built. Built as a user
// would: `swift run -c release growth-bench [lists] [cards] [frames]` (defaults 20 8000
// 1000: 960,021 layers).
import BatchGeometry
import BatchGeometryWorkloads
import Dispatch

let arguments = CommandLine.arguments.dropFirst().compactMap { Int($0) }
let lists = arguments.count > 0 ? arguments[0] : 20
let cards = arguments.count > 1 ? arguments[1] : 8_000
let frames = arguments.count > 2 ? arguments[2] : 1_000
let layerCount = FeedScene.layerCount(lists: lists, cards: cards)

func now() -> Double { Double(DispatchTime.now().uptimeNanoseconds) / 1e6 }

/// One frame's edits and query times, and whether its edits grew an array of the store
/// (its memory footprint, outside the timing, changed).
struct Frame { var edits: Double, query: Double, grew: Bool }

/// The footprint's parts that growth changes (the world cache and scratch left out).
func grownBytes(_ store: borrowing LayerStore) -> Int {
    let footprint = store.memoryFootprint
    return footprint.columns + footprint.hierarchy + footprint.queryCaches
}

/// Every frame's edits and query times, in order.
func run(capacity: Int, frames: Int = frames) -> [Frame] {
    var store = LayerStore(minimumCapacity: capacity)
    let listHandles = FeedScene.build(in: &store, lists: lists, cards: cards, reordersCards: true)
    precondition(store.count == layerCount)
    store.warmUp()
    var random = SplitMix64(seed: 42)
    var result = VisibleLayers()
    store.visibleLayers(in: FeedScene.window, into: &result)
    var times: [Frame] = []
    times.reserveCapacity(frames)
    for n in 0..<frames {
        let bytes = grownBytes(store)
        let start = now()
        FeedScene.scroll(&store, lists: listHandles, frame: n, cards: cards)
        let into = listHandles[random.below(lists)]
        let index = random.below(store.sublayerCount(of: into) + 1)
        FeedScene.addCard(&store, under: into, at: index, row: index)
        let edited = now()
        store.visibleLayers(in: FeedScene.window, into: &result)
        let end = now()
        times.append(Frame(edits: edited - start, query: end - edited, grew: grownBytes(store) != bytes))
    }
    precondition(result.count > 0 && store.count == layerCount + 6 * frames)
    return times
}

func ms(_ x: Double) -> String { "\((x * 1000).rounded() / 1000)" }

func describe(_ label: String, _ frames: [Frame]) {
    let totals = frames.map { $0.edits + $0.query }
    let sorted = totals.sorted()
    let median = sorted[sorted.count / 2]
    let worst = totals.indices.max { totals[$0] < totals[$1] }!
    print(
        "\(label): frame median \(ms(median)) / p99 \(ms(sorted[sorted.count * 99 / 100])) / max \(ms(sorted.last!)) ms"
            + " (max/median \(ms(sorted.last! / median))); frame 0: edits \(ms(frames[0].edits)), query "
            + "\(ms(frames[0].query)); slowest #\(worst): edits \(ms(frames[worst].edits)), query "
            + "\(ms(frames[worst].query))")
    let grew = totals.indices.filter { frames[$0].grew }.map { totals[$0] }.sorted()
    if let worst = grew.last {
        print("  frames that grew an array: \(grew.count), median \(ms(grew[grew.count / 2])), max \(ms(worst)) ms")
        let first = totals.indices.filter { frames[$0].grew }.prefix(60).map { "#\($0) \(ms(totals[$0]))" }
        print("    \(first.joined(separator: ", "))")
    }
    if frames.count >= 2_000 {
        // The worst 1,000-frame window (the issue's target is over 1,000 frames).
        let windows = stride(from: 0, to: frames.count - 999, by: 1_000).map { start in
            Array(totals[start..<start + 1_000]).sorted()
        }
        let worst = windows.max { $0[990] < $1[990] }!
        print(
            "  worst 1,000-frame window by p99: median \(ms(worst[500])) / p99 \(ms(worst[990])) / max "
                + "\(ms(worst[999])) ms; worst window max \(ms(windows.map { $0[999] }.max()!)) ms")
    }
    let slow = totals.indices.filter { totals[$0] > 1.5 * median }
    let top = slow.sorted { totals[$0] > totals[$1] }.prefix(8).map { "#\($0) \(ms(totals[$0]))" }
    print("  frames over 1.5× the median: \(slow.count); slowest: \(top.joined(separator: ", "))")
}

/// `reserveCapacity(2 × count)` on a built store, before and after the caches exist.
func timeReserve() {
    var bare = LayerStore(minimumCapacity: layerCount)
    _ = FeedScene.build(in: &bare, lists: lists, cards: cards, reordersCards: true)
    let t0 = now()
    bare.reserveCapacity(2 * layerCount)
    let columnsOnly = now() - t0
    var warm = LayerStore(minimumCapacity: layerCount)
    _ = FeedScene.build(in: &warm, lists: lists, cards: cards, reordersCards: true)
    warm.warmUp()
    let t1 = now()
    warm.reserveCapacity(2 * layerCount)
    let withCaches = now() - t1
    print(
        "reserveCapacity(2 × \(layerCount)): columns only \(ms(columnsOnly)) ms; columns and every built cache "
            + "\(ms(withCaches)) ms")
}

print("\(lists) lists × \(cards) cards: \(layerCount) layers, \(frames) frames, each adding 6 layers")
describe("reserved exactly (grows past it in frame 0)", run(capacity: layerCount))
describe("reserved for the growth (+\(6 * frames))", run(capacity: layerCount + 6 * frames))
// Nothing reserved: the arrays' capacity is what doubling gave them (2^20 slots and the
// allocator's rounding for 960,021 layers), crossed at 6 layers a frame near frame 14,800.
describe("not reserved (16,000 frames)", run(capacity: 0, frames: 16_000))
describe("reserved for half the growth (+\(3 * frames), grows past it mid-run)", run(capacity: layerCount + 3 * frames))
timeReserve()
