import Foundation

/// A plain TCP connection to 127.0.0.1, for what an HTTP client library will not do: hold a
/// connection idle, send half a request, count what the server does with thousands of them.
final class RawSocket: @unchecked Sendable {
    let fd: Int32

    /// `source`: another loopback address to connect from (127.0.0.2, ...), so that one test
    /// can be several hosts.
    init(port: Int, source: String? = nil) throws {
        fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw Failure("socket: \(String(cString: strerror(errno)))") }
        if let source {
            var local = sockaddr_in()
            local.sin_family = sa_family_t(AF_INET)
            local.sin_addr.s_addr = inet_addr(source)
            let bound = withUnsafePointer(to: &local) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
            }
            guard bound == 0 else {
                let reason = String(cString: strerror(errno))
                close(fd)
                throw Failure("bind \(source): \(reason)")
            }
        }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard connected == 0 else {
            let reason = String(cString: strerror(errno))
            close(fd)
            throw Failure("connect: \(reason)")
        }
    }

    deinit { close(fd) }

    func send(_ text: String) {
        _ = text.withCString { Glibc.send(fd, $0, strlen($0), Int32(MSG_NOSIGNAL)) }
    }

    /// The waits below poll a socket, which blocks: they run on a thread of their own, since
    /// Swift's cooperative threads (as many as cores) also run the in-process server under test
    /// and would starve it while other tests run in parallel.
    func onOwnThread<T: Sendable>(_ body: @escaping @Sendable () -> T) async -> T {
        await withCheckedContinuation { continuation in
            Thread { continuation.resume(returning: body()) }.start()
        }
    }

    /// What the server sends until it contains `marker` (or closes, or `seconds` pass).
    func read(until marker: String, seconds: Double) async -> String {
        await onOwnThread { self.readBlocking(until: marker, seconds: seconds) }
    }

    /// Everything the server sends until it closes the connection or `seconds` pass; and
    /// whether it closed.
    func readUntilClosed(seconds: Double) async -> (text: String, closed: Bool) {
        await onOwnThread { self.readUntilClosedBlocking(seconds: seconds) }
    }

    private func readBlocking(until marker: String, seconds: Double) -> String {
        var out = [UInt8]()
        let deadline = Date().addingTimeInterval(seconds)
        while Date() < deadline, !String(decoding: out, as: UTF8.self).contains(marker) {
            var poller = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            guard poll(&poller, 1, 200) > 0 else { continue }
            var buffer = [UInt8](repeating: 0, count: 4096)
            let n = recv(fd, &buffer, buffer.count, 0)
            if n <= 0 { break }
            out += buffer[0..<n]
        }
        return String(decoding: out, as: UTF8.self)
    }

    private func readUntilClosedBlocking(seconds: Double) -> (text: String, closed: Bool) {
        var out = [UInt8]()
        let deadline = Date().addingTimeInterval(seconds)
        while Date() < deadline {
            var poller = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            let ready = poll(&poller, 1, 200)
            guard ready > 0 else { continue }
            var buffer = [UInt8](repeating: 0, count: 4096)
            let n = recv(fd, &buffer, buffer.count, 0)
            if n <= 0 { return (String(decoding: out, as: UTF8.self), true) }
            out += buffer[0..<n]
        }
        return (String(decoding: out, as: UTF8.self), false)
    }

    struct Failure: Error, CustomStringConvertible {
        var description: String
        init(_ description: String) { self.description = description }
    }
}

/// Requests as if they came from `address` through a trusted proxy (the server must be
/// started with `trustedProxy = "127.0.0.1"`).
struct FromAddress: Transport {
    let inner: any Transport
    let address: String
    func send(_ method: String, _ path: String, headers: [(String, String)], body: [UInt8]?) async throws -> Reply {
        try await inner.send(method, path, headers: headers + [("X-Forwarded-For", address)], body: body)
    }
}
