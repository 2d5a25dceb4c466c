import Foundation

/// A socket bound to a kernel-picked port on 127.0.0.1 that the test holds open, so that no
/// other test's server can take that port meanwhile.
public struct LoopbackSocket {
    public let fd: Int32
    public let port: Int

    /// Bound and, with `backlog`, listening (it accepts connections into the backlog and never
    /// answers them); without, connections to it are refused. Nil when the kernel refuses.
    public init?(listeningWithBacklog backlog: Int32? = nil) {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { return nil }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let ready = withUnsafeMutablePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { raw in
                bind(fd, raw, length) == 0 && (backlog.map { listen(fd, $0) == 0 } ?? true) && getsockname(fd, raw, &length) == 0
            }
        }
        guard ready else {
            _ = Glibc.close(fd)
            return nil
        }
        self.fd = fd
        port = Int(UInt16(bigEndian: address.sin_port))
    }

    public func close() { _ = Glibc.close(fd) }
}
