// Process plumbing shared by the subcommands, without Foundation.

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
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

func exitProcess(_ status: Int32) -> Never {
    fflush(stdout)
    exit(status)
}
