"""Steps in the web app (/app/) driven through headless Chromium, shared by tools/webapp-test
and tools/oidc-test: browser profiles (a phone and a laptop), the PIN pad, registration with
the mailed activation link, waiting with a screenshot on failure, axe-core.

`configure(log, shots)` once before use: `log` prints a progress line, `shots` is the folder
for screenshots and browser profiles.
"""
import json
import os
import re
import shutil
import time

from selenium import webdriver
from selenium.common.exceptions import WebDriverException
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.by import By


class Failure(Exception):
    pass


_settings = {"log": print, "shots": None}


def configure(log, shots):
    _settings["log"] = log
    _settings["shots"] = shots
    os.makedirs(shots, exist_ok=True)


def log(text):
    _settings["log"](text)


def new_driver(name, width, height, mobile, extra_flags=()):
    """A headless Chromium with a profile of its own (its own cookies, IndexedDB and service
    worker): one per device. `extra_flags` are more Chromium switches."""
    folder = _settings["shots"]
    options = webdriver.ChromeOptions()
    options.binary_location = shutil.which("chromium") or "/usr/bin/chromium"
    for flag in ("--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--disable-gpu", "--no-first-run",
                 "--disable-extensions", "--window-size=%d,%d" % (width, height),
                 "--user-data-dir=" + os.path.join(folder, "profile-" + name)) + tuple(extra_flags):
        options.add_argument(flag)
    if mobile:
        options.add_experimental_option("mobileEmulation", {
            "deviceMetrics": {"width": width, "height": height, "pixelRatio": 3.0, "touch": True},
            "userAgent": "Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120 Mobile Safari/537.36"})
    service = Service(executable_path=shutil.which("chromedriver") or "/usr/bin/chromedriver",
                      log_output=os.path.join(folder, "chromedriver-%s.log" % name))
    d = webdriver.Chrome(options=options, service=service)
    d.set_page_load_timeout(30)
    return d


def shot(d, name):
    path = os.path.join(_settings["shots"], name + ".png")
    try:
        d.save_screenshot(path)
    except WebDriverException:
        pass
    return path


def body(d):
    try:
        return d.find_element(By.TAG_NAME, "body").text
    except WebDriverException:
        return ""


def wait_until(d, what, predicate, seconds=20, context=None):
    """The predicate's first true value; on timeout a Failure with a screenshot, the page's text
    and, if given, `context()` (another process's log)."""
    deadline = time.monotonic() + seconds
    while True:
        try:
            value = predicate()
        except WebDriverException:
            value = None
        if value:
            return value
        if time.monotonic() >= deadline:
            path = shot(d, re.sub(r"\W+", "-", what)[:60])
            extra = ("\n" + context()) if context else ""
            raise Failure("%s not seen within %ss (at %s; screenshot %s); the page says:\n%s%s"
                          % (what, seconds, d.current_url, path, body(d)[:1500], extra))
        time.sleep(0.1)


def by_id(d, element_id):
    return d.find_element(By.ID, element_id)


def visible(d, element_id):
    found = d.find_elements(By.ID, element_id)
    return bool(found) and found[0].is_displayed()


def status(d):
    """The `status` line of the app or of a sign-in page."""
    return by_id(d, "status").text.strip()


def expect_accessible(d, page, min_button=None):
    """axe-core (all its rules): no serious or critical violation; in the app, every shown
    button at least `min_button` px tall and wide."""
    from axe_selenium_python import Axe
    axe = Axe(d)
    axe.inject()
    result = axe.run()
    bad = [v for v in result["violations"] if v.get("impact") in ("serious", "critical")]
    if bad:
        shot(d, page + "-axe")
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


def activation_link(outbox, email, after, seconds=30):
    """The activation link of the newest mail to `email` written into the outbox after `after`."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if os.path.isdir(outbox):
            for name in sorted(os.listdir(outbox), reverse=True):
                path = os.path.join(outbox, name)
                if not name.endswith(".eml") or os.path.getmtime(path) < after:
                    continue
                text = open(path, errors="replace").read()
                if "To: " + email not in text:
                    continue
                m = re.search(r"(https?://\S*/mpinActivate\?[^\s\"<>]+)", text)
                if m:
                    return m.group(1)
        time.sleep(0.1)
    raise Failure("no activation mail to %s in %s" % (email, outbox))


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


def register(d, base, outbox, activator, email, device, pin, check_accessible=True):
    """Registers in the app of browser `d`; `activator` opens the mailed link and types the code.
    Checks on the way that a trivial PIN is refused and that IndexedDB keeps the token, never
    the PIN."""
    d.get(base + "/app/")
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
    link = activation_link(outbox, email, asked)
    activator.get(link)
    by_id(activator, "code").send_keys(code + "\n")
    wait_until(activator, "the activated page", lambda: activator.find_elements(By.ID, "activated"))
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
    tab is closed and the page's tab selected again. Returns the app's status line."""
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
    said = status(d)
    d.close()
    d.switch_to.window(page_tab)
    return said
