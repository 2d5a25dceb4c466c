"""Steps in the web app (/app/) driven through headless Chromium, shared by tools/webapp-test
and tools/oidc-test: the PIN pad, registration in the app with the mailed activation link,
"Sign in here with your PIN", axe-core. The browsers, waiting and screenshots are the
end-to-end kit's (tools/lib/e2e.py).
"""
import json
import re
import time

from selenium.webdriver.common.by import By

import e2e
from e2e import Failure, by_id, log, status, visible, wait_until


def expect_accessible(d, page, min_button=None):
    """axe-core (all its rules): no serious or critical violation; in the app, every shown
    button at least `min_button` px tall and wide."""
    from axe_selenium_python import Axe
    axe = Axe(d)
    axe.inject()
    result = axe.run()
    bad = [v for v in result["violations"] if v.get("impact") in ("serious", "critical")]
    if bad:
        e2e.shot(d, page + "-axe")
        raise Failure("axe-core on the %s: %s" % (page, axe.report(bad)))
    if min_button:
        small = d.execute_script(
            "return Array.from(document.querySelectorAll('button')).filter(function (b) {"
            " var r = b.getBoundingClientRect(); return r.width > 0 && (r.height < arguments[0] || r.width < arguments[0]); })"
            ".map(function (b) { var r = b.getBoundingClientRect(); return (b.id || b.textContent.trim()) + ': ' + r.width + 'x' + r.height; });",
            min_button)
        if small:
            raise Failure("buttons under %d px on the %s: %s" % (min_button, page, ", ".join(small)))
    log("axe-core finds nothing serious on the %s (%d lesser findings)" % (page, len(result["violations"])))


def type_pin(d, pin, with_pad):
    """The PIN typed on the app's pad (clicks) or into its field (keyboard)."""
    wait_until(d, "the PIN pad", lambda: visible(d, "pin-input"))
    field = by_id(d, "pin-input")
    field.clear()
    if with_pad:
        for digit in pin:
            d.find_element(By.CSS_SELECTOR, '.pad [data-digit="%s"]' % digit).click()
        d.find_element(By.ID, "pin-ok").click()
    else:
        field.send_keys(pin + "\n")


def pin_kept(record, pin):
    """A field named like a PIN, or a value that is the PIN."""
    return any(k.lower() in ("pin", "pinhex", "clientsecret") or v == pin for k, v in record.items())


def confirm_in_browser(activator):
    """A `confirm(link, code)` for e2e.Server.register: browser `activator` opens the mailed link
    and types the code."""
    def confirm(link, code):
        activator.get(link)
        by_id(activator, "code").send_keys(code + "\n")
        wait_until(activator, "the activated page", lambda: activator.find_elements(By.ID, "activated"))
    return confirm


def app_said(d):
    """What the app says: its status line, and on a result screen the result's text (a result
    is said once, on its screen)."""
    said = status(d)
    if visible(d, "done"):
        said = (said + " " + by_id(d, "done-text").text).strip()
    return said


def register(d, server, activator, email, device, pin, check_accessible=True):
    """Registers in the app of browser `d` on `server` (an e2e.Server); `activator` opens the
    mailed link and types the code. Checks on the way that a trivial PIN is refused and that
    IndexedDB keeps the token, never the PIN."""
    d.get(server.url + "/app/")
    wait_until(d, "the app's home", lambda: visible(d, "add"))
    by_id(d, "add").click()
    by_id(d, "email").send_keys(email)
    by_id(d, "device").send_keys(device)
    asked = time.time() - 1
    d.find_element(By.CSS_SELECTOR, "#register-form button[type=submit]").click()
    code = wait_until(d, "the confirmation code", lambda: re.fullmatch(r"[A-Z2-7]{4}-[A-Z2-7]{4}", by_id(d, "confirmation-code").text.strip()) and by_id(d, "confirmation-code").text.strip())
    if "Confirmation code: " + code not in status(d):
        raise Failure("the app does not say the confirmation code as the CLI does: %r" % status(d))
    log("%s: the app shows the confirmation code %s and waits for the activation" % (device, code))
    if check_accessible:
        expect_accessible(d, "app's activation screen", 44)
    confirm_in_browser(activator)(server.activation_link(email, asked), code)
    wait_until(d, "the PIN choice", lambda: visible(d, "pin-input") and "Choose" in by_id(d, "pin-title").text)
    type_pin(d, "1111", with_pad=True)
    wait_until(d, "the trivial PIN refused", lambda: "easy to guess" in status(d))
    log("%s: a trivial PIN (1111) is refused: %r" % (device, status(d)))
    type_pin(d, pin, with_pad=True)
    wait_until(d, "the repeat prompt", lambda: "Repeat" in by_id(d, "pin-title").text)
    type_pin(d, pin, with_pad=False)
    wait_until(d, "Registered", lambda: by_id(d, "done-title").text == "Registered")
    stored = d.execute_script(
        "return new Promise(function (ok) { var r = indexedDB.open('zkpin', 1); r.onsuccess = function () {"
        " var q = r.result.transaction('identities').objectStore('identities').getAll();"
        " q.onsuccess = function () { ok(JSON.stringify(q.result)); }; }; });")
    records = [r for r in json.loads(stored) if r.get("deviceName") == device]
    if len(records) != 1 or not str(records[0].get("token", "")).startswith("04") or pin_kept(records[0], pin):
        raise Failure("IndexedDB should hold the token and never the PIN: %s" % stored[:300])
    log("%s: registered; IndexedDB holds the token, not the PIN" % device)


def sign_in_here(d, pin, site_name=None):
    """On a sign-in or authorize page of browser `d`: "Sign in here with your PIN" opens the app
    in a second tab (which names `site_name` before the PIN pad, when given); the PIN there; the
    tab is closed and the page's tab selected again. Returns what the app said."""
    wait_until(d, "Sign in here", lambda: visible(d, "here"))
    page_tab = d.current_window_handle
    by_id(d, "here").click()
    wait_until(d, "the app's tab", lambda: len(d.window_handles) == 2)
    d.switch_to.window([h for h in d.window_handles if h != page_tab][0])
    if site_name is not None:
        wait_until(d, "the site's name in the app", lambda: visible(d, "pin-input")
                   and by_id(d, "signin-site").get_attribute("textContent") == site_name)
    type_pin(d, pin, with_pad=True)
    wait_until(d, "the app's Signed in", lambda: by_id(d, "done-title").text == "Signed in")
    said = app_said(d)
    d.close()
    d.switch_to.window(page_tab)
    return said
