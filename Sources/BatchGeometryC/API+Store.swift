// batchgeometry.h: version, errors, stores, options, display scale. Each function is
// the C symbol its `@_cdecl` names; the header documents the contract
// (ownership, errors, complexity), and SignatureCheck.swift proves the types match it.

import BatchGeometry
import CBatchGeometry

/// `bg_version`: the library version, `major << 16 | minor << 8 | patch`.
@_cdecl("bg_version")
public func bgVersion() -> UInt32 {
    UInt32(BG_VERSION_MAJOR) << 16 | UInt32(BG_VERSION_MINOR) << 8 | UInt32(BG_VERSION_PATCH)
}

/// `bg_abi_version`: the binary interface version (the header's ABI rule).
@_cdecl("bg_abi_version")
public func bgABIVersion() -> UInt32 {
    UInt32(BG_ABI_VERSION)
}

/// `bg_last_error_message`: this thread's last error message, or "".
@_cdecl("bg_last_error_message")
public func bgLastErrorMessage() -> UnsafePointer<CChar>? {
    ErrorMessage.current
}

// Immortal C strings, written once when first used and never changed or freed: safe to
// read from any thread, which the compiler cannot see through a pointer type.
nonisolated(unsafe) private let statusNames = Status.names.map { CString.make($0) }
nonisolated(unsafe) private let unknownStatusName = CString.make("BG_UNKNOWN_STATUS")

/// `bg_status_name`: the name of a status code.
@_cdecl("bg_status_name")
public func bgStatusName(_ status: Int32) -> UnsafePointer<CChar>? {
    status >= 0 && Int(status) < statusNames.count ? statusNames[Int(status)] : unknownStatusName
}

/// `bg_store_create`: an empty store with the process's default options.
@_cdecl("bg_store_create")
public func bgStoreCreate(_ capacity: Int, _ out: UnsafeMutablePointer<OpaquePointer?>?) -> Int32 {
    cCall("bg_store_create") {
        let out = try required(out, "out")
        let capacity = try layerCapacity(capacity)
        let options = try processDefaultOptions()
        out.pointee = CStore.make(LayerStore(minimumCapacity: capacity), options: options)
    }
}

/// `bg_store_copy`: a new store with the same layers and options (`LayerStore.copy()`, O(n)).
@_cdecl("bg_store_copy")
public func bgStoreCopy(_ store: OpaquePointer?, _ out: UnsafeMutablePointer<OpaquePointer?>?) -> Int32 {
    cCall("bg_store_copy") {
        let box = try CStore.from(store)
        let out = try required(out, "out")
        out.pointee = CStore.make(box.store.copy(), options: box.options)
    }
}

/// `bg_store_destroy`: frees a store (NULL: nothing). Debug builds empty it and keep it,
/// marked, to report later uses (`StoreOwnership.retire`).
@_cdecl("bg_store_destroy")
public func bgStoreDestroy(_ store: OpaquePointer?) {
    guard let store else { return }
    #if DEBUG
    StoreOwnership.retire(store)
    #else
    Unmanaged<CStore>.fromOpaque(UnsafeRawPointer(store)).release()
    #endif
}

/// `bg_store_reserve`: room for `capacity` layers in every column.
@_cdecl("bg_store_reserve")
public func bgStoreReserve(_ store: OpaquePointer?, _ capacity: Int) -> Int32 {
    cCall("bg_store_reserve") {
        let box = try CStore.from(store)
        let capacity = try layerCapacity(capacity)
        box.mutate { $0.reserveCapacity(capacity) }
    }
}

/// `bg_store_slot_count`: live layers plus free slots.
@_cdecl("bg_store_slot_count")
public func bgStoreSlotCount(_ store: OpaquePointer?, _ out: UnsafeMutablePointer<Int>?) -> Int32 {
    cCall("bg_store_slot_count") {
        let box = try CStore.from(store)
        try required(out, "out").pointee = box.store.count
    }
}

/// `bg_store_layer_count`: live layers.
@_cdecl("bg_store_layer_count")
public func bgStoreLayerCount(_ store: OpaquePointer?, _ out: UnsafeMutablePointer<Int>?) -> Int32 {
    cCall("bg_store_layer_count") {
        let box = try CStore.from(store)
        try required(out, "out").pointee = box.store.layerCount
    }
}

/// `bg_store_contains`: whether a handle names a live layer.
@_cdecl("bg_store_contains")
public func bgStoreContains(_ store: OpaquePointer?, _ layer: UInt64, _ out: UnsafeMutablePointer<Bool>?) -> Int32 {
    cCall("bg_store_contains") {
        let box = try CStore.from(store)
        try required(out, "out").pointee = box.store.contains(LayerHandle(rawValue: layer))
    }
}

/// `bg_store_handle_at`: the live layer in a slot, or `BG_LAYER_NONE`.
@_cdecl("bg_store_handle_at")
public func bgStoreHandleAt(_ store: OpaquePointer?, _ slot: Int, _ out: UnsafeMutablePointer<UInt64>?) -> Int32 {
    cCall("bg_store_handle_at") {
        let box = try CStore.from(store)
        try required(out, "out").pointee = box.store.handle(at: sizeArgument(slot))?.rawValue ?? noLayer
    }
}

/// `bg_store_set_options`: backend and threads of the store's batch calls.
@_cdecl("bg_store_set_options")
public func bgStoreSetOptions(_ store: OpaquePointer?, _ backend: Int32, _ threads: Int32) -> Int32 {
    cCall("bg_store_set_options") {
        let box = try CStore.from(store)
        box.options = try kernelOptions(backend: backend, threads: threads)
    }
}

/// `bg_store_get_options`: the resolved backend and thread count.
@_cdecl("bg_store_get_options")
public func bgStoreGetOptions(
    _ store: OpaquePointer?, _ backend: UnsafeMutablePointer<Int32>?, _ threads: UnsafeMutablePointer<Int32>?
) -> Int32 {
    cCall("bg_store_get_options") {
        let box = try CStore.from(store)
        backend?.pointee = backendConstant(box.options.backend)
        threads?.pointee = Int32(clamping: box.options.threads)
    }
}

// Immortal, like the status names above.
nonisolated(unsafe) private let instructionSet = CString.make(KernelOptions.cInstructionSet)

/// `bg_c_instruction_set`: the C backend's instruction set on this machine.
@_cdecl("bg_c_instruction_set")
public func bgCInstructionSet() -> UnsafePointer<CChar>? {
    instructionSet
}

/// `bg_store_get_display_scale`: points to pixels.
@_cdecl("bg_store_get_display_scale")
public func bgStoreGetDisplayScale(_ store: OpaquePointer?, _ out: UnsafeMutablePointer<Double>?) -> Int32 {
    cCall("bg_store_get_display_scale") {
        let box = try CStore.from(store)
        try required(out, "out").pointee = box.store.displayScale
    }
}

/// `bg_store_set_display_scale`: `setDisplayScale(_:)`.
@_cdecl("bg_store_set_display_scale")
public func bgStoreSetDisplayScale(_ store: OpaquePointer?, _ scale: Double) -> Int32 {
    cCall("bg_store_set_display_scale") {
        let box = try CStore.from(store)
        try box.mutate { try $0.setDisplayScale(scale) }
    }
}
