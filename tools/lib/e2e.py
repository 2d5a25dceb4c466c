"""The end-to-end kit of the Python scripts in tools/ (browser-test, webapp-test, oidc-test,
radius-test, ciba-test, package-test): what each of them needs around its scenario, written once.
(The shell scripts, newcomer-test and schemathesis-test, take theirs from tools/lib/serve.sh.)

    import e2e
    e2e.setup("ciba test", __doc__, flags=["--keep"])      # --help, usage, temporary folder
    e2e.ensure(debian=[...], python={"jwt": "PyJWT"})      # installs what is missing
    server = e2e.Server(curve="bls12-381").start()        # free port, data folder, outbox
    home = server.register("alice@example.com", "2468")   # zkpin register, mailed link, code, PIN
    e2e.step("poll mode")                                 # names what a failure interrupts
    e2e.run(main)                                         # report, exit status, clean-up

- `setup` parses the command line (`-h`/`--help` prints the script's docstring; an unknown
  argument exits with the usage line), makes the temporary folder (kept with `--keep`) and
  installs the clean-up, which runs on any exit: normal, failure, or SIGTERM/SIGINT/SIGHUP.
  Every process, browser and file the kit starts or is told of (`on_cleanup`) is ended there.
- `binaries()` finds zkpin and zkpin-server: `ZKPIN_BIN`, else the script's default folders.
  Servers serve this checkout's `web/` (`ZKPIN_WEB_DIR`, unless set), so binaries from another
  folder test the web client of the checkout.
- `Server` runs `zkpin-server serve` (or `dta`, `demo`) on a free loopback port with a data
  folder of its own, waits until it says it listens, and offers the outbox, the admin commands,
  registration with the CLI, stop, `kill()` (SIGKILL) and `restart()` on the same port and data.
- `Child` is any other process whose merged output is read line by line (`wait_for` a pattern,
  `type_line` on its kept-open standard input); `cli()` runs `zkpin` to its end.
- `browser(profile)` is headless Chromium with a profile of its own: "phone" (390x844, touch,
  a phone's user agent) or "laptop"; `wait_until`, `shot`, `body`, `text_of`, `visible` work on it.
- Randomness goes through `rng()`/`token_hex()`: seeded from `ZKPIN_TEST_SEED` when set, else
  at random, and the seed is printed on failure so that a run can be repeated.
- Failures are `Failure(message)`; `run(main)` prints "NAME FAILED in step S: message", the
  seed when one was used and the last lines of each server's log, and exits 1; on success
  "NAME passed" with the time of each step, and exits 0.

Standard library only at import time; selenium is imported when a browser is asked for.
"""
import atexit
import collections
import importlib.util
import os
import queue
import random
import re
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
import traceback
import urllib.error
import urllib.parse
import urllib.request

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
CONFIRMATION_CODE = r"Confirmation code: ([A-Z2-7]{4}-[A-Z2-7]{4})"
ACTIVATION_LINK = r"(https?://\S*/mpinActivate\?[^\s\"<>]+)"
# Viewports of the two browser profiles: (width, height, mobile emulation).
PROFILES = {"phone": (390, 844, True), "laptop": (1280, 900, False)}
PHONE_AGENT = "Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120 Mobile Safari/537.36"


class Failure(Exception):
    """A check that did not hold; its message says what was seen."""


class _Run:
    """The state of this script's run (one per process)."""

    def __init__(self):
        self.name = None
        self.args = []
        self.keep = False
        self.keep_hint = "logs"
        self.tmp = None
        self.started = time.monotonic()
        self.cleanups = []  # callables, run last first
        self.cleaned = False
        self.servers = []
        self.steps = []  # [name, start]
        self.seed = None
        self.rng = None
        self.rng_used = False
        self.names = collections.Counter()


_run = _Run()


# ---- the run: command line, temporary folder, clean-up, report ---------------------------------

def setup(name, doc, flags=("--keep",), usage=None, positional=0, tmp_prefix=None, keep_hint="logs"):
    """Parses the command line and makes the temporary folder. `name` is how the script names
    itself in its report ("ciba test"); `flags` the options it takes (all flags), `positional`
    how many other arguments it may take. Returns the arguments."""
    _run.name = name
    args = sys.argv[1:]
    if any(a in ("-h", "--help") for a in args):
        print((doc or "").strip())
        sys.exit(0)
    script = os.path.basename(sys.argv[0])
    usage = usage or "usage: tools/%s %s" % (script, " ".join("[%s]" % f for f in flags))
    loose = [a for a in args if a not in flags]
    if len(loose) > positional or any(a.startswith("-") for a in loose):
        sys.exit(usage)
    _run.args = args
    _run.keep = "--keep" in args
    _run.keep_hint = keep_hint
    _run.tmp = tempfile.mkdtemp(prefix=tmp_prefix or "zkpin-%s-" % script)
    atexit.register(cleanup)
    for number in (signal.SIGTERM, signal.SIGINT, signal.SIGHUP):
        signal.signal(number, _on_signal)
    return args


def flag(name):
    return name in _run.args


def tmp(*parts):
    """A path in the run's temporary folder."""
    return os.path.join(_run.tmp, *parts)


def log(text):
    print("==> [%5.1fs] %s" % (time.monotonic() - _run.started, text), flush=True)


def step(name):
    """Starts the next step of the scenario: a failure names the step it happened in, and the
    report gives each step's time."""
    _run.steps.append([name, time.monotonic()])
    log("step %d: %s" % (len(_run.steps), name))


def elapsed():
    return time.monotonic() - _run.started


def rng():
    """The run's random numbers (test data, never the product's secrets): seeded from
    ZKPIN_TEST_SEED when set, else at random; the seed is printed on failure."""
    if _run.rng is None:
        given = os.environ.get("ZKPIN_TEST_SEED")
        _run.seed = int(given) if given else random.SystemRandom().randrange(1 << 32)
        _run.rng = random.Random(_run.seed)
    _run.rng_used = True
    return _run.rng


def token_hex(nbytes):
    return "%0*x" % (2 * nbytes, rng().getrandbits(8 * nbytes))


def on_cleanup(function):
    """Runs `function` at clean-up (last registered, first run), also after a failure."""
    _run.cleanups.append(function)
    return function


def cleanup():
    if _run.cleaned:
        return
    _run.cleaned = True
    while _run.cleanups:
        try:
            _run.cleanups.pop()()
        except Exception as error:  # one clean-up failing must not keep the others from running
            print("clean-up: %s" % error, file=sys.stderr)
    if _run.tmp is None:
        return
    if _run.keep:
        print("kept: " + _run.tmp)
    else:
        shutil.rmtree(_run.tmp, ignore_errors=True)


def _on_signal(number, _frame):
    cleanup()
    sys.exit(128 + number)


def _step_times():
    marks = _run.steps + [["end", time.monotonic()]]
    return "".join("\n  %6.1fs  %s" % (marks[i + 1][1] - start, name) for i, (name, start) in enumerate(_run.steps))


def run(main):
    """Runs the scenario and exits: 0 when it passed; 1 with "NAME FAILED ..." on standard
    error on any failure or unexpected exception. Cleans up either way."""
    try:
        main()
    except Exception as error:
        _report_failure(error)
        cleanup()
        sys.exit(1)
    print("%s passed (%.1fs)%s" % (_run.name, elapsed(), _step_times()), flush=True)
    cleanup()
    sys.exit(0)


def _report_failure(error):
    where = " in step %d (%s)" % (len(_run.steps), _run.steps[-1][0]) if _run.steps else ""
    if isinstance(error, Failure):
        message = str(error)
    else:
        message = "%s: %s" % (type(error).__name__, getattr(error, "msg", None) or error)
        traceback.print_exc()
    print("%s FAILED%s after %.1fs: %s" % (_run.name, where, elapsed(), message), file=sys.stderr, flush=True)
    for server in _run.servers:
        print("---- the last lines of %s's log:\n%s" % (server.name, server.tail(20)), file=sys.stderr)
    if _run.rng_used:
        print("seed %d (ZKPIN_TEST_SEED=%d repeats this run's test data)" % (_run.seed, _run.seed), file=sys.stderr)
    if not _run.keep:
        print("(run with --keep to keep the %s)" % _run.keep_hint, file=sys.stderr, flush=True)


# ---- what the scripts need installed --------------------------------------------------------------

def ensure(debian=(), python=None):
    """Installs the Debian packages and Python modules ({module: PyPI package}) that are missing,
    with tools/lib/install.sh (apt_ensure, pip_ensure)."""
    pairs = ["%s=%s" % (module, package) for module, package in (python or {}).items()
             if importlib.util.find_spec(module) is None]
    script = 'source "$1/tools/lib/install.sh" && shift && apt_ensure "$@"'
    try:
        if debian:
            subprocess.run(["bash", "-c", script, "-", ROOT] + list(debian), check=True)
        if pairs:
            subprocess.run(["bash", "-c", script.replace("apt_ensure", "pip_ensure"), "-", ROOT] + pairs, check=True)
    except (subprocess.CalledProcessError, OSError) as error:
        sys.exit("%s FAILED: could not install what it needs: %s" % (_run.name, error))


# ---- binaries ---------------------------------------------------------------------------------

class Binaries:
    def __init__(self, folder):
        self.folder = folder
        self.server = os.path.join(folder, "zkpin-server")
        self.client = os.path.join(folder, "zkpin")

    def has(self, product):
        return os.access(os.path.join(self.folder, product), os.X_OK)

    def require(self, *products):
        for product in products or ("zkpin-server", "zkpin"):
            if not self.has(product):
                raise Failure("%s is missing: build it (swift build -c release) or set ZKPIN_BIN"
                              % os.path.join(self.folder, product))


BIN = None


def binaries(defaults=(".build/release",), build=False):
    """The folder of zkpin and zkpin-server: ZKPIN_BIN, else the first of `defaults` (relative to
    the checkout) that holds zkpin-server, else the first. With `build` (and no ZKPIN_BIN) runs
    `swift build -c release` for a missing product, or for both when build is "always"."""
    global BIN
    folders = [os.path.join(ROOT, d) for d in defaults]
    given = os.environ.get("ZKPIN_BIN")
    built = next((d for d in folders if os.access(os.path.join(d, "zkpin-server"), os.X_OK)), folders[0])
    BIN = Binaries(os.path.abspath(given) if given else built)
    if build and not given:
        for product in ("zkpin-server", "zkpin"):
            if build == "always" or not BIN.has(product):
                log("building %s (release)" % product)
                subprocess.run(["swift", "build", "-c", "release", "--product", product], cwd=ROOT, check=True)
    return BIN


def free_port(kind=socket.SOCK_STREAM):
    """A port free on 127.0.0.1 right now (TCP, or UDP with socket.SOCK_DGRAM)."""
    with socket.socket(socket.AF_INET, kind) as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


# ---- processes ------------------------------------------------------------------------------

def client_env():
    """The environment of a `zkpin` run by a script: no prompt ever waits for a terminal."""
    return dict(os.environ, ZKPIN_NONINTERACTIVE="1")


class Child:
    """A process whose merged output is read line by line (into TMP/NAME.log); ended at
    clean-up if still running."""

    def __init__(self, name, argv, stdin_text=None, env=None, keep_stdin=False, cwd=None):
        _run.names[name] += 1
        self.name = name if _run.names[name] == 1 else "%s-%d" % (name, _run.names[name])
        self.lines = []
        self.queue = queue.Queue()
        self.log_path = tmp(self.name + ".log")
        self.process = subprocess.Popen(argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                                        text=True, env=env, cwd=cwd, start_new_session=True)
        on_cleanup(self.end)
        if stdin_text is not None:
            self.process.stdin.write(stdin_text)
        if keep_stdin:
            self.process.stdin.flush()
        else:
            self.process.stdin.close()
        self.reader = threading.Thread(target=self._read, daemon=True)
        self.reader.start()

    def _read(self):
        with open(self.log_path, "w") as out:
            for line in self.process.stdout:
                out.write(line)
                out.flush()
                self.lines.append(line)
                self.queue.put(line)
        self.queue.put(None)

    def wait_for(self, pattern, seconds):
        """The first group (or the whole match) of the first output line matching `pattern`;
        a Failure when none comes within `seconds` or the process ends first."""
        regex = re.compile(pattern)
        for line in list(self.lines):
            m = regex.search(line)
            if m:
                return m.group(1) if m.groups() else m.group(0)
        deadline = time.monotonic() + seconds
        while True:
            left = deadline - time.monotonic()
            if left <= 0:
                break
            try:
                line = self.queue.get(timeout=left)
            except queue.Empty:
                break
            if line is None:
                self.queue.put(None)  # a later wait_for sees the end too
                break
            m = regex.search(line)
            if m:
                return m.group(1) if m.groups() else m.group(0)
        raise Failure("%s did not print /%s/ within %ss; its output:\n%s" % (self.name, pattern, seconds, self.output()))

    def type_line(self, text):
        """One line on the child's standard input (kept open with keep_stdin)."""
        self.process.stdin.write(text + "\n")
        self.process.stdin.flush()

    def running(self):
        return self.process.poll() is None

    def wait_exit(self, seconds):
        """The exit status; a Failure when the process is still running after `seconds`."""
        try:
            status = self.process.wait(seconds)
            self.reader.join(10)  # the rest of its output
            return status
        except subprocess.TimeoutExpired:
            raise Failure("%s did not finish within %ss; its output:\n%s" % (self.name, seconds, self.output()))

    def text(self):
        return "".join(self.lines)

    def output(self, chars=4000):
        return self.text()[-chars:]

    def end(self, seconds=10):
        """SIGTERM, then SIGKILL after `seconds`."""
        if self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(seconds)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
        self.reader.join(5)

    def kill(self):
        """SIGKILL (kill -9): no chance to clean up."""
        if self.process.poll() is None:
            self.process.kill()
            self.process.wait()
        self.reader.join(5)


def zkpin(name, args, stdin_text=None, keep_stdin=False):
    """`zkpin ARGS` as a Child (its output merged)."""
    return Child(name, [BIN.client] + list(args), stdin_text=stdin_text, env=client_env(), keep_stdin=keep_stdin)


def cli(args, stdin="", timeout=180):
    """`zkpin ARGS` run to its end: a CompletedProcess with stdout and stderr apart."""
    return subprocess.run([BIN.client] + list(args), input=stdin, capture_output=True, text=True, timeout=timeout,
                          env=client_env())


# ---- HTTP -----------------------------------------------------------------------------------

def http(url, data=None, headers=None, timeout=30):
    """(status, body text); `data` a dict is sent as a form. An HTTP error status is returned,
    not raised; a connection that fails raises OSError."""
    body = urllib.parse.urlencode(data).encode() if isinstance(data, dict) else data
    request = urllib.request.Request(url, data=body, headers=headers or {})
    try:
        with urllib.request.urlopen(request, timeout=timeout) as response:
            return response.status, response.read().decode("utf-8", "replace")
    except urllib.error.HTTPError as error:
        return error.code, error.read().decode("utf-8", "replace")


def wait_for(what, predicate, seconds=30, interval=0.1):
    """The predicate's first true value, polled; a Failure naming `what` after `seconds`."""
    deadline = time.monotonic() + seconds
    while True:
        value = predicate()
        if value:
            return value
        if time.monotonic() >= deadline:
            raise Failure("%s not seen within %ss" % (what, seconds))
        time.sleep(interval)


# ---- the outbox -----------------------------------------------------------------------------

def mails(outbox):
    """The text of every mail in an outbox folder, oldest first."""
    if not os.path.isdir(outbox):
        return []
    paths = [os.path.join(outbox, n) for n in os.listdir(outbox) if n.endswith(".eml")]
    paths.sort(key=lambda p: (os.path.getmtime(p), p))
    texts = []
    for path in paths:
        with open(path, errors="replace") as f:
            texts.append(f.read())
    return texts


def activation_link(outbox, email, after=0, seconds=30):
    """The activation link of the newest mail to `email` written into `outbox` at or after the
    time `after` (time.time()), waited for up to `seconds`."""
    def newest():
        if not os.path.isdir(outbox):
            return None
        paths = [os.path.join(outbox, n) for n in os.listdir(outbox) if n.endswith(".eml")]
        for path in sorted(paths, key=lambda p: (os.path.getmtime(p), p), reverse=True):
            if os.path.getmtime(path) < after:
                continue
            with open(path, errors="replace") as f:
                text = f.read()
            if "To: " + email not in text:
                continue
            m = re.search(ACTIVATION_LINK, text)
            if m:
                return m.group(1)
        return None
    try:
        return wait_for("an activation mail to %s in %s" % (email, outbox), newest, seconds)
    except Failure:
        raise Failure("no activation mail to %s in %s within %ss" % (email, outbox, seconds))


def confirm_over_http(link, code):
    """Types the confirmation code on the mailed activation page, as a form post."""
    status, page = http(link, {"code": code})
    if 'id="activated"' not in page:
        raise Failure("the activation page did not activate (%s):\n%s" % (status, page[:1000]))


# ---- the server -----------------------------------------------------------------------------

Client = collections.namedtuple("Client", "id secret")


class Registration:
    """A `zkpin register` under way: its confirmation code and the mailed link are known; the
    code is to be typed on the link's page (any way the script likes), then `finish()`."""

    def __init__(self, server, email, pin, home, device):
        self.email, self.home = email, home
        os.makedirs(home, exist_ok=True)
        asked = time.time() - 1
        args = ["register", email, "--server", server.url, "--home", home]
        if device:
            args += ["--device", device]
        self.child = zkpin("zkpin-register-" + email.split("@")[0], args + ["--wait", "120", "--pin-stdin"],
                           stdin_text=pin + "\n")
        self.code = self.child.wait_for(CONFIRMATION_CODE, 60)
        self.link = activation_link(server.outbox, email, asked)
        if not self.link.startswith(server.url + "/mpinActivate?"):
            raise Failure("the mailed link %s is not on %s" % (self.link, server.url))

    def finish(self, seconds=120):
        """Waits for zkpin register to choose the PIN and end: it must say Registered EMAIL."""
        status = self.child.wait_exit(seconds)
        if status != 0 or ("Registered " + self.email) not in self.child.text():
            raise Failure("zkpin register %s exited %s:\n%s" % (self.email, status, self.child.output()))
        return self.home


class Server:
    """`zkpin-server COMMAND` (serve, dta, demo) on a free loopback port with a data folder of
    its own (TMP/NAME-data); the log is TMP/NAME.log. `args` are further flags."""

    def __init__(self, name="zkpin-server", command="serve", args=(), curve=None, port=None, data=None):
        self.name, self.command, self.args = name, command, list(args)
        if curve:
            self.args += ["--curve", curve]
        self.port = port or free_port()
        self.url = "http://127.0.0.1:%d" % self.port
        self.data = data or tmp(name + "-data")
        self.outbox = os.path.join(self.data, "outbox")
        self.child = None
        _run.servers.append(self)

    def start(self, seconds=180):
        """Starts it and waits (up to `seconds`: the first start makes keys) until it says it
        listens on its port."""
        env = dict(os.environ)
        env.setdefault("ZKPIN_WEB_DIR", os.path.join(ROOT, "web"))
        self.child = Child(self.name, [BIN.server, self.command, "--host", "127.0.0.1", "--port", str(self.port),
                                       "--data", self.data] + self.args, env=env)
        url = self.child.wait_for(r"listening on (http://127\.0\.0\.1:[0-9]+)", seconds)
        if url != self.url:
            raise Failure("%s listens on %s, not on the port asked for (%d)" % (self.name, url, self.port))
        log("%s listening on %s" % (self.name, self.url))
        return self

    def running(self):
        return self.child is not None and self.child.running()

    def expect_running(self):
        if not self.running():
            raise Failure("%s ended during the test:\n%s" % (self.name, self.tail(40)))

    def stop(self):
        """SIGTERM (SIGKILL after 10 s)."""
        if self.child is not None:
            self.child.end()

    def kill(self):
        """SIGKILL: a crash, as far as the server can tell."""
        if self.child is not None:
            self.child.kill()

    def restart(self, seconds=180):
        """Starts it again on the same port and data folder (after stop or kill)."""
        self.stop()
        return self.start(seconds)

    def log_text(self):
        return self.child.text() if self.child else ""

    def tail(self, lines=20):
        return "".join(self.child.lines[-lines:]) if self.child else "(not started)"

    # -- the outbox and registration --

    def mails(self):
        return mails(self.outbox)

    def activation_link(self, email, after=0):
        return activation_link(self.outbox, email, after)

    def start_registration(self, email, pin, home=None, device=None):
        """`zkpin register EMAIL --pin-stdin` until the mail is there: a Registration with the
        printed confirmation code and the mailed link; type the code, then `.finish()`."""
        return Registration(self, email, pin, home or tmp("home-" + email.split("@")[0]), device)

    def register(self, email, pin, home=None, device=None, confirm=confirm_over_http):
        """Registers `email` with the zkpin CLI: the mailed link confirmed with the printed code
        (`confirm(link, code)`: over HTTP unless told), the PIN chosen. Returns the client's home."""
        registration = self.start_registration(email, pin, home, device)
        confirm(registration.link, registration.code)
        home = registration.finish()
        log("registered %s with the zkpin CLI" % email)
        return home

    # -- the admin commands --

    def admin(self, *args, timeout=60):
        """`zkpin-server admin ARGS --data DATA`; its standard output (a Failure when it fails)."""
        out = subprocess.run([BIN.server, "admin"] + list(args) + ["--data", self.data], capture_output=True, text=True,
                             timeout=timeout)
        if out.returncode != 0:
            raise Failure("zkpin-server admin %s exited %d:\n%s%s" % (" ".join(args), out.returncode, out.stdout, out.stderr))
        return out.stdout

    def add_client(self, name, *flags):
        """`admin clients add NAME FLAGS`: the Client (id, secret; secret None for a public one)."""
        out = self.admin("clients", "add", name, *flags)
        client_id = re.search(r"client_id: (\S+)", out)
        secret = re.search(r"client_secret: (\S+)", out)
        if not client_id:
            raise Failure("admin clients add %s printed no client_id:\n%s" % (name, out))
        return Client(client_id.group(1), secret.group(1) if secret else None)

    def expect_audit(self, *kinds):
        """`admin audit` has a row of each kind."""
        audit = self.admin("audit")
        for kind in kinds:
            if "\t%s\t" % kind not in audit:
                raise Failure("the audit log has no %s row:\n%s" % (kind, audit))


# ---- browsers -------------------------------------------------------------------------------

def browser(profile, size=None, extra_flags=()):
    """A headless Chromium with a profile folder of its own (cookies, IndexedDB, service worker:
    one per device): "phone" or "laptop" (PROFILES); `size` (width, height) overrides the
    viewport; `extra_flags` are more Chromium switches. A second browser of the same profile
    gets a folder of its own. Quit at clean-up."""
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service
    width, height, mobile = PROFILES[profile]
    width, height = size or (width, height)
    _run.names["browser-" + profile] += 1
    name = profile if _run.names["browser-" + profile] == 1 else "%s-%d" % (profile, _run.names["browser-" + profile])
    options = webdriver.ChromeOptions()
    options.binary_location = shutil.which("chromium") or "/usr/bin/chromium"
    for option in ("--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--disable-gpu", "--no-first-run",
                   "--disable-extensions", "--window-size=%d,%d" % (width, height), "--user-data-dir=" + tmp("profile-" + name)) + tuple(extra_flags):
        options.add_argument(option)
    if mobile:
        options.add_experimental_option("mobileEmulation", {
            "deviceMetrics": {"width": width, "height": height, "pixelRatio": 3.0, "touch": True}, "userAgent": PHONE_AGENT})
    service = Service(executable_path=shutil.which("chromedriver") or "/usr/bin/chromedriver",
                      log_output=tmp("chromedriver-%s.log" % name))
    d = webdriver.Chrome(options=options, service=service)
    d.set_page_load_timeout(30)
    on_cleanup(d.quit)
    return d


def shot(d, name):
    """A screenshot in TMP/screenshots/NAME.png; its path."""
    from selenium.common.exceptions import WebDriverException
    os.makedirs(tmp("screenshots"), exist_ok=True)
    path = tmp("screenshots", name + ".png")
    try:
        d.save_screenshot(path)
    except WebDriverException:
        pass
    return path


def body(d):
    """The page's text ("" while there is none)."""
    from selenium.common.exceptions import WebDriverException
    from selenium.webdriver.common.by import By
    try:
        return d.find_element(By.TAG_NAME, "body").text
    except WebDriverException:
        return ""


def by_id(d, element_id):
    from selenium.webdriver.common.by import By
    return d.find_element(By.ID, element_id)


def text_of(d, element_id):
    """The stripped text of the element with this id, or None when there is none."""
    from selenium.webdriver.common.by import By
    found = d.find_elements(By.ID, element_id)
    return found[0].text.strip() if found else None


def visible(d, element_id):
    from selenium.webdriver.common.by import By
    found = d.find_elements(By.ID, element_id)
    return bool(found) and found[0].is_displayed()


def status(d):
    """The `status` line of the app or of a sign-in page."""
    return by_id(d, "status").text.strip()


def wait_until(d, what, predicate, seconds=20, context=None, shot_name=None):
    """The predicate's first true value (a page still loading counts as false); on timeout a
    Failure with a screenshot (`shot_name`, else named after `what`), the page's text and, if
    given, `context()` (another process's log)."""
    from selenium.common.exceptions import WebDriverException
    deadline = time.monotonic() + seconds
    while True:
        try:
            value = predicate()
        except WebDriverException:
            value = None
        if value:
            return value
        if time.monotonic() >= deadline:
            path = shot(d, shot_name or re.sub(r"\W+", "-", what)[:60])
            extra = ("\n" + context()) if context else ""
            raise Failure("%s not seen within %ss (at %s; screenshot %s); the page says:\n%s%s"
                          % (what, seconds, d.current_url, path, body(d)[:2000], extra))
        time.sleep(0.1)
