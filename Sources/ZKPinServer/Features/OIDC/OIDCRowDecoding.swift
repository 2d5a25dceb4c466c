// The provider's rows as models (the core's are in Store/RowDecoding.swift).

extension OIDCClient {
    init(row r: SQLRow) throws {
        self.init(
            id: try r.text("id"), name: try r.text("name"), secretHash: try r.optionalText("secret_hash"),
            redirectURIs: URIList.split(try r.text("redirect_uris")), postLogoutURIs: URIList.split(try r.text("post_logout_uris")),
            created: try r.int("created"), idTokenAlg: try r.text("id_token_alg"), otp: try r.bool("otp"),
            ciba: try r.optionalText("ciba_mode").flatMap(CIBAMode.init(rawValue:)),
            notificationEndpoint: try r.optionalText("ciba_notification_endpoint"), deviceGrant: try r.bool("device_grant"),
            introspect: try r.bool("introspect"), backchannelLogoutURI: try r.optionalText("backchannel_logout_uri"),
            backchannelLogoutSessionRequired: try r.bool("backchannel_logout_session_required"),
            frontchannelLogoutURI: try r.optionalText("frontchannel_logout_uri"),
            frontchannelLogoutSessionRequired: try r.bool("frontchannel_logout_session_required"))
        adminScopes = try r.optionalText("admin_scopes").map { $0.split(separator: " ").map(String.init) } ?? []
        jwks = try r.optionalText("jwks")
    }
}

extension PendingAuthorization {
    init(row r: SQLRow) throws {
        self.init(
            webOTTHash: try r.text("web_ott_hash"), clientId: try r.text("client_id"), redirectURI: try r.text("redirect_uri"),
            scope: try r.text("scope"), state: try r.optionalText("state"), nonce: try r.optionalText("nonce"),
            codeChallenge: try r.optionalText("code_challenge"), created: try r.int("created"), expires: try r.int("expires"))
    }
}

extension AuthorizationCode {
    init(row r: SQLRow) throws {
        self.init(
            hash: try r.text("hash"), clientId: try r.text("client_id"), redirectURI: try r.text("redirect_uri"), userId: try r.text("user_id"),
            mpinId: try r.text("mpin_id"), scope: try r.text("scope"), nonce: try r.optionalText("nonce"),
            codeChallenge: try r.optionalText("code_challenge"), authTime: try r.int("auth_time"), created: try r.int("created"),
            expires: try r.int("expires"), sid: try r.optionalText("sid"))
    }
}

extension OIDCAccessToken {
    init(row r: SQLRow) throws {
        self.init(
            hash: try r.text("hash"), clientId: try r.text("client_id"), userId: try r.text("user_id"), mpinId: try r.text("mpin_id"),
            scope: try r.text("scope"), codeHash: try r.text("code_hash"), expires: try r.int("expires"))
    }
}

extension OIDCRefreshToken {
    init(row r: SQLRow) throws {
        self.init(
            hash: try r.text("hash"), clientId: try r.text("client_id"), userId: try r.text("user_id"), mpinId: try r.text("mpin_id"),
            scope: try r.text("scope"), authTime: try r.int("auth_time"), family: try r.text("family"), expires: try r.int("expires"),
            sid: try r.optionalText("sid"))
    }
}

extension OIDCLogin {
    init(row r: SQLRow) throws {
        self.init(
            family: try r.text("family"), clientId: try r.text("client_id"), userId: try r.text("user_id"), mpinId: try r.text("mpin_id"),
            sid: try r.optionalText("sid"), created: try r.int("created"), expires: try r.int("expires"))
    }
}
