// Debug builds of the C interface only (batchgeometry.h, "Threads"): a store used by two
// threads' calls at once, used after bg_store_destroy or destroyed twice gets a status and
// a message instead of undefined behaviour. Each store has a mutex that a call takes in
// `CStore.from` (try-lock: a call that finds it taken by another thread fails at once,
// touching nothing) and `cCall` gives back; a destroyed store is emptied but kept, marked,
// so that a later call can say so. Release builds compile none of this and pay nothing.

#if DEBUG
#if canImport(Glibc)
@preconcurrency import Glibc  // stderr is a mutable global to Swift 6, never reassigned
#elseif canImport(Musl)
@preconcurrency import Musl
#elseif canImport(Darwin)
@preconcurrency import Darwin
#endif

/// The store the calling thread's current C call holds (every function takes one store).
enum StoreOwnership {
    /// Nil only if the process has no pthread key left; nothing is checked then.
    private static let key: pthread_key_t? = {
        var key = pthread_key_t()
        return pthread_key_create(&key, nil) == 0 ? key : nil
    }()

    /// Takes `box` (behind `pointer`) for the current call: `.invalid` when it was
    /// destroyed, or when another thread's call holds it.
    static func enter(_ box: CStore, _ pointer: OpaquePointer) throws(CFailure) {
        if box.destroyed {
            throw CFailure.invalid("store \(pointer) was destroyed by bg_store_destroy (a debug-build check)")
        }
        guard let key else { return }
        let held = pthread_getspecific(key)
        if held == UnsafeMutableRawPointer(pointer) { return }  // this call took it already
        guard held == nil, pthread_mutex_trylock(box.lock) == 0 else {
            throw CFailure.invalid(
                "store \(pointer) is in use by a call on another thread: a store is used from one thread at a "
                    + "time (a debug-build check)")
        }
        pthread_setspecific(key, UnsafeRawPointer(pointer))
    }

    /// Ends the calling thread's current call: gives back the store it took, if any.
    static func leave() {
        guard let key, let held = pthread_getspecific(key) else { return }
        pthread_mutex_unlock(Unmanaged<CStore>.fromOpaque(held).takeUnretainedValue().lock)
        pthread_setspecific(key, nil)
    }

    /// `bg_store_destroy` in a debug build: empties the store and marks it destroyed,
    /// keeping the object (a few hundred bytes) so that later calls are reported. A
    /// second destroy, or one while another thread's call holds the store, is reported
    /// (last error message and standard error) and does nothing.
    static func retire(_ pointer: OpaquePointer) {
        let box = Unmanaged<CStore>.fromOpaque(UnsafeRawPointer(pointer)).takeUnretainedValue()
        var problem = "store \(pointer) was already destroyed (a debug-build check)"
        if !box.destroyed {
            do {
                try enter(box, pointer)
                defer { leave() }
                box.discardContents()
                box.destroyed = true
                return
            } catch CFailure.invalid(let text) {
                problem = text
            } catch {
                problem = "\(error)"
            }
        }
        let message = "bg_store_destroy: \(problem)"
        ErrorMessage.record(message)
        fputs("batchgeometry: \(message)\n", stderr)
    }
}
#endif
