import Foundation
import ZKPinClient
import ZKPinProtocol
import ZKPinWire

/// A registered identity held in memory only (a load test's throwaway users).
public struct LoadIdentity: Sendable {
    public var email: String
    public var mpinId: String
    public var id: [UInt8]
    public var token: [UInt8]
    public var pin: Int
}

/// Registers throwaway identities the way a person would (register, the mailed link with the
/// confirmation code, both shares, PIN extraction), reading the links from the server's outbox.
struct LoadRegistrar: Sendable {
    let connection: RPSConnection
    let service: Service
    let outbox: OutboxReader

    func register(email: String, pin: Int) async throws(ClientError) -> LoadIdentity {
        let answer = try await connection.send(.put, service.registerURL, RegisterRequest(userId: email, deviceName: "zkpin load", mobile: 0))
        if answer.status == 429 {
            throw .badInput(
                "The server rate-limits registrations from this address; start it with --registrations-per-address at least the number of load identities."
            )
        }
        let started = try answer.decode(RegisterResponse.self)
        guard let code = ConfirmationCode.code(regOTT: started.regOTT), let id = Hex.decode(started.mpinId) else {
            throw .unexpectedResponse(url: answer.url, status: answer.status, detail: "the new identity is not usable")
        }
        // The link names the server's public URL; the path and query are what count.
        let link = try await outbox.link(to: email)
        guard let range = link.range(of: "/mpinActivate?") else { throw .malformedURL(link) }
        let activation = try await connection.send(.post, service.base + String(link[range.lowerBound...]), ["code": code])
        guard activation.isSuccess else { throw activation.unexpected() }

        let share1Answer = try await connection.get(service.signatureURL(mpinId: started.mpinId), headers: [(Service.regOTTHeader, started.regOTT)])
        let share1 = try share1Answer.decode(SignatureResponse.self)
        let share2Answer = try await connection.get(service.dta2URL("clientSecret", params: share1.params))
        let share2 = try share2Answer.decode(ClientSecretResponse.self)
        let suite = service.curve.suite
        guard let a = Hex.decode(share1.clientSecretShare), let b = Hex.decode(share2.clientSecret) else {
            throw .unexpectedResponse(url: share2Answer.url, status: share2Answer.status, detail: "a client-secret share is not hex")
        }
        do {
            let token = try suite.extractPIN(clientSecret: try suite.addG1(a, b), id: id, pin: pin)
            return LoadIdentity(email: email, mpinId: started.mpinId, id: id, token: token, pin: pin)
        } catch {
            throw .unexpectedResponse(
                url: share2Answer.url, status: share2Answer.status, detail: "the client-secret shares are not usable (\(error))")
        }
    }
}
