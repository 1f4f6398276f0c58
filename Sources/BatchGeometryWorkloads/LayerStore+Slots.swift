import BatchGeometry

extension LayerStore {
    /// The handle of the live layer in slot `index`. Workload stores are built without
    /// destroying layers, so workload layer i is slot i; a free slot is a bug in the
    /// caller and stops the program. O(1). Always inlined, with `handle(at:)`: a call
    /// out of line on an `inout` store would be passed a copy of the whole store.
    @inline(__always)
    package func layer(_ index: Int) -> LayerHandle {
        guard let handle = handle(at: index) else { fatalError("slot \(index) holds no live layer") }
        return handle
    }
}
