@_spi(Testing) import BatchGeometry
import Foundation

/// The machine a report was measured on.
struct MachineInfo: Codable {
    /// The CPU model, from /proc/cpuinfo ("model name", or "Hardware"/"CPU part" on ARM).
    var cpu: String
    /// Processors available to the process.
    var cores: Int
    /// The C backend's instruction set on this machine (`KernelOptions.cInstructionSet`).
    var cBackend: String
    var os: String
    /// The architecture batchbench was compiled for.
    var architecture: String

    static func current() -> MachineInfo {
        MachineInfo(
            cpu: cpuModel(), cores: activeProcessorCount, cBackend: KernelOptions.cInstructionSet,
            os: operatingSystem(), architecture: architecture)
    }

    private static func cpuModel() -> String {
        guard let text = try? String(contentsOfFile: "/proc/cpuinfo", encoding: .utf8) else {
            #if os(macOS)
            return sysctlString("machdep.cpu.brand_string") ?? "unknown"
            #else
            return "unknown"
            #endif
        }
        for key in ["model name", "Hardware", "Model", "cpu model", "CPU part"] {
            for line in text.split(separator: "\n") where line.hasPrefix(key) {
                if let colon = line.firstIndex(of: ":") {
                    let value = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
                    if !value.isEmpty { return value }
                }
            }
        }
        return "unknown"
    }

    #if os(macOS)
    private static func sysctlString(_ name: String) -> String? {
        var size = 0
        guard sysctlbyname(name, nil, &size, nil, 0) == 0, size > 0 else { return nil }
        var buffer = [CChar](repeating: 0, count: size)
        guard sysctlbyname(name, &buffer, &size, nil, 0) == 0 else { return nil }
        return String(cString: buffer)
    }
    #endif

    private static func operatingSystem() -> String {
        #if os(Linux)
        return "Linux"
        #elseif os(macOS)
        return "macOS"
        #else
        return "other"
        #endif
    }

    private static var architecture: String {
        #if arch(x86_64)
        return "x86_64"
        #elseif arch(arm64)
        return "arm64"
        #else
        return "other"
        #endif
    }
}
