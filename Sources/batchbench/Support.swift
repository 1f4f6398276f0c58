// Process plumbing shared by the subcommands, without Foundation.

// `@preconcurrency`: the C library declares stdin, stdout and stderr as mutable globals,
// which Swift 6 cannot prove safe; nothing in this process ever reassigns them.
#if canImport(Glibc)
@preconcurrency import Glibc
#elseif canImport(Musl)
@preconcurrency import Musl
#elseif canImport(Darwin)
@preconcurrency import Darwin
#endif

/// Writes a line to standard error.
func printError(_ message: String) {
    var line = message
    line.append("\n")
    _ = line.withCString { fputs($0, stderr) }
}

/// Writes text to standard output without a trailing newline, unbuffered-safe.
func writeStandardOutput(_ text: String) {
    _ = text.withCString { fputs($0, stdout) }
    fflush(stdout)
}

/// Writes text to standard output, buffered (call `flushStandardOutput()` at the end).
func writeStandardOutputPiece(_ text: String) {
    var text = text
    text.withUTF8 { bytes in _ = fwrite(bytes.baseAddress, 1, bytes.count, stdout) }
}

func flushStandardOutput() {
    fflush(stdout)
}

func exitProcess(_ status: Int32) -> Never {
    fflush(stdout)
    exit(status)
}

/// The whole content of a file, or of standard input for "-", as bytes; or a message
/// saying why it could not be read (with the system's reason).
func readAllBytes(path: String) -> Result<[UInt8], FileReadError> {
    let file: UnsafeMutablePointer<FILE>?
    if path == "-" {
        file = stdin
    } else {
        file = fopen(path, "rb")
    }
    guard let file else { return .failure(FileReadError(message: "cannot open: \(systemErrorText())")) }
    defer { if path != "-" { fclose(file) } }
    var bytes: [UInt8] = []
    // A regular file's size is known: read it into one exactly sized buffer (no
    // doubling growth, which would cost up to twice a 100 MB scene).
    if path != "-", fseek(file, 0, SEEK_END) == 0 {
        // A directory reports a nonsense size (LONG_MAX): only plausible sizes count.
        let size = ftell(file)
        if size > 0, size < 1 << 40, fseek(file, 0, SEEK_SET) == 0 {
            bytes.reserveCapacity(size + 1)
        } else {
            rewind(file)
        }
    }
    var chunk = [UInt8](repeating: 0, count: 1 << 20)
    while true {
        let read = chunk.withUnsafeMutableBytes { fread($0.baseAddress, 1, $0.count, file) }
        if read > 0 { bytes.append(contentsOf: chunk[0..<read]) }
        if read < chunk.count {
            if ferror(file) != 0 { return .failure(FileReadError(message: "cannot read: \(systemErrorText())")) }
            break
        }
    }
    return .success(bytes)
}

struct FileReadError: Error {
    var message: String
}

private func systemErrorText() -> String {
    guard let text = strerror(errno) else { return "error \(errno)" }
    return String(cString: text)
}

/// The process's resident memory in bytes: /proc/self/statm's second field (resident
/// pages) times the page size; nil where there is no /proc (not Linux).
func residentBytes() -> Int? {
    guard let file = fopen("/proc/self/statm", "r") else { return nil }
    defer { fclose(file) }
    var buffer = [CChar](repeating: 0, count: 256)
    let line: String? = buffer.withUnsafeMutableBufferPointer { bytes in
        guard fgets(bytes.baseAddress, Int32(bytes.count), file) != nil else { return nil }
        return String(cString: bytes.baseAddress!)
    }
    let fields = line?.split(separator: " ") ?? []
    guard fields.count > 1, let pages = Int(fields[1]) else { return nil }
    return pages * Int(getpagesize())
}
