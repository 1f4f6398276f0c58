import BatchGeometry

/// A store a test built and the handles it made: a tuple cannot hold a noncopyable
/// `LayerStore`, so fixtures return this and callers take its parts apart.
struct Fixture<Handles>: ~Copyable {
    var store: LayerStore
    let handles: Handles
}
