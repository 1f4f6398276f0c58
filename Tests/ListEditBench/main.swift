// The frame query of a live feed (issue 22 item 1): `lists` scrolling lists of `cards`
// cards (each with 5 sublayers) in a 1920×1080 window; every frame scrolls each list, then
// in the live script inserts one card at a random index of one list
// (`addLayer(superlayer:at:)`) and destroys a random card of another, then runs
// `visibleLayers(in:into:)`. Prints the median, p99 and max frame time (ms) of the still
// and the live script. Built as a user would build it: `swift run -c release list-edit-bench
// [lists] [cards] [frames]` (defaults 20 8000 400: ~960k layers).
import BatchGeometry
import BatchGeometryWorkloads
import Dispatch

let arguments = CommandLine.arguments.dropFirst().compactMap { Int($0) }
let lists = arguments.count > 0 ? arguments[0] : 20
let cards = arguments.count > 1 ? arguments[1] : 8_000
let frames = arguments.count > 2 ? arguments[2] : 400

extension SplitMix64 {
    /// A number in `0 ..< n` by remainder (the sequence the recorded numbers used).
    mutating func below(_ n: Int) -> Int { Int(next() % UInt64(n)) }
}

func addCard(_ store: inout LayerStore, under list: LayerHandle, at index: Int?, row: Int) -> LayerHandle {
    let card =
        index.map { try! store.addLayer(superlayer: list, at: $0) } ?? (try! store.addLayer(superlayer: list))
    store.setFrame(Rect(8, Double(row) * 96, 80, 88), of: card)
    for k in 0..<5 {
        let part = try! store.addLayer(superlayer: card)
        store.setFrame(Rect(4 + Double(k % 3) * 24, 4 + Double(k / 3) * 40, 20, 36), of: part)
    }
    return card
}

func makeScene(_ store: inout LayerStore) -> [LayerHandle] {
    let window = try! store.addLayer()
    store.setFrame(Rect(0, 0, 1920, 1080), of: window)
    var handles: [LayerHandle] = []
    for l in 0..<lists {
        let list = try! store.addLayer(superlayer: window)
        store.setFrame(Rect(Double(l % 20) * 96, 0, 96, 1080), of: list)
        store.setMasksToBounds(true, of: list)
        for row in 0..<cards { _ = addCard(&store, under: list, at: nil, row: row) }
        handles.append(list)
    }
    return handles
}

/// Frame times in order, then sorted.
func run(live: Bool) -> (inOrder: [Double], sorted: [Double]) {
    var store = LayerStore(minimumCapacity: lists * cards * 6 + 64)
    let listHandles = makeScene(&store)
    var random = SplitMix64(seed: 42)
    var result = VisibleLayers()
    var times: [Double] = []
    times.reserveCapacity(frames)
    store.visibleLayers(in: Rect(0, 0, 1920, 1080), into: &result)
    for n in 0..<(frames + 20) {
        let start = DispatchTime.now().uptimeNanoseconds
        for (l, list) in listHandles.enumerated() {
            store.setContentOffset(Point(0, Double((n * 7 + l * 131) % (cards * 90))), of: list)
        }
        if live {
            let into = listHandles[random.below(lists)]
            let count = store.sublayerCount(of: into)
            let index = random.below(count + 1)
            _ = addCard(&store, under: into, at: index, row: index)
            let from = listHandles[random.below(lists)]
            let doomed = store.sublayer(at: random.below(store.sublayerCount(of: from)), of: from)!
            try! store.destroyLayer(doomed)
        }
        store.visibleLayers(in: Rect(0, 0, 1920, 1080), into: &result)
        let end = DispatchTime.now().uptimeNanoseconds
        if n >= 20 { times.append(Double(end - start) / 1e6) }
    }
    precondition(result.count > 0)
    return (times, times.sorted())
}

func describe(_ times: [Double]) -> String {
    func f(_ x: Double) -> String {
        let r = (x * 1000).rounded() / 1000
        return "\(r)"
    }
    return "median \(f(times[times.count / 2])) / p99 \(f(times[times.count * 99 / 100])) / max \(f(times.last!)) ms"
}

print("lists \(lists) × cards \(cards) (\(lists * cards * 6 + lists + 1) layers), \(frames) frames")
print("still: " + describe(run(live: false).sorted))
let live = run(live: true)
print("live:  " + describe(live.sorted))
// The slowest live frames, by frame number: an index rebuild shows here, unless the
// scheduler's preemptions on a busy machine (whole ticks, ~4 ms) crowd it out.
let slowest = live.inOrder.indices.sorted { live.inOrder[$0] > live.inOrder[$1] }.prefix(8)
func frameList(_ frames: some Sequence<Int>) -> String {
    frames.map { "#\($0) \(describe([live.inOrder[$0]]).split(separator: " ")[1])" }.joined(separator: ", ")
}
print("slowest live frames: " + frameList(slowest))
// Under 2 ms: what is left once whole ticks lost to other processes are set aside.
let slowestWork = live.inOrder.indices.filter { live.inOrder[$0] < 2 }.sorted { live.inOrder[$0] > live.inOrder[$1] }
print("slowest live frames under 2 ms: " + frameList(slowestWork.prefix(4)))
