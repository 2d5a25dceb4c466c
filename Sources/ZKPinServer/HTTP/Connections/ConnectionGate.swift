import NIOCore
import Synchronization

/// Counts the connections being served, shared by every child channel of one server: all of
/// them against the cap, and each address's against its share, so that one host cannot hold
/// the service (issue 29, finding 2). The trusted proxy's address has no share of its own:
/// every person behind it arrives from it, and the proxy is where their connections are
/// limited (docs/operator.md).
final class ConnectionGate: Sendable {
    enum Admission: Equatable {
        case admitted
        /// The server holds `limit` connections.
        case full
        /// This address holds its share.
        case addressFull
    }

    let limit: Int
    let perAddressLimit: Int
    private let unlimitedAddresses: Set<String>
    private let open = Atomic<Int>(0)
    private let byAddress = Mutex<[ConnectionAddress: Int]>([:])

    init(limit: Int, perAddressLimit: Int? = nil, unlimitedAddresses: Set<String> = []) {
        self.limit = limit
        self.perAddressLimit = perAddressLimit ?? limit
        self.unlimitedAddresses = unlimitedAddresses
    }

    /// Admits one more connection from `address` (nil: not an IP peer) when both the server and
    /// the address are under their limits.
    func enter(from address: ConnectionAddress?) -> Admission {
        let now = open.wrappingAdd(1, ordering: .relaxed).newValue
        guard now <= limit else {
            open.wrappingSubtract(1, ordering: .relaxed)
            return .full
        }
        guard let address, !unlimitedAddresses.contains(address.ip) else { return .admitted }
        let admitted = byAddress.withLock { counts -> Bool in
            let held = counts[address, default: 0]
            guard held < perAddressLimit else { return false }
            counts[address] = held + 1
            return true
        }
        if admitted { return .admitted }
        open.wrappingSubtract(1, ordering: .relaxed)
        return .addressFull
    }

    /// Gives back what `enter(from:)` admitted.
    func leave(from address: ConnectionAddress?) {
        open.wrappingSubtract(1, ordering: .relaxed)
        guard let address, !unlimitedAddresses.contains(address.ip) else { return }
        byAddress.withLock { counts in
            let held = (counts[address] ?? 1) - 1
            counts[address] = held > 0 ? held : nil
        }
    }

    var count: Int { open.load(ordering: .relaxed) }

    /// Connections held by `address` (for tests and metrics).
    func count(from address: ConnectionAddress) -> Int { byAddress.withLock { $0[address] ?? 0 } }
}

/// The address a connection's share is counted under: an IPv4 address, or an IPv6 address's
/// /64 prefix (one subscriber commonly holds a whole /64, so counting single IPv6 addresses
/// would give one host 2^64 shares). An IPv4-mapped IPv6 address counts as its IPv4 address.
struct ConnectionAddress: Hashable, Sendable {
    /// The peer's address as `SocketAddress.ipAddress` spells it (what `trusted-proxy` names).
    let ip: String
    /// What its share is counted under.
    let key: String

    init?(_ address: SocketAddress?) {
        guard let address, let ip = address.ipAddress else { return nil }
        self.ip = ip
        switch address {
        case .v6(let v6):
            let bytes = withUnsafeBytes(of: v6.address.sin6_addr) { Array($0) }
            if bytes[0..<10].allSatisfy({ $0 == 0 }) && bytes[10] == 0xff && bytes[11] == 0xff {
                key = bytes[12..<16].map { String($0) }.joined(separator: ".")
            } else {
                key =
                    stride(from: 0, to: 8, by: 2).map { String(UInt16(bytes[$0]) << 8 | UInt16(bytes[$0 + 1]), radix: 16) }
                    .joined(separator: ":") + "::/64"
            }
        default:
            key = ip
        }
    }

    static func == (a: Self, b: Self) -> Bool { a.key == b.key }
    func hash(into hasher: inout Hasher) { hasher.combine(key) }
}
