#!/usr/bin/env python3
"""A Web Push service for the tests (RFC 8030 delivery, RFC 8291 decryption, RFC 8292 VAPID).

Run as a script: `python3 tools/lib/push_service.py [--host H] --port 0 [--port-file F]
[--stdin-lifeline]` prints its port (alone, on one line) and writes it to F; with
--stdin-lifeline it exits when its standard input closes (its parent died). Or import it:
`PushService().start()`, then `.origin`, `.subscribe()`, `.messages(id)`, `.control(id, ...)`,
`.stop()`.

HTTP, all JSON:
  POST /subscribe          {"applicationServerKey": B64URL}? -> like PushSubscription.toJSON():
                           {"endpoint": ORIGIN/push/ID, "expirationTime": null,
                            "keys": {"p256dh", "auth"}}; the service keeps the private key.
                           With applicationServerKey, deliveries must carry that key in k (403).
  POST /push/ID            a push message: TTL required (400), Content-Encoding aes128gcm (400),
                           at most 4096 bytes (413), VAPID (401/403, the reason in the body);
                           decrypted with ID's key (400 if that fails), recorded, 201 + Location.
  GET  /messages/ID        the recorded messages: [{"payload", "payload_b64", "headers", "time"}]
  POST /control/ID         {"answer": 404|410|429|500|302|..., "retry_after": S, "location": URL}
                           or {"hang": true}: every next delivery to ID answers that way (a hang
                           never answers) until {"answer": null}.
  GET  /stats              {"push_requests": N}: every POST /push/... received, any ID.
  An unknown ID answers 404 everywhere.
"""
import argparse
import json
import os
import secrets
import sys
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from webpush_receiver import Receiver, VapidRefused, b64url_decode, b64url_encode, check_vapid  # noqa: E402

# RFC 8030 section 7.2: a push service need not accept more than 4096 bytes of payload.
MAX_BODY = 4096
# A hung delivery is released after this long at most (or when its control is reset).
HANG_LIMIT = 300


class Subscription:
    def __init__(self, application_server_key):
        self.receiver = Receiver()
        self.application_server_key = application_server_key
        self.messages = []
        self.control = None
        self.release = threading.Event()


class PushService:
    def __init__(self, host="127.0.0.1", port=0):
        self.lock = threading.Lock()
        self.subscriptions = {}
        self.push_requests = 0
        service = self

        class Handler(_Handler):
            push = service

        self.server = ThreadingHTTPServer((host, port), Handler)
        self.server.daemon_threads = True
        self.port = self.server.server_address[1]
        shown = "[%s]" % host if ":" in host else host
        self.origin = "http://%s:%d" % (shown, self.port)
        self.thread = None

    def start(self):
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)
        self.thread.start()
        return self

    def stop(self):
        with self.lock:
            for sub in self.subscriptions.values():
                sub.release.set()
        self.server.shutdown()
        self.server.server_close()

    # What the end-to-end scripts call directly, in process.
    def subscribe(self, application_server_key=None):
        sub = Subscription(application_server_key)
        sub_id = secrets.token_urlsafe(12)
        with self.lock:
            self.subscriptions[sub_id] = sub
        return {"endpoint": "%s/push/%s" % (self.origin, sub_id), "expirationTime": None,
                "keys": sub.receiver.keys_json()}

    def messages(self, sub_id):
        with self.lock:
            sub = self.subscriptions.get(sub_id)
            return None if sub is None else list(sub.messages)

    def control(self, sub_id, answer=None, retry_after=None, location=None, hang=False):
        """Sets how ID's next deliveries are answered; False for an unknown ID."""
        with self.lock:
            sub = self.subscriptions.get(sub_id)
            if sub is None:
                return False
            sub.release.set()  # a reset also lets hung deliveries go
            sub.release = threading.Event()
            if hang:
                sub.control = {"hang": True}
            elif answer is None:
                sub.control = None
            else:
                sub.control = {"answer": int(answer), "retry_after": retry_after, "location": location}
            return True


class _Handler(BaseHTTPRequestHandler):
    push = None  # the PushService, set by the subclass PushService makes
    protocol_version = "HTTP/1.1"

    def log_message(self, *args):  # quiet: the tests read the answers, not a log
        pass

    def _send(self, status, body=None, headers=()):
        data = b"" if body is None else (json.dumps(body) if not isinstance(body, str) else body).encode()
        self.send_response(status)
        for name, value in headers:
            self.send_header(name, value)
        if data:
            self.send_header("Content-Type", "application/json" if not isinstance(body, str) else "text/plain")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def _body(self, limit):
        length = int(self.headers.get("Content-Length") or 0)
        if length > limit:
            self.rfile.read(length)
            return None
        return self.rfile.read(length)

    def _json_body(self):
        raw = self._body(1 << 16) or b"{}"
        try:
            value = json.loads(raw)
        except ValueError:
            value = None
        return value if isinstance(value, dict) else None

    def _subscription(self, prefix):
        sub_id = self.path[len(prefix):]
        with self.push.lock:
            return sub_id, self.push.subscriptions.get(sub_id)

    def do_GET(self):
        if self.path == "/stats":
            with self.push.lock:
                return self._send(200, {"push_requests": self.push.push_requests})
        if self.path.startswith("/messages/"):
            sub_id, _ = self._subscription("/messages/")
            found = self.push.messages(sub_id)
            return self._send(404, "unknown subscription") if found is None else self._send(200, found)
        self._send(404, "no such resource")

    def do_POST(self):
        if self.path == "/subscribe":
            request = self._json_body()
            if request is None:
                return self._send(400, "the body is not a JSON object")
            key = request.get("applicationServerKey")
            try:
                key = None if key is None else b64url_decode(key)
            except ValueError as error:
                return self._send(400, "applicationServerKey: %s" % error)
            return self._send(201, self.push.subscribe(key))
        if self.path.startswith("/control/"):
            request = self._json_body()
            if request is None:
                return self._send(400, "the body is not a JSON object")
            sub_id, _ = self._subscription("/control/")
            try:
                known = self.push.control(sub_id, request.get("answer"), request.get("retry_after"),
                                          request.get("location"), bool(request.get("hang")))
            except (TypeError, ValueError) as error:
                return self._send(400, "control: %s" % error)
            return self._send(200, {"ok": True}) if known else self._send(404, "unknown subscription")
        if self.path.startswith("/push/"):
            return self._push()
        self._send(404, "no such resource")

    def _push(self):
        with self.push.lock:
            self.push.push_requests += 1
        sub_id, sub = self._subscription("/push/")
        body = self._body(MAX_BODY)
        if sub is None:
            return self._send(404, "unknown subscription")
        with self.push.lock:
            control, release = sub.control, sub.release
        if control and control.get("hang"):
            release.wait(HANG_LIMIT)
            self.close_connection = True
            return
        if control:
            headers = []
            if control.get("retry_after") is not None:
                headers.append(("Retry-After", str(control["retry_after"])))
            if control.get("location"):
                headers.append(("Location", control["location"]))
            return self._send(control["answer"], "answer set by /control", headers)
        if body is None:
            return self._send(413, "payload larger than %d bytes" % MAX_BODY)
        refusal = self._check_headers()
        if refusal:
            return self._send(*refusal)
        try:
            check_vapid(self.headers.get("Authorization"), self.push.origin,
                        application_server_key=sub.application_server_key)
        except VapidRefused as error:
            return self._send(error.status, "VAPID: " + error.reason)
        try:
            payload = sub.receiver.decrypt(body)
        except ValueError as error:
            return self._send(400, "cannot decrypt: %s" % error)
        try:
            text = payload.decode("utf-8")
        except UnicodeDecodeError:
            text = None
        record = {"payload": text, "payload_b64": b64url_encode(payload), "time": time.time(),
                  "headers": {name: value for name, value in self.headers.items()}}
        with self.push.lock:
            sub.messages.append(record)
            number = len(sub.messages)
        self._send(201, headers=[("Location", "%s/message/%s-%d" % (self.push.origin, sub_id, number))])

    def _check_headers(self):
        """(status, reason) for a delivery RFC 8030 and RFC 8291 make a push service refuse."""
        ttl = self.headers.get("TTL")
        if ttl is None or not ttl.strip().isdigit():
            return 400, "TTL header missing or not a number of seconds: %r" % ttl
        encoding = self.headers.get("Content-Encoding")
        if encoding != "aes128gcm":
            return 400, "Content-Encoding is %r, not aes128gcm" % encoding
        urgency = self.headers.get("Urgency")
        if urgency is not None and urgency not in ("very-low", "low", "normal", "high"):
            return 400, "Urgency %r is not very-low, low, normal or high" % urgency
        return None


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--host", default="127.0.0.1")
    parser.add_argument("--port", type=int, default=0)
    parser.add_argument("--port-file", help="write the port here (whole, atomically)")
    parser.add_argument("--stdin-lifeline", action="store_true", help="exit when standard input closes")
    args = parser.parse_args()
    service = PushService(args.host, args.port).start()
    if args.port_file:
        tmp = args.port_file + ".tmp"
        with open(tmp, "w") as f:
            f.write("%d\n" % service.port)
        os.replace(tmp, args.port_file)
    print(service.port, flush=True)
    if args.stdin_lifeline:
        sys.stdin.read()
        os._exit(0)
    try:
        threading.Event().wait()
    except KeyboardInterrupt:
        service.stop()


if __name__ == "__main__":
    main()
