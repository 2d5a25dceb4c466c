"""The receiving side of Web Push, written independently of the server's Swift code.

RFC 8291 message decryption over the aes128gcm content coding of RFC 8188 (with pip's
`cryptography`: ECDH, HKDF-SHA256, AES-128-GCM) and the RFC 8292 VAPID check (with PyJWT).
Shared by tools/push-decrypt, tools/push-verify-vapid and tools/lib/push_service.py.
"""
import base64
import os
import re
import time

import jwt  # PyJWT
from cryptography.exceptions import InvalidTag
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.hazmat.primitives.ciphers.aead import AESGCM
from cryptography.hazmat.primitives.kdf.hkdf import HKDF

# RFC 8292 section 2: a push service refuses a token that expires more than 24 hours from now.
VAPID_MAX_LIFETIME = 24 * 3600


def b64url_decode(text):
    """base64url with or without padding; anything outside the alphabet is an error."""
    if not isinstance(text, str) or not re.fullmatch(r"[A-Za-z0-9_-]*={0,2}", text):
        raise ValueError("not base64url: %r" % (text,))
    text = text.rstrip("=")
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


def b64url_encode(data):
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode("ascii")


class Receiver:
    """A user agent's push keys: a P-256 key pair (p256dh) and a 16-byte auth secret."""

    def __init__(self, private_key=None, auth=None):
        self.private_key = private_key or ec.generate_private_key(ec.SECP256R1())
        self.auth = auth if auth is not None else os.urandom(16)

    @classmethod
    def from_scalar(cls, scalar, auth):
        return cls(ec.derive_private_key(int.from_bytes(scalar, "big"), ec.SECP256R1()), auth)

    @property
    def public_bytes(self):
        return self.private_key.public_key().public_bytes(
            serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint)

    def keys_json(self):
        """The `keys` member of PushSubscription.toJSON()."""
        return {"p256dh": b64url_encode(self.public_bytes), "auth": b64url_encode(self.auth)}

    def decrypt(self, body):
        return decrypt_aes128gcm(body, self.private_key, self.auth)


def _hkdf(salt, ikm, info, length):
    return HKDF(algorithm=hashes.SHA256(), length=length, salt=salt, info=info).derive(ikm)


def decrypt_aes128gcm(body, private_key, auth):
    """The plaintext of an aes128gcm Web Push body, or ValueError saying what is wrong."""
    if len(auth) != 16:
        raise ValueError("auth secret is %d bytes, not 16" % len(auth))
    # RFC 8188 section 2.1: salt(16) || rs(4) || idlen(1) || keyid(idlen) || records.
    if len(body) < 21:
        raise ValueError("body of %d bytes is shorter than the aes128gcm header" % len(body))
    salt, rs, idlen = body[:16], int.from_bytes(body[16:20], "big"), body[20]
    if rs < 18:
        raise ValueError("record size %d is below 18" % rs)
    # RFC 8291 section 4: the key id is the sender's ephemeral public key, uncompressed.
    if idlen != 65 or len(body) < 21 + idlen:
        raise ValueError("key id of %d bytes, not a 65-byte P-256 point" % idlen)
    as_public = bytes(body[21:21 + idlen])
    records = body[21 + idlen:]
    try:
        sender = ec.EllipticCurvePublicKey.from_encoded_point(ec.SECP256R1(), as_public)
    except ValueError as error:
        raise ValueError("sender key is not a P-256 point: %s" % error) from None
    ua_public = private_key.public_key().public_bytes(
        serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint)

    # RFC 8291 section 3.3 and 3.4: the input keying material from the ECDH secret and auth.
    ecdh_secret = private_key.exchange(ec.ECDH(), sender)
    ikm = _hkdf(auth, ecdh_secret, b"WebPush: info\x00" + ua_public + as_public, 32)
    # RFC 8188 section 2.2 and 2.3.
    cek = _hkdf(salt, ikm, b"Content-Encoding: aes128gcm\x00", 16)
    base_nonce = int.from_bytes(_hkdf(salt, ikm, b"Content-Encoding: nonce\x00", 12), "big")

    if not records:
        raise ValueError("no record after the header")
    chunks = [records[i:i + rs] for i in range(0, len(records), rs)]
    plaintext = b""
    for seq, chunk in enumerate(chunks):
        last = seq == len(chunks) - 1
        if len(chunk) < 17:
            raise ValueError("record %d of %d bytes is too short" % (seq, len(chunk)))
        nonce = (base_nonce ^ seq).to_bytes(12, "big")
        try:
            padded = AESGCM(cek).decrypt(nonce, bytes(chunk), None)
        except InvalidTag:
            raise ValueError("record %d does not authenticate (wrong key, auth or tampered)" % seq) from None
        # RFC 8188 section 2: data || delimiter (2 in the last record, 1 before) || zeros.
        stripped = padded.rstrip(b"\x00")
        if not stripped:
            raise ValueError("record %d has no padding delimiter" % seq)
        want = 2 if last else 1
        if stripped[-1] != want:
            raise ValueError("record %d ends with delimiter %d, not %d" % (seq, stripped[-1], want))
        plaintext += stripped[:-1]
    return plaintext


class VapidRefused(Exception):
    """A VAPID header a push service refuses: `status` is 401 or 403, `reason` says why."""

    def __init__(self, status, reason):
        super().__init__(reason)
        self.status = status
        self.reason = reason


def parse_vapid(authorization):
    """(token, public key bytes) from `vapid t=JWT, k=KEY` (RFC 8292 section 3)."""
    if not authorization:
        raise VapidRefused(401, "no Authorization header")
    scheme, _, rest = authorization.strip().partition(" ")
    if scheme.lower() != "vapid":
        raise VapidRefused(401, "Authorization scheme is %r, not vapid" % scheme)
    params = {}
    for part in rest.split(","):
        name, eq, value = part.strip().partition("=")
        if not eq or not name:
            raise VapidRefused(401, "Authorization parameter %r is not name=value" % part.strip())
        params[name.strip().lower()] = value.strip().strip('"')
    if "t" not in params or "k" not in params:
        raise VapidRefused(401, "Authorization lacks t= or k= (has %s)" % sorted(params))
    try:
        key = b64url_decode(params["k"])
    except ValueError as error:
        raise VapidRefused(401, "k: %s" % error) from None
    return params["t"], key


def check_vapid(authorization, origin, now=None, application_server_key=None):
    """The claims of a valid VAPID header for a push resource at `origin`, else VapidRefused.

    Checks ES256 over the key in k, aud == origin, exp in the future and at most 24 h away,
    sub present (a mailto: or https: URL); with `application_server_key` (the key the
    subscription was made with), that k is that key.
    """
    token, key_bytes = parse_vapid(authorization)
    if len(key_bytes) != 65 or key_bytes[0] != 4:
        raise VapidRefused(401, "k is %d bytes, not an uncompressed P-256 point" % len(key_bytes))
    try:
        public_key = ec.EllipticCurvePublicKey.from_encoded_point(ec.SECP256R1(), key_bytes)
    except ValueError as error:
        raise VapidRefused(401, "k is not a P-256 point: %s" % error) from None
    if application_server_key is not None and key_bytes != application_server_key:
        raise VapidRefused(403, "k is not the key this subscription was made for")
    try:
        header = jwt.get_unverified_header(token)
        if header.get("alg") != "ES256" or header.get("typ", "JWT") != "JWT":
            raise VapidRefused(401, "JWT header %r is not typ JWT, alg ES256" % header)
        # aud is compared by hand below, to answer 403 for a token meant for another service.
        claims = jwt.decode(token, public_key, algorithms=["ES256"],
                            options={"require": ["aud", "exp", "sub"], "verify_aud": False, "verify_exp": False})
    except VapidRefused:
        raise
    except jwt.PyJWTError as error:
        raise VapidRefused(401, "JWT refused: %s: %s" % (type(error).__name__, error)) from None
    now = time.time() if now is None else now
    exp = claims["exp"]
    if not isinstance(exp, int) or exp <= now:
        raise VapidRefused(401, "JWT expired or exp not an integer (exp %r, now %d)" % (exp, now))
    if exp - now > VAPID_MAX_LIFETIME:
        raise VapidRefused(403, "JWT exp is %d s away, more than 24 h" % (exp - now))
    if claims["aud"] != origin:
        raise VapidRefused(403, "JWT aud %r is not this push service's origin %r" % (claims["aud"], origin))
    sub = claims["sub"]
    if not isinstance(sub, str) or not (re.match(r"mailto:.+", sub) or re.match(r"https://.+", sub)):
        raise VapidRefused(403, "JWT sub %r is not a mailto: or https: URL" % (sub,))
    return claims
