// `batchbench render`: the command itself is RenderCommand in BatchGeometryPictures;
// this gives it the process's files, standard output and standard error.

import BatchGeometryPictures

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

extension RenderCommand.IO {
    /// Files through the C library; a partly written output file is removed.
    /// (Computed, not stored: a stored global of closures is shared mutable state to Swift 6.)
    static var process: RenderCommand.IO {
        RenderCommand.IO(
            read: { path in readAllBytes(path: path).mapError { RenderIOError(message: $0.message) } },
            writeFile: writeWholeFile,
            writeOutput: { text in
                writeStandardOutputPiece(text)
                flushStandardOutput()
            },
            writeError: printError)
    }
}

/// Writes `text` to `path` (created or truncated); on failure removes what was written
/// and says why.
private func writeWholeFile(_ path: String, _ text: String) -> RenderIOError? {
    guard let file = fopen(path, "wb") else {
        return RenderIOError(message: "cannot create: \(String(cString: strerror(errno)))")
    }
    var text = text
    let written = text.withUTF8 { bytes in fwrite(bytes.baseAddress, 1, bytes.count, file) }
    let closed = fclose(file) == 0
    guard written == text.utf8.count && closed else {
        let reason = String(cString: strerror(errno))
        remove(path)
        return RenderIOError(message: "cannot write: \(reason)")
    }
    return nil
}

/// The chart options of `show` and `run` (`--workload`, `--layers`, `--threads` pick the
/// results shown).
extension BenchReport {
    /// The report as the charts read it.
    var chartReport: ChartReport {
        ChartReport(
            build: build, date: date, machine: ChartReport.Machine(cpu: machine.cpu, cores: machine.cores),
            ceiling: ChartReport.Ceiling(
                measurements: ceiling.measurements.map {
                    ChartReport.CeilingMeasurement(
                        layers: $0.layers, threads: $0.threads, bytesPerLayer: $0.bytesPerLayer,
                        copyBytesPerSecond: $0.copyBytesPerSecond)
                }),
            results: results.map {
                ChartReport.Result(
                    workload: $0.workload, kernel: $0.kernel, backend: $0.backend, layers: $0.layers,
                    threads: $0.threads, layersPerSecond: $0.layersPerSecond, bytesPerLayer: $0.bytesPerLayer)
            })
    }
}
