import Foundation

/// Checks that `host:port` can be bound before the data folder is touched, so a port already
/// in use is reported before any key is written. The real bind follows at once; another
/// process could still take the port in between, and that bind failure is reported the same way.
public enum PortProbe {
    /// nil when the port can be bound, else why not.
    public static func problem(host: String, port: Int) -> String? {
        guard port != 0 else { return nil }
        var hints = addrinfo()
        hints.ai_flags = AI_PASSIVE
        hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        var list: UnsafeMutablePointer<addrinfo>?
        let lookup = getaddrinfo(host, String(port), &hints, &list)
        guard lookup == 0, let first = list else {
            return "the address \(host) cannot be resolved (\(String(cString: gai_strerror(lookup))))"
        }
        defer { freeaddrinfo(list) }
        let fd = socket(first.pointee.ai_family, first.pointee.ai_socktype, first.pointee.ai_protocol)
        guard fd >= 0 else { return String(cString: strerror(errno)) }
        defer { close(fd) }
        // As the server's own bind does, so a port in TIME_WAIT is not refused here.
        var on: Int32 = 1
        setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &on, socklen_t(MemoryLayout<Int32>.size))
        guard bind(fd, first.pointee.ai_addr, first.pointee.ai_addrlen) == 0 else {
            return String(cString: strerror(errno))
        }
        return nil
    }
}
