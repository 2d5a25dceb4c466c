/// A short reason a person can act on, for an error from AsyncHTTPClient, SwiftNIO or NIOSSL.
/// Their own texts name types, enum cases and sometimes source paths of the build; none of that
/// reaches the person. The errors are matched by their texts because their types live in
/// modules this one does not import (NIOPosix, NIOSSL).
enum NetworkErrorText {
    static func reason(_ error: any Error) -> String {
        let text = String(reflecting: error)
        let lower = text.lowercased()
        if lower.contains("connectionrefused") || lower.contains("connection refused") || lower.contains("econnrefused") {
            return "the connection was refused (is the server running at that address and port?)"
        }
        if lower.contains("nxdomain") || lower.contains("dnsaerror") || lower.contains("unknown(host")
            || lower.contains("name or service not known") || lower.contains("lookup") || lower.contains("resolve")
        {
            return "the host name could not be found (check its spelling)"
        }
        if lower.contains("ssl") || lower.contains("tls") || lower.contains("handshake") || lower.contains("certificate") {
            return
                "the secure (TLS) connection failed: the address may be https:// for a server that speaks http://, or its certificate is not trusted here"
        }
        if lower.contains("responsebodytoobig") || lower.contains("toomany") {
            return "the answer was too large"
        }
        if lower.contains("remoteconnectionclosed") || lower.contains("connection reset") || lower.contains("econnreset")
            || lower.contains("eof") || lower.contains("closed")
        {
            return "the server closed the connection before answering (is it an http:// address for a server that speaks https://?)"
        }
        if lower.contains("unreachable") || lower.contains("ehostunreach") || lower.contains("enetunreach") {
            return "the network or host is unreachable"
        }
        if lower.contains("httpparsererror") || lower.contains("invalid") {
            return "the server's answer is not HTTP"
        }
        return "the connection failed (\(String(describing: type(of: error))))"
    }
}
