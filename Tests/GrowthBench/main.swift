// Growth past the store's capacity (issue 22 item 3): where a growth frame's time goes.
// The list-edit-bench feed (`lists` lists of `cards` cards of 6 layers in a 1920×1080
// window), built in a store reserved for exactly its layers, warmed up (`warmUp()`), then
// `frames` frames that each scroll every list, insert one card at a random index of one
// list (6 new slots: the store grows every frame, past its capacity in frame 0) and run
// `visibleLayers(in:into:)`. Prints, per capacity policy, the frame's median / p99 / max
// and the growth frame split into the edits (the columns' and per-layer caches'
// reallocation happen in `addLayer`) and the query (the drawing-order cache and the
// subtree bounds' refresh), and, apart, `reserveCapacity` timed on the columns alone
// (before any cache is built) and on the columns with every cache built. Built as a user
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

struct Frame { var edits: Double, query: Double }

/// Every frame's edits and query times, in order.
func run(capacity: Int) -> [Frame] {
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
        let start = now()
        FeedScene.scroll(&store, lists: listHandles, frame: n, cards: cards)
        let into = listHandles[random.below(lists)]
        let index = random.below(store.sublayerCount(of: into) + 1)
        FeedScene.addCard(&store, under: into, at: index, row: index)
        let edited = now()
        store.visibleLayers(in: FeedScene.window, into: &result)
        times.append(Frame(edits: edited - start, query: now() - edited))
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
timeReserve()
