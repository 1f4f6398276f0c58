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

/// A store and the handles `makeStore` made (a tuple cannot hold a noncopyable store).
struct Fixture<Handles>: ~Copyable {
    var store: LayerStore
    let handles: Handles
}

/// A window with two cards; `layers` are their handles (window, card, card).
func makeStore() -> Fixture<[LayerHandle]> {
    var store = LayerStore()
    let window = try! store.addLayer()
    store.setBounds(Rect(x: 0, y: 0, width: 375, height: 812), of: window)
    var layers = [window]
    for _ in 0..<2 {
        let card = try! store.addLayer(superlayer: window)
        store.setBounds(Rect(x: 0, y: 0, width: 100, height: 100), of: card)
        store.setPosition(Point(x: 100, y: 100), of: card)
        layers.append(card)
    }
    return Fixture(store: store, handles: layers)
}

/// `makeStore`'s store without its handles.
func makeStoreAlone() -> LayerStore {
    let fixture = makeStore()
    return fixture.store
}

let cases: [String: () -> Void] = [
    "stale-world-after-add": {
        let storeFixture = makeStore()
        let layers = storeFixture.handles
        var store = storeFixture.store
        let world = store.updateWorld()
        try! store.addLayer(superlayer: layers[0])
        print(store.hitTest(Point(x: 100, y: 100), in: world) as Any)
    },
    "stale-world-after-remove": {
        let storeFixture = makeStore()
        let layers = storeFixture.handles
        var store = storeFixture.store
        let world = store.updateWorld()
        try! store.destroyLayer(layers[1])
        print(store.worldRect(of: layers[2], in: world))
    },
    "stale-world-after-move": {
        let storeFixture = makeStore()
        let layers = storeFixture.handles
        var store = storeFixture.store
        let world = store.worldTransforms()
        try! store.insertSublayer(layers[2], into: layers[1])
        print(store.convert(Point(x: 0, y: 0), from: layers[2], to: nil, in: world) as Any)
    },
    "stale-world-after-detach": {
        let storeFixture = makeStore()
        let layers = storeFixture.handles
        var store = storeFixture.store
        let world = store.updateWorld()
        try! store.removeFromSuperlayer(layers[1])
        print(store.hitTest(Point(x: 100, y: 100), in: world) as Any)
    },
    "world-from-another-store": {
        var store = makeStoreAlone()
        let other = makeStoreAlone()  // the same shape, but another store
        print(store.hitTest(points: [Point(x: 1, y: 1)], in: other.worldTransforms()))
        _ = store.updateWorld()
    },
    "handle-out-of-range": {
        let store = makeStoreAlone()
        var grown = store.copy()  // a copy takes the store's handles, and gives its own back
        let extra = try! grown.addLayer()  // slot 3, which the store does not have
        print(store.bounds(of: extra))
    },
    "another-stores-handle-read": {
        let store = makeStoreAlone()
        let other = makeStore()  // the same shape, so the same slots and generations
        print(store.bounds(of: other.handles[1]))
    },
    "another-stores-handle-written": {
        var store = makeStoreAlone()
        let other = makeStore()
        store.setPosition(Point(x: 1, y: 2), of: other.handles[2])
        print(store.position(of: store.handle(at: 2)!))
    },
    "destroyed-layer-read": {
        let storeFixture = makeStore()
        let layers = storeFixture.handles
        var store = storeFixture.store
        try! store.destroyLayer(layers[1])
        print(store.bounds(of: layers[1]))
    },
    "destroyed-layer-written-after-reuse": {
        let storeFixture = makeStore()
        let layers = storeFixture.handles
        var store = storeFixture.store
        try! store.destroyLayer(layers[1])
        let newcomer = try! store.addLayer()  // takes the freed slot, under a new generation
        store.setPosition(Point(x: 1, y: 2), of: layers[1])
        print(store.position(of: newcomer))
    },
    "destroyed-subtree-read": {
        let storeFixture = makeStore()
        let layers = storeFixture.handles
        var store = storeFixture.store
        try! store.destroyLayer(layers[0])
        print(store.superlayer(of: layers[2]) as Any)
    },
    "world-layer-out-of-range": {
        let store = makeStoreAlone()
        print(store.worldTransforms()[9])
    },
    "stale-world-rects": {
        var store = makeStoreAlone()
        let rects = store.worldRects(in: store.worldTransforms(), options: .default)
        try! store.addLayer()
        print(store.clipRects(worldRects: rects, options: .default).count)
    },
    "flag-property-not-zero-or-one": {
        let storeFixture = makeStore()
        let layers = storeFixture.handles
        var store = storeFixture.store
        store.setValue(0.5, of: .userInteractionEnabled, for: layers[1])
        print(store.isUserInteractionEnabled(layers[1]))
    },
    "c-kernel-environment": {
        // Options that never read KernelOptions.default: choosing the C backend checks it.
        setenv("BATCHGEOMETRY_C_KERNEL", "avx9", 1)
        let store = makeStoreAlone()
        print(store.frames(options: .serial(.c)).count)
    },
    "animation-c-kernel-environment": {
        // The sampler solves timing functions with the C kernels: its first sample checks it.
        setenv("BATCHGEOMETRY_C_KERNEL", "avx9", 1)
        let storeFixture = makeStore()
        var animations = AnimationStore()
        let animation = Animation(
            keyPath: .opacity, content: .basic(from: [0], to: [1], by: nil), timingFunction: TimingFunction(.easeIn))
        try! animations.add(animation, to: storeFixture.handles[1], in: storeFixture.store)
        var values = PresentationValues()
        try! animations.sample(at: 0.5, model: storeFixture.store, into: &values)
        print(values.count)
    },
    "timing-function-count-mismatch": {
        var values: [Float] = []
        TimingFunction.values(of: [TimingFunction(.easeIn)], at: [0.1, 0.2], into: &values)
        print(values)
    },
    "spring-count-mismatch": {
        var values: [Float] = []
        Spring.progress(of: [Spring(), Spring()], at: [0.1], into: &values)
        print(values)
    },
]

let arguments = CommandLine.arguments.dropFirst()
guard let name = arguments.first, let body = cases[name] else {
    print("usage: misuse-messages CASE   (cases: \(cases.keys.sorted().joined(separator: ", ")))")
    exit(2)
}
body()
