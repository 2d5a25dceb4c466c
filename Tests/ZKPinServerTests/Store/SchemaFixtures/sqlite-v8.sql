CREATE TABLE access_sessions(
    web_ott_hash TEXT PRIMARY KEY, code TEXT NOT NULL UNIQUE, status TEXT NOT NULL,
    mpin_id TEXT, user_id TEXT, auth_ott_hash TEXT, taken_up INTEGER NOT NULL,
    created INTEGER NOT NULL, expires INTEGER NOT NULL, authenticated_at INTEGER, site TEXT);
CREATE TABLE audit(
    id INTEGER PRIMARY KEY AUTOINCREMENT, time INTEGER NOT NULL, kind TEXT NOT NULL,
    user_id TEXT, mpin_id TEXT, address TEXT, detail TEXT NOT NULL);
CREATE TABLE auth_tokens(
    hash TEXT PRIMARY KEY, mpin_id TEXT NOT NULL, user_id TEXT NOT NULL, outcome TEXT NOT NULL,
    attempts_left INTEGER NOT NULL, access_code TEXT, expires INTEGER NOT NULL);
CREATE TABLE challenges(
    id TEXT PRIMARY KEY, mpin_id TEXT NOT NULL, u BLOB NOT NULL, ut BLOB, y BLOB NOT NULL,
    date INTEGER NOT NULL, created INTEGER NOT NULL, expires INTEGER NOT NULL);
CREATE INDEX challenges_mpin ON challenges(mpin_id, created);
CREATE TABLE ciba_requests(id TEXT PRIMARY KEY, client_id TEXT NOT NULL, user_id TEXT, scope TEXT NOT NULL, binding_message TEXT NOT NULL,
authorization_details TEXT, notification_token TEXT, status TEXT NOT NULL, created BIGINT NOT NULL,
expires BIGINT NOT NULL, poll_interval BIGINT NOT NULL, next_poll BIGINT NOT NULL, approval TEXT, mpin_id TEXT,
answered BIGINT);
CREATE INDEX ciba_requests_user ON ciba_requests(user_id, status);
CREATE TABLE device_codes(hash TEXT PRIMARY KEY, user_code_hash TEXT NOT NULL UNIQUE, client_id TEXT NOT NULL, scope TEXT NOT NULL,
status TEXT NOT NULL, created BIGINT NOT NULL, expires BIGINT NOT NULL, poll_interval BIGINT NOT NULL,
next_poll BIGINT NOT NULL, user_id TEXT, mpin_id TEXT, answered BIGINT);
CREATE TABLE identities(
    mpin_id TEXT PRIMARY KEY, user_id TEXT NOT NULL, device TEXT NOT NULL,
    state TEXT NOT NULL, failed INTEGER NOT NULL, reserved INTEGER NOT NULL,
    reserved_until INTEGER NOT NULL, created INTEGER NOT NULL, last_login INTEGER);
CREATE INDEX identities_user ON identities(user_id);
CREATE TABLE oidc_access_tokens(
    hash TEXT PRIMARY KEY, client_id TEXT NOT NULL, user_id TEXT NOT NULL, mpin_id TEXT NOT NULL,
    scope TEXT NOT NULL, code_hash TEXT NOT NULL, expires INTEGER NOT NULL);
CREATE INDEX oidc_access_tokens_code ON oidc_access_tokens(code_hash);
CREATE TABLE oidc_clients(
    id TEXT PRIMARY KEY, name TEXT NOT NULL, secret_hash TEXT, redirect_uris TEXT NOT NULL,
    post_logout_uris TEXT NOT NULL, created INTEGER NOT NULL, id_token_alg TEXT NOT NULL, otp INTEGER NOT NULL DEFAULT 0, ciba_mode TEXT, ciba_notification_endpoint TEXT, device_grant BOOLEAN NOT NULL DEFAULT 0);
CREATE TABLE oidc_codes(
    hash TEXT PRIMARY KEY, client_id TEXT NOT NULL, redirect_uri TEXT NOT NULL, user_id TEXT NOT NULL,
    mpin_id TEXT NOT NULL, scope TEXT NOT NULL, nonce TEXT, code_challenge TEXT, auth_time INTEGER NOT NULL,
    created INTEGER NOT NULL, expires INTEGER NOT NULL, used INTEGER NOT NULL, revoked INTEGER NOT NULL DEFAULT 0);
CREATE TABLE oidc_pending(
    web_ott_hash TEXT PRIMARY KEY, client_id TEXT NOT NULL, redirect_uri TEXT NOT NULL, scope TEXT NOT NULL,
    state TEXT, nonce TEXT, code_challenge TEXT, created INTEGER NOT NULL, expires INTEGER NOT NULL);
CREATE TABLE oidc_refresh_tokens(
    hash TEXT PRIMARY KEY, client_id TEXT NOT NULL, user_id TEXT NOT NULL, mpin_id TEXT NOT NULL, scope TEXT NOT NULL,
    auth_time INTEGER NOT NULL, family TEXT NOT NULL, expires INTEGER NOT NULL, used INTEGER NOT NULL);
CREATE INDEX oidc_refresh_tokens_family ON oidc_refresh_tokens(family);
CREATE TABLE otp_codes(
    id TEXT PRIMARY KEY, user_id TEXT NOT NULL, client_id TEXT NOT NULL, mpin_id TEXT NOT NULL,
    hash TEXT NOT NULL, created INTEGER NOT NULL, expires INTEGER NOT NULL);
CREATE INDEX otp_codes_user ON otp_codes(user_id, client_id);
CREATE TABLE rate_limits(key TEXT PRIMARY KEY, count INTEGER NOT NULL, expires INTEGER NOT NULL);
CREATE TABLE registrations(
    mpin_id TEXT PRIMARY KEY, user_id TEXT NOT NULL, device TEXT NOT NULL,
    reg_ott_hash TEXT NOT NULL, code_hash TEXT NOT NULL, created INTEGER NOT NULL, expires INTEGER NOT NULL,
    address TEXT NOT NULL, activated INTEGER);
CREATE TABLE settings(key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE web_sessions(
    hash TEXT PRIMARY KEY, mpin_id TEXT NOT NULL, user_id TEXT NOT NULL,
    created INTEGER NOT NULL, expires INTEGER NOT NULL);
