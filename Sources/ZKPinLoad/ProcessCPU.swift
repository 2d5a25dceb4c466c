import Foundation
import ZKPinClient

/// The CPU time (user + system) a process has used so far, from Linux's /proc/PID/stat: how
/// `zkpin load --server-pid` tells what one login costs a server on the same machine.
enum ProcessCPU {
    /// Seconds, or nil when the process is gone or /proc cannot be read (not Linux).
    static func seconds(pid: Int32) -> Double? {
        guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
            let close = stat.lastIndex(of: ")")
        else { return nil }
        // Fields after "(comm)": state is field 3; utime and stime are fields 14 and 15.
        let fields = stat[stat.index(after: close)...].split(separator: " ")
        guard fields.count > 13, let user = Double(fields[11]), let system = Double(fields[12]) else { return nil }
        let ticks = Double(sysconf(Int32(_SC_CLK_TCK)))
        return (user + system) / (ticks > 0 ? ticks : 100)
    }
}
