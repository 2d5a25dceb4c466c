import Foundation

// The person's side of approvals (OpenID CIBA, docs/api.md "Approvals: the person's side"):
// a signing-capable identity lists its pending requests and answers one, each request carrying
// a DVS signature (t, U, V) of the identity on the SHA-256 of a canonical text.

/// `POST /rps/approvals`: the pending requests of the identity that signed `ApprovalText.list`.
public struct ApprovalsRequest: Codable, Sendable, Equatable {
    public var mpinId: String
    /// Unix seconds; the signature's time, within two minutes of the server's clock.
    public var time: Int
    public var U: String
    public var V: String

    public init(mpinId: String, time: Int, U: String, V: String) { self.mpinId = mpinId; self.time = time; self.U = U; self.V = V }
}

/// One request waiting for the person's answer.
public struct PendingApproval: Codable, Sendable, Equatable {
    public var authReqId: String
    public var clientId: String
    /// The site's registered name.
    public var site: String
    public var bindingMessage: String
    /// RFC 9396 `authorization_details` as the site sent them (a JSON array), if any.
    public var authorizationDetails: String?
    /// Unix seconds.
    public var expires: Int

    public init(authReqId: String, clientId: String, site: String, bindingMessage: String, authorizationDetails: String?, expires: Int) {
        self.authReqId = authReqId; self.clientId = clientId; self.site = site; self.bindingMessage = bindingMessage
        self.authorizationDetails = authorizationDetails; self.expires = expires
    }
}

public struct ApprovalsResponse: Codable, Sendable, Equatable {
    public var requests: [PendingApproval]
    public init(requests: [PendingApproval]) { self.requests = requests }
}

/// `POST /rps/approvals/answer`: approve or deny one request, signed over `ApprovalText.answer`.
public struct ApprovalAnswerRequest: Codable, Sendable, Equatable {
    public var mpinId: String
    public var authReqId: String
    /// `approve`, `deny`, or `not_me` (a denial that also tells the server the person did not
    /// ask: counted, mailed to them, and with `--not-me-blocks on` their identities blocked).
    public var answer: String
    public var time: Int
    public var U: String
    public var V: String

    public init(mpinId: String, authReqId: String, answer: String, time: Int, U: String, V: String) {
        self.mpinId = mpinId; self.authReqId = authReqId; self.answer = answer; self.time = time; self.U = U; self.V = V
    }
}

public struct ApprovalAnswerResponse: Codable, Sendable, Equatable {
    public var authReqId: String
    /// `approved`, `denied` or `not_me`.
    public var status: String
    public init(authReqId: String, status: String) { self.authReqId = authReqId; self.status = status }
}

/// The texts an identity signs (their SHA-256 is the DVS message M). Lines joined by "\n";
/// only `authorizationDetails`, last, may hold a newline, so the text reads back one way.
public enum ApprovalText {
    public static func list(mpinId: String, time: Int) -> [UInt8] {
        Array("zkpin-approvals-v1\n\(mpinId)\n\(time)".utf8)
    }

    public static func answer(
        answer: String, authReqId: String, clientId: String, bindingMessage: String, time: Int, authorizationDetails: String?
    ) -> [UInt8] {
        Array("zkpin-approval-v1\n\(answer)\n\(authReqId)\n\(clientId)\n\(bindingMessage)\n\(time)\n\(authorizationDetails ?? "")".utf8)
    }
}
