// Web Push (docs/api.md "Push"): a device stores the Web Push subscription its browser (or any
// RFC 8030 push service) gave it, and gets a small encrypted message when something waits for
// the person. Each call proves the identity with its holder proof (`SignatureResponse.holder`,
// given with the client secret share): only the token's holder has it.

/// `GET /rps/push/settings`: what a device needs to subscribe.
public struct PushSettings: Codable, Sendable, Equatable {
    /// The server's VAPID public key (RFC 8292), base64url: the browser's `applicationServerKey`.
    public var vapidPublicKey: String
    /// The origins the server sends to (`--push-services`); a subscription elsewhere is refused.
    public var services: [String]

    public init(vapidPublicKey: String, services: [String]) { self.vapidPublicKey = vapidPublicKey; self.services = services }
}

/// The keys of a subscription, as `PushSubscription.toJSON()` gives them (base64url).
public struct PushKeys: Codable, Sendable, Equatable {
    public var p256dh: String
    public var auth: String

    public init(p256dh: String, auth: String) { self.p256dh = p256dh; self.auth = auth }
}

/// `POST /rps/push/subscriptions`: stores a subscription for the identity (a device).
public struct PushSubscribeRequest: Codable, Sendable, Equatable {
    public var mpinId: String
    /// The identity's holder proof (hex).
    public var holder: String
    public var endpoint: String
    public var keys: PushKeys

    public init(mpinId: String, holder: String, endpoint: String, keys: PushKeys) {
        self.mpinId = mpinId; self.holder = holder; self.endpoint = endpoint; self.keys = keys
    }
}

/// One stored subscription (never its keys).
public struct PushSubscriptionView: Codable, Sendable, Equatable {
    public var id: String
    public var endpoint: String
    public var created: Int
    /// When the push service last took a message for it.
    public var lastDelivery: Int?

    public init(id: String, endpoint: String, created: Int, lastDelivery: Int?) {
        self.id = id; self.endpoint = endpoint; self.created = created; self.lastDelivery = lastDelivery
    }
}

/// `POST /rps/push/subscriptions/list`: the identity's subscriptions.
public struct PushListRequest: Codable, Sendable, Equatable {
    public var mpinId: String
    public var holder: String

    public init(mpinId: String, holder: String) { self.mpinId = mpinId; self.holder = holder }
}

public struct PushListResponse: Codable, Sendable, Equatable {
    public var subscriptions: [PushSubscriptionView]

    public init(subscriptions: [PushSubscriptionView]) { self.subscriptions = subscriptions }
}

/// `DELETE /rps/push/subscriptions`: removes one subscription, named by its id or endpoint.
public struct PushUnsubscribeRequest: Codable, Sendable, Equatable {
    public var mpinId: String
    public var holder: String
    public var subscription: String

    public init(mpinId: String, holder: String, subscription: String) { self.mpinId = mpinId; self.holder = holder; self.subscription = subscription }
}

/// What a push message carries (encrypted for the device; RFC 8291). Nothing in it signs
/// anything in by itself: the device fetches and answers with its PIN as usual.
public struct PushPayload: Codable, Sendable, Equatable {
    /// "approval": a site's request waits (`id` its auth_req_id); "signin": a sign-in page asks
    /// (`id` the push sign-in's, `site` what it signs in to; the numbers are fetched with the
    /// holder proof); "identity": a new identity was activated for the person's e-mail
    /// (`device` its name).
    public var kind: String
    public var id: String?
    public var site: String?
    public var message: String?
    public var device: String?
    /// Unix seconds after which the message means nothing.
    public var expires: Int

    public init(kind: String, id: String? = nil, site: String? = nil, message: String? = nil, device: String? = nil, expires: Int) {
        self.kind = kind; self.id = id; self.site = site; self.message = message; self.device = device; self.expires = expires
    }
}

// Push sign-in with number matching (docs/api.md "Push sign-in"): the sign-in page asks for a
// request to the devices of the person an e-mail address names and shows a number; a device
// offers three, the person taps the page's, and the device signs the page in with its code.

/// `POST /rps/push/signin`: the sign-in page (its webOTT) asks for a request to the devices of
/// `userId`. The answer is the same whether anybody registered that address or not.
public struct PushSignInRequest: Codable, Sendable, Equatable {
    public var webOTT: String
    /// The e-mail address the person typed.
    public var userId: String

    public init(webOTT: String, userId: String) { self.webOTT = webOTT; self.userId = userId }
}

/// The page's number (10...99) and when the request ends (Unix seconds).
public struct PushSignInStarted: Codable, Sendable, Equatable {
    public var number: Int
    public var expires: Int

    public init(number: Int, expires: Int) { self.number = number; self.expires = expires }
}

/// One push sign-in waiting for the person: the site (or the service's own page), and the three
/// numbers to offer, one of them the page's.
public struct PushSignInView: Codable, Sendable, Equatable {
    public var id: String
    public var site: String
    public var choices: [Int]
    public var expires: Int

    public init(id: String, site: String, choices: [Int], expires: Int) {
        self.id = id; self.site = site; self.choices = choices; self.expires = expires
    }
}

/// `POST /rps/push/signin/pending` (body: `PushListRequest`): the push sign-ins waiting for
/// the identity's person.
public struct PushSignInList: Codable, Sendable, Equatable {
    public var requests: [PushSignInView]

    public init(requests: [PushSignInView]) { self.requests = requests }
}

/// `POST /rps/push/signin/answer`: the number the person tapped, or "Not me".
public struct PushSignInAnswerRequest: Codable, Sendable, Equatable {
    public var mpinId: String
    public var holder: String
    public var id: String
    public var choice: Int?
    public var notMe: Bool?

    public init(mpinId: String, holder: String, id: String, choice: Int? = nil, notMe: Bool? = nil) {
        self.mpinId = mpinId; self.holder = holder; self.id = id; self.choice = choice; self.notMe = notMe
    }
}

/// The outcome: "matched" (with the page's `accessCode`: sign in with it as with a scanned
/// code), "denied" (not the page's number: the page is told) or "not_me".
public struct PushSignInAnswer: Codable, Sendable, Equatable {
    public var outcome: String
    public var accessCode: String?
    /// With "not_me": the person's identities were blocked too (the operator's setting).
    public var blocked: Bool?

    public init(outcome: String, accessCode: String? = nil, blocked: Bool? = nil) {
        self.outcome = outcome; self.accessCode = accessCode; self.blocked = blocked
    }
}
