// Status codes and the thread-local error message of the C interface (batchgeometry.h,
// "Status codes and errors"). Every entry point runs its body in `cCall`, which turns a
// thrown `CFailure`, `LayerStoreError` or `SceneError` into a status code and records the
// message for `bg_last_error_message()` on the calling thread.

import BatchGeometry
import CBatchGeometry

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Why a C call failed. Messages of mistakes the Swift API also reports are its messages,
/// word for word; the others (NULL pointers, sizes, enum values) name the C function.
enum CFailure: Error {
    /// A NULL pointer where one is needed: the parameter's name.
    case null(String)
    /// An argument outside its domain: what is wrong with it.
    case invalid(String)
    /// An output buffer too small: what it needed.
    case bufferTooSmall(String)
    /// A handle that names no live layer (stale, or another store's), with the message the
    /// Swift accessors stop with.
    case staleLayer(String)
    /// A thrown store error (its `description` is the message).
    case store(LayerStoreError)
    /// A malformed scene (its `description`, `<path>: <message>`, is the message).
    case scene(SceneError)
    /// An unusable `BATCHGEOMETRY_*` variable (`KernelOptions.environmentProblem`).
    case environment(String)

    /// The status code and the message, for the C function `function`.
    func report(in function: StaticString) -> (status: bg_status, message: String) {
        switch self {
        case .null(let name): return (Status.nullArgument, "\(function): \(name) is NULL")
        case .invalid(let text): return (Status.invalidArgument, "\(function): \(text)")
        case .bufferTooSmall(let text): return (Status.bufferTooSmall, "\(function): \(text)")
        case .staleLayer(let message): return (Status.staleLayer, message)
        case .store(let error): return (Status.of(error), error.description)
        case .scene(let error): return (Status.scene, error.description)
        case .environment(let problem): return (Status.environment, problem)
        }
    }
}

/// The status codes of batchgeometry.h, read from the header so the two cannot disagree.
enum Status {
    static let ok = bg_status(BG_OK)
    static let nullArgument = bg_status(BG_ERROR_NULL_ARGUMENT)
    static let invalidArgument = bg_status(BG_ERROR_INVALID_ARGUMENT)
    static let bufferTooSmall = bg_status(BG_ERROR_BUFFER_TOO_SMALL)
    static let staleLayer = bg_status(BG_ERROR_STALE_LAYER)
    static let staleSuperlayer = bg_status(BG_ERROR_STALE_SUPERLAYER)
    static let cycle = bg_status(BG_ERROR_CYCLE)
    static let sublayerIndexOutOfRange = bg_status(BG_ERROR_SUBLAYER_INDEX_OUT_OF_RANGE)
    static let notAScrollView = bg_status(BG_ERROR_NOT_A_SCROLL_VIEW)
    static let tooManyLayers = bg_status(BG_ERROR_TOO_MANY_LAYERS)
    static let invalidDisplayScale = bg_status(BG_ERROR_INVALID_DISPLAY_SCALE)
    static let scene = bg_status(BG_ERROR_SCENE)
    static let environment = bg_status(BG_ERROR_ENVIRONMENT)

    /// The code of each `LayerStoreError` case (no `default`: a new case must be mapped).
    static func of(_ error: LayerStoreError) -> bg_status {
        switch error {
        case .staleLayer: return staleLayer
        case .staleSuperlayer: return staleSuperlayer
        // Another store's handle is one this store has no live layer for: the same codes
        // (the ABI rule adds no status to existing functions); the message says which.
        case .foreignLayer: return staleLayer
        case .foreignSuperlayer: return staleSuperlayer
        case .cycle: return cycle
        case .sublayerIndexOutOfRange: return sublayerIndexOutOfRange
        case .notAScrollView: return notAScrollView
        case .tooManyLayers: return tooManyLayers
        case .invalidDisplayScale: return invalidDisplayScale
        }
    }

    /// Each code's name, as `bg_status_name` returns it (index = code).
    static let names = [
        "BG_OK", "BG_ERROR_NULL_ARGUMENT", "BG_ERROR_INVALID_ARGUMENT", "BG_ERROR_BUFFER_TOO_SMALL",
        "BG_ERROR_STALE_LAYER", "BG_ERROR_STALE_SUPERLAYER", "BG_ERROR_CYCLE", "BG_ERROR_SUBLAYER_INDEX_OUT_OF_RANGE",
        "BG_ERROR_NOT_A_SCROLL_VIEW", "BG_ERROR_TOO_MANY_LAYERS", "BG_ERROR_INVALID_DISPLAY_SCALE", "BG_ERROR_SCENE",
        "BG_ERROR_ENVIRONMENT",
    ]
}

/// Runs the body of the C function `function`: `BG_OK` when it returns, else the failure's
/// status, with its message recorded for this thread. Nothing it catches escapes. In
/// debug builds it then gives back the store the body took (DebugChecks.swift).
///
/// The body's errors stay untyped: a body mixes the helpers' `CFailure`s with the
/// store's `LayerStoreError`s and the scene's `SceneError`s, and Swift 6 does not infer a
/// closure's thrown type from its context, so `throws(CFailure)` here would need a
/// `() throws(CFailure) in` and a conversion at each of the entry points. The helpers
/// (`required`, `bufferCount`, `CStore.from`, `live`, ...) throw `CFailure` only.
@inline(__always)
func cCall(_ function: StaticString, _ body: () throws -> Void) -> bg_status {
    #if DEBUG
    defer { StoreOwnership.leave() }
    #endif
    do {
        try body()
        return Status.ok
    } catch {
        return fail(error, in: function)
    }
}

/// The status of a thrown error, its message recorded (out of line: the error path).
@inline(never)
func fail(_ error: Error, in function: StaticString) -> bg_status {
    let failure: CFailure
    switch error {
    case let error as CFailure: failure = error
    case let error as LayerStoreError: failure = .store(error)
    case let error as SceneError: failure = .scene(error)
    default: failure = .invalid("\(error)")
    }
    let (status, message) = failure.report(in: function)
    ErrorMessage.record(message)
    return status
}

/// The last error message of each thread, in a buffer of `capacity` bytes the thread keeps
/// until it ends (made by its first failure or its first `bg_last_error_message()`, freed
/// by the pthread key's destructor). Each failure overwrites it in place, so the pointer
/// `bg_last_error_message()` returns stays valid, and reads the latest message, as long as
/// the thread lives: `printf("%s: %s", bg_status_name(f()), bg_last_error_message())` is
/// safe whichever argument C evaluates first.
enum ErrorMessage {
    /// The buffer's size: longer messages are cut at a character boundary and end in "...".
    static let capacity = 4096

    /// Nil only if the process has no pthread key left; messages are then not kept.
    private static let key: pthread_key_t? = {
        var key = pthread_key_t()
        return pthread_key_create(&key, { free($0) }) == 0 ? key : nil
    }()

    /// "" as a C string, for a thread that has no buffer (no key or no memory left).
    /// Immortal (never changed or freed), so any thread may read it.
    nonisolated(unsafe) static let empty = CString.make("")

    /// This thread's buffer, made ("") on first use; nil without a key or memory.
    private static func buffer() -> UnsafeMutablePointer<CChar>? {
        guard let key else { return nil }
        if let buffer = pthread_getspecific(key) { return buffer.assumingMemoryBound(to: CChar.self) }
        guard let buffer = calloc(capacity, 1) else { return nil }
        guard pthread_setspecific(key, buffer) == 0 else {
            free(buffer)
            return nil
        }
        return buffer.assumingMemoryBound(to: CChar.self)
    }

    /// Makes `message` this thread's last error message.
    static func record(_ message: String) {
        guard let buffer = buffer() else { return }
        var bytes = Array(message.utf8)
        if bytes.count >= capacity {
            var end = capacity - 4
            while end > 0 && bytes[end] & 0xC0 == 0x80 { end -= 1 }  // not inside a character
            bytes = Array(bytes[..<end]) + Array("...".utf8)
        }
        for (k, byte) in bytes.enumerated() { buffer[k] = CChar(bitPattern: byte) }
        buffer[bytes.count] = 0
    }

    /// This thread's last error message, or "".
    static var current: UnsafePointer<CChar> {
        buffer().map { UnsafePointer($0) } ?? empty
    }
}

/// C strings that live as long as the process (static strings of the interface).
enum CString {
    /// A NUL-terminated copy of `text` that is never freed.
    static func make(_ text: String) -> UnsafePointer<CChar> {
        UnsafePointer(strdup(text)!)
    }
}
