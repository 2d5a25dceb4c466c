"""The Chrome DevTools protocol on its own websocket, beside chromedriver, for what
`execute_cdp_cmd` cannot do: read events (a service worker's registration id) and run code in a
service worker (its notificationclick handler: headless Chromium shows no notification to
click). websocket-client comes with selenium.
"""
import json
import time
import urllib.request

from e2e import Failure


class DevTools:
    """One connection to the browser of selenium driver `d`; `close()` at the end."""

    def __init__(self, d):
        import websocket
        address = d.capabilities["goog:chromeOptions"]["debuggerAddress"]
        with urllib.request.urlopen("http://%s/json/version" % address, timeout=10) as answer:
            url = json.load(answer)["webSocketDebuggerUrl"]
        # Without an Origin header Chromium takes the connection (--remote-allow-origins not needed).
        self.ws = websocket.create_connection(url, timeout=30, suppress_origin=True)
        self.last_id = 0
        self.events = []

    def close(self):
        self.ws.close()

    def send(self, method, params=None, session=None):
        """The result of one command (in `session`, an attached target's, or the browser's)."""
        self.last_id += 1
        message = {"id": self.last_id, "method": method, "params": params or {}}
        if session:
            message["sessionId"] = session
        self.ws.send(json.dumps(message))
        while True:
            reply = json.loads(self.ws.recv())
            if reply.get("id") != self.last_id:
                self.events.append(reply)
                continue
            if "error" in reply:
                raise Failure("DevTools %s: %s" % (method, reply["error"]))
            return reply.get("result", {})

    def event(self, method, predicate, seconds=20):
        """The first event `method` (seen already, or arriving within `seconds`) whose params
        satisfy `predicate`."""
        import websocket
        deadline = time.monotonic() + seconds
        seen = 0
        while True:
            for event in self.events[seen:]:
                if event.get("method") == method and predicate(event.get("params", {})):
                    return event["params"]
            seen = len(self.events)
            left = deadline - time.monotonic()
            if left <= 0:
                raise Failure("no DevTools event %s within %d s" % (method, seconds))
            self.ws.settimeout(left)
            try:
                self.events.append(json.loads(self.ws.recv()))
            except websocket.WebSocketTimeoutException:
                pass
            finally:
                self.ws.settimeout(30)

    def attach(self, predicate, what, seconds=20):
        """A session on the first target whose info satisfies `predicate`."""
        deadline = time.monotonic() + seconds
        while True:
            targets = self.send("Target.getTargets")["targetInfos"]
            found = [t for t in targets if predicate(t)]
            if found:
                return self.send("Target.attachToTarget", {"targetId": found[0]["targetId"], "flatten": True})["sessionId"]
            if time.monotonic() >= deadline:
                raise Failure("no %s among the browser's targets: %r" % (what, [(t["type"], t["url"]) for t in targets]))
            time.sleep(0.2)

    def evaluate(self, session, expression):
        """`expression` run in the target of `session` (a promise awaited); its JSON value."""
        result = self.send("Runtime.evaluate", {"expression": expression, "awaitPromise": True, "returnByValue": True}, session)
        if "exceptionDetails" in result:
            raise Failure("DevTools evaluate: %s" % result["exceptionDetails"])
        return result["result"].get("value")
