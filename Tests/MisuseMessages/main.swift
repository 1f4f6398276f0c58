// Misuses the BatchGeometry API on purpose, one case per run (`misuse-messages CASE`),
// so that tests can check, in debug and in release builds, that each mistake stops the
// program with a message that says what went wrong (scripts/misuse-messages.sh,
// MisuseMessageTests). A mistake that went unnoticed shows as the case printing its
// (wrong) answer and exiting 0.
import BatchGeometry

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A window with two cards, its world transforms brought up to date.
func makeStore() -> LayerStore {
    var store = LayerStore()
    let window = try! store.addLayer()
    store.setBounds(Rect(x: 0, y: 0, width: 375, height: 812), of: window)
    for _ in 0..<2 {
        let card = try! store.addLayer(superlayer: window)
        store.setBounds(Rect(x: 0, y: 0, width: 100, height: 100), of: card)
        store.setPosition(Point(x: 100, y: 100), of: card)
    }
    return store
}

let cases: [String: () -> Void] = [
    "stale-world-after-add": {
        var store = makeStore()
        let world = store.updateWorld()
        try! store.addLayer(superlayer: 0)
        print(store.hitTest(Point(x: 100, y: 100), in: world) as Any)
    },
    "stale-world-after-remove": {
        var store = makeStore()
        let world = store.updateWorld()
        try! store.destroyLayer(1)
        print(store.worldRect(of: 1, in: world))
    },
    "stale-world-after-move": {
        var store = makeStore()
        let world = store.worldTransforms()
        try! store.insertSublayer(2, into: 1)
        print(store.convert(Point(x: 0, y: 0), from: 2, to: nil, in: world) as Any)
    },
    "stale-world-after-detach": {
        var store = makeStore()
        let world = store.updateWorld()
        try! store.removeFromSuperlayer(1)
        print(store.hitTest(Point(x: 100, y: 100), in: world) as Any)
    },
    "world-from-another-store": {
        var store = makeStore()
        let other = makeStore()  // the same shape, but another store
        print(store.hitTest(points: [Point(x: 1, y: 1)], in: other.worldTransforms()))
        _ = store.updateWorld()
    },
    "layer-out-of-range": {
        let store = makeStore()
        print(store.bounds(of: 5))
    },
    "world-layer-out-of-range": {
        let store = makeStore()
        print(store.worldTransforms()[9])
    },
    "stale-world-rects": {
        var store = makeStore()
        let rects = store.worldRects(in: store.worldTransforms(), options: .default)
        try! store.addLayer()
        print(store.clipRects(worldRects: rects, options: .default).count)
    },
]

let arguments = CommandLine.arguments.dropFirst()
guard let name = arguments.first, let body = cases[name] else {
    print("usage: misuse-messages CASE   (cases: \(cases.keys.sorted().joined(separator: ", ")))")
    exit(2)
}
body()
