// What one accessor call costs depending on where the caller keeps the store (issue 21):
// a global `var`, a class property, a local `let`, an `inout` parameter. Built as a user
// would build it: another module, release. `swift run -c release accessor-bench`.
// Prints the median, p99 and max of 51 rounds of 1M `position(of:)` reads and of 1M
// `setPosition(_:of:)` writes, in ns per call, for each holder; then reads between writes
// on an `inout` store (`handle(at:)`, `contains(_:)`, `position(of:)`, each before a setter).
import BatchGeometry
import Dispatch

@inline(never)
func makeStore() -> LayerStore {
    var store = LayerStore(minimumCapacity: 1_000)
    let root = try! store.addLayer()
    for k in 0..<999 {
        let layer = try! store.addLayer(superlayer: root)
        store.setFrame(Rect(Double(k), 0, 10, 10), of: layer)
    }
    return store
}

nonisolated(unsafe) var globalStore = makeStore()

final class Holder {
    var store = makeStore()
}

let calls = 1_000_000
/// Each store's own handles: the stores are built alike, but a store rejects another's
/// handles (they carry its store tag, LayerHandle).
func ownHandles(of store: borrowing LayerStore) -> [LayerHandle] { (0..<1_000).map { store.handle(at: $0)! } }
let handles = ownHandles(of: globalStore)

func nanoseconds(_ body: () -> Double) -> (Double, Double) {
    let start = DispatchTime.now().uptimeNanoseconds
    let sink = body()
    return (Double(DispatchTime.now().uptimeNanoseconds - start) / Double(calls), sink)
}

@inline(never)
func readThroughInout(_ store: inout LayerStore) -> Double {
    var sum = 0.0
    for k in 0..<calls { sum += store.position(of: handles[k % 1_000]).x }
    return sum
}

@inline(never)
func writeThroughInout(_ store: inout LayerStore) -> Double {
    for k in 0..<calls { store.setPosition(Point(Double(k & 7), 0), of: handles[k % 1_000]) }
    return 0
}

// Reads between writes, as an app's edit loop makes them: a read the loop cannot hoist, so
// a read that passes the inout store out of line by copy pays that copy on every call.
@inline(never)
func lookUpAndWriteThroughInout(_ store: inout LayerStore) -> Double {
    for k in 0..<calls {
        guard let layer = store.handle(at: k % 1_000) else { continue }
        store.setPosition(Point(Double(k & 7), 0), of: layer)
    }
    return 0
}

@inline(never)
func checkAndWriteThroughInout(_ store: inout LayerStore) -> Double {
    for k in 0..<calls where store.contains(handles[k % 1_000]) {
        store.setPosition(Point(Double(k & 7), 0), of: handles[k % 1_000])
    }
    return 0
}

@inline(never)
func readAndWriteThroughInout(_ store: inout LayerStore) -> Double {
    for k in 0..<calls {
        let position = store.position(of: handles[k % 1_000])
        store.setPosition(Point(position.x, Double(k & 7)), of: handles[k % 1_000])
    }
    return 0
}

let holder = Holder()
let holderHandles = ownHandles(of: holder.store)
let localStore = makeStore()
let localHandles = ownHandles(of: localStore)
let cases: [(String, () -> Double)] = [
    (
        "read, global var",
        {
            var sum = 0.0
            for k in 0..<calls { sum += globalStore.position(of: handles[k % 1_000]).x }
            return sum
        }
    ),
    (
        "read, class property",
        {
            var sum = 0.0
            for k in 0..<calls { sum += holder.store.position(of: holderHandles[k % 1_000]).x }
            return sum
        }
    ),
    (
        "read, local let",
        {
            var sum = 0.0
            for k in 0..<calls { sum += localStore.position(of: localHandles[k % 1_000]).x }
            return sum
        }
    ),
    ("read, inout", { readThroughInout(&globalStore) }),
    (
        "write, global var",
        {
            for k in 0..<calls { globalStore.setPosition(Point(Double(k & 7), 0), of: handles[k % 1_000]) }
            return 0
        }
    ),
    (
        "write, class property",
        {
            for k in 0..<calls { holder.store.setPosition(Point(Double(k & 7), 0), of: holderHandles[k % 1_000]) }
            return 0
        }
    ),
    ("write, inout", { writeThroughInout(&globalStore) }),
    ("handle(at:)+write, inout", { lookUpAndWriteThroughInout(&globalStore) }),
    ("contains+write, inout", { checkAndWriteThroughInout(&globalStore) }),
    ("position+write, inout", { readAndWriteThroughInout(&globalStore) }),
]

var sink = 0.0
print("holder                  median ns   p99 ns   max ns  (51 rounds of \(calls) calls)")
for (name, body) in cases {
    var times: [Double] = []
    for _ in 0..<51 {
        let (time, value) = nanoseconds(body)
        times.append(time)
        sink += value
    }
    times.sort()
    let columns = [times[25], times[50 * 99 / 100], times[50]].map { (($0 * 100).rounded() / 100).description }
    print(name + String(repeating: " ", count: max(1, 26 - name.count)) + columns.joined(separator: "   "))
}
if sink == 42 { print(sink) }

// What `copy()` costs: a million layers (every cache built), best of 5.
var big = LayerStore(minimumCapacity: 1_000_000)
let bigRoot = try! big.addLayer()
big.setFrame(Rect(0, 0, 400, 800), of: bigRoot)
var list = bigRoot
for k in 0..<999_999 {
    // 1,000 lists of 999 cards, each list a 400-point column further right.
    if k % 1_000 == 0 {
        list = try! big.addLayer(superlayer: bigRoot)
        big.setFrame(Rect(Double(k / 1_000) * 400, 0, 400, 800), of: list)
        continue
    }
    let card = try! big.addLayer(superlayer: list)
    big.setFrame(Rect(0, Double(k % 1_000) * 50, 400, 44), of: card)
}
big.warmUp()
let leaf = big.handle(at: 500_001)!
var bestSetter = Double.infinity
var bestFrame = Double.infinity
var visible = VisibleLayers()
big.visibleLayers(in: Rect(0, 0, 400, 800), into: &visible)
for _ in 0..<5 {
    var start = DispatchTime.now().uptimeNanoseconds
    var copied = big.copy()
    copied.setPosition(Point(1, 1), of: leaf)  // the first write unshares the column it touches
    bestSetter = min(bestSetter, Double(DispatchTime.now().uptimeNanoseconds - start) / 1e6)
    start = DispatchTime.now().uptimeNanoseconds
    copied.visibleLayers(in: Rect(0, 0, 400, 800), into: &visible)  // unshares what the frame writes
    bestFrame = min(bestFrame, Double(DispatchTime.now().uptimeNanoseconds - start) / 1e6)
    sink += copied.position(of: bigRoot).x
}
print(
    "1,000,000 layers, caches built: copy() + one setPosition \((bestSetter * 100).rounded() / 100) ms, "
        + "then the first frame query \((bestFrame * 100).rounded() / 100) ms (best of 5)")
var settled = big.copy()
settled.setPosition(Point(2, 2), of: leaf)
settled.visibleLayers(in: Rect(0, 0, 400, 800), into: &visible)
let start = DispatchTime.now().uptimeNanoseconds
settled.setPosition(Point(3, 3), of: leaf)
settled.visibleLayers(in: Rect(0, 0, 400, 800), into: &visible)
print(
    "the same edit and frame query on a store that shares nothing: "
        + "\((Double(DispatchTime.now().uptimeNanoseconds - start) / 1e4).rounded() / 100) ms")
