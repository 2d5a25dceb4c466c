"""A browser's part of a ZKPin sign-in, for scripts without a browser (tools/forward-auth-test,
tools/measure-gateway): a cookie jar that follows no redirect, and the sign-in page signed in
by `zkpin login` on its code, the script polling and posting as the page's own script does."""
import http.cookiejar
import re
import socket
import time
import urllib.error
import urllib.parse
import urllib.request

import e2e
from e2e import Failure

PIN = "2468"


def port_open(port):
    try:
        with socket.create_connection(("127.0.0.1", port), timeout=1):
            return True
    except OSError:
        return False


class NoRedirect(urllib.request.HTTPRedirectHandler):
    def redirect_request(self, *args):
        return None


class Browser:
    """A cookie jar and no automatic redirects: each answer is looked at."""

    def __init__(self):
        self.jar = http.cookiejar.CookieJar()
        self.opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(self.jar), NoRedirect)

    def request(self, url, data=None, headers=None):
        request = urllib.request.Request(url, data=data, headers=headers or {})
        try:
            with self.opener.open(request, timeout=30) as answer:
                return answer.status, dict(answer.headers), answer.read().decode("utf-8", "replace")
        except urllib.error.HTTPError as error:
            return error.code, dict(error.headers), error.read().decode("utf-8", "replace")


def sign_in(browser, server, home, email, signin_url):
    """The sign-in page at `signin_url` signed in by `zkpin login` on its code: the /session answer."""
    status, _, page = browser.request(signin_url, headers={"Accept": "text/html"})
    if status != 200:
        raise Failure("the sign-in page %s answered %s" % (signin_url, status))
    web_ott = re.search(r'name="webOTT" id="webOTT" value="([0-9a-f]+)"', page).group(1)
    code = re.search(r'id="code">([0-9]{7})<', page).group(1)
    action = re.search(r'form id="session" method="post" action="([^"]+)"', page).group(1).replace("&amp;", "&")
    login = e2e.zkpin("zkpin-login", ["login", "%s/#%s" % (server.url, code), "--home", home, "--user", email, "--pin-stdin"],
                      stdin_text=PIN + "\n")
    auth_ott = None
    for _ in range(600):
        status, _, text = browser.request(server.url + "/rps/access", data=('{"webOTT": "%s"}' % web_ott).encode(),
                                          headers={"Content-Type": "application/json"})
        if '"authenticate"' in text:
            auth_ott = re.search(r'"authOTT"\s*:\s*"([^"]+)"', text).group(1)
            break
        time.sleep(0.05)
    if auth_ott is None:
        raise Failure("the page never saw the login:\n" + login.text())
    form = urllib.parse.urlencode({"webOTT": web_ott, "authOTT": auth_ott}).encode()
    answer = browser.request(server.url + action, data=form, headers={
        "Origin": server.url, "Content-Type": "application/x-www-form-urlencoded"})
    if login.wait_exit(60) != 0:
        raise Failure("zkpin login failed:\n" + login.text())
    return answer


