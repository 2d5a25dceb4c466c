import Foundation

/// Ports for servers that tests start on 127.0.0.1.
public enum LoopbackPort {
    /// A port nobody listens on right now, picked at random below the kernel's ephemeral range
    /// (32768 and up): a kernel pick for port 0 is an ephemeral port, which another test's
    /// outgoing connection can take before the server binds it ("Address already in use").
    public static func free() -> Int? {
        for _ in 0..<200 {
            let port = Int.random(in: 20_000..<32_000)
            if canBind(port) { return port }
        }
        return nil
    }

    public static func canBind(_ port: Int) -> Bool {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { return false }
        defer { close(fd) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        let length = socklen_t(MemoryLayout<sockaddr_in>.size)
        return withUnsafePointer(to: &address) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, length) } } == 0
    }
}
