// What the C interface (Sources/BatchGeometryC) needs of the store beyond the public API,
// as SPI, so that it calls the store's own logic instead of copying it.

extension LayerStore {
    /// Why `layer` names no live layer: the message the accessors stop with
    /// (`staleHandleMessage(_:)`), for `BG_ERROR_STALE_LAYER`. O(1).
    @_spi(CInterface) public func staleHandleDescription(_ layer: LayerHandle) -> String {
        staleHandleMessage(layer)
    }
}
