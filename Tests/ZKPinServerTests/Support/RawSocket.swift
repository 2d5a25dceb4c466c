import Foundation
import Synchronization

/// A plain TCP connection to 127.0.0.1, for what an HTTP client library will not do: hold a
/// connection idle, send half a request, count what the server does with thousands of them.
final class RawSocket: @unchecked Sendable {
    let fd: Int32

    /// Connects from the loopback address `source` (any of 127.0.0.0/8: one machine as several
    /// hosts); `receiveBuffer` shrinks the socket's receive buffer (a peer that reads slowly).
    init(port: Int, source: String? = nil, receiveBuffer: Int32? = nil) throws {
        fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw Failure("socket: \(String(cString: strerror(errno)))") }
        if var size = receiveBuffer {
            setsockopt(fd, SOL_SOCKET, SO_RCVBUF, &size, socklen_t(MemoryLayout<Int32>.size))
        }
        if let source {
            var local = sockaddr_in()
            local.sin_family = sa_family_t(AF_INET)
            local.sin_addr.s_addr = inet_addr(source)
            let bound = withUnsafePointer(to: &local) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
            }
            guard bound == 0 else {
                let reason = String(cString: strerror(errno))
                Glibc.close(fd)
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
            Glibc.close(fd)
            throw Failure("connect: \(reason)")
        }
    }

    private let closed = Mutex(false)

    deinit { close() }

    /// Closes the connection now (once; a waiting read then ends), not whenever ARC lets go.
    func close() {
        let first = closed.withLock { done in
            defer { done = true }
            return !done
        }
        if first { Glibc.close(fd) }
    }

    func send(_ text: String) {
        _ = text.withCString { Glibc.send(fd, $0, strlen($0), Int32(MSG_NOSIGNAL)) }
    }

    /// Sends all of `text`, waiting while the server does not take it, until `seconds` pass,
    /// the server has taken nothing for `stalledFor` seconds, or the connection fails (the
    /// server closed it); answers the bytes sent.
    @discardableResult
    func sendAll(_ text: String, seconds: Double, stalledFor: Double = .infinity) async -> Int {
        let bytes = Array(text.utf8)
        return await onOwnThread {
            var sent = 0
            let deadline = Date().addingTimeInterval(seconds)
            var progressed = Date()
            while sent < bytes.count, Date() < deadline, Date().timeIntervalSince(progressed) < stalledFor {
                var poller = pollfd(fd: self.fd, events: Int16(POLLOUT), revents: 0)
                guard poll(&poller, 1, 200) > 0 else { continue }
                let n = bytes[sent...].withUnsafeBytes { Glibc.send(self.fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL | MSG_DONTWAIT)) }
                if n < 0 {
                    if errno == EAGAIN || errno == EWOULDBLOCK { continue }
                    break
                }
                sent += n
                progressed = Date()
            }
            return sent
        }
    }

    /// Waits, without reading, until the server has taken every byte sent (nothing left in this
    /// socket's send queue: SIOCOUTQ, not sent or not acknowledged) or the connection is reset
    /// or hung up, or `seconds` pass; answers which of the three ended the wait.
    func waitUntilTakenOrEnded(seconds: Double) async -> String {
        await onOwnThread {
            let deadline = Date().addingTimeInterval(seconds)
            while Date() < deadline {
                // POLLERR and POLLHUP are reported whatever is asked for; ask for nothing else.
                var poller = pollfd(fd: self.fd, events: 0, revents: 0)
                if poll(&poller, 1, 0) > 0, poller.revents & Int16(POLLERR | POLLHUP) != 0 { return "ended" }
                var queued: Int32 = 0
                // SIOCOUTQ (linux/sockios.h) is TIOCOUTQ for a socket.
                if ioctl(self.fd, UInt(TIOCOUTQ), &queued) == 0, queued == 0 { return "taken" }
                usleep(100_000)
            }
            return "timed out"
        }
    }

    /// Everything the server sent, read only now (until it closes, or the connection fails, or
    /// `seconds` pass); and whether it ended (closed or reset).
    func drain(seconds: Double) async -> (bytes: [UInt8], ended: Bool) {
        await onOwnThread {
            var out = [UInt8]()
            let deadline = Date().addingTimeInterval(seconds)
            var buffer = [UInt8](repeating: 0, count: 65_536)
            while Date() < deadline {
                var poller = pollfd(fd: self.fd, events: Int16(POLLIN), revents: 0)
                guard poll(&poller, 1, 200) > 0 else { continue }
                let n = recv(self.fd, &buffer, buffer.count, 0)
                if n <= 0 { return (out, true) }
                out += buffer[0..<n]
            }
            return (out, false)
        }
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
