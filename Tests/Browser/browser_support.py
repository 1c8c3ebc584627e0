"""What every browser test shares: the harness (server, host page, Chromium), waits that retry until a deadline,
screenshots, axe-core, and the helpers more than one page's tests use.
"""
import json
import os
import shutil
import sys
import tempfile
import threading
import time
import urllib.parse
import urllib.request
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer

os.environ.setdefault("SE_OFFLINE", "true")
from selenium import webdriver  # noqa: E402
from selenium.webdriver.chrome.service import Service  # noqa: E402
from selenium.common.exceptions import (  # noqa: E402
    ElementClickInterceptedException,
    ElementNotInteractableException,
    NoSuchElementException,
    NoSuchFrameException,
    StaleElementReferenceException,
)
from selenium.webdriver.common.by import By  # noqa: E402

# What the probes and these tests share: a `forma serve` process, free ports, waits, live sessions (Tests/Probe).
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "Probe"))
import common  # noqa: E402
from common import Server, free_port  # noqa: E402
from small_png import shrink  # noqa: E402

CHROMIUM = os.environ.get("CHROMIUM", "/usr/bin/chromium")
RECEIVED = []
CHROMEDRIVER = os.environ.get("CHROMEDRIVER", "/usr/bin/chromedriver")
SQUAT_REPS = 12

HOST_PAGE = """<!doctype html>
<html><head><meta charset="utf-8"><title>Host app</title></head>
<body>
<iframe id="forma" allow="camera" style="width: 420px; height: 800px"></iframe>
<script>
const params = new URLSearchParams(location.search);
const forma = params.get('forma');
const config = JSON.parse(params.get('config'));
window.formaEvents = [];
window.formaRaw = [];
window.addEventListener('message', (event) => {
  if (event.origin !== forma) return;
  window.formaRaw.push(event.data);
  const message = JSON.parse(event.data);
  window.formaEvents.push(message);
  if (message.type === 'kinestex_launched') {
    document.getElementById('forma').contentWindow.postMessage(config, forma);
  }
});
document.getElementById('forma').src = params.get('src');
</script>
</body></html>
"""


class HostHandler(SimpleHTTPRequestHandler):
    def end_headers(self):
        # The replay recording is fetched cross-origin by the embed page.
        self.send_header("Access-Control-Allow-Origin", "*")
        super().end_headers()

    def do_GET(self):
        if self.path.startswith("/host.html"):
            body = HOST_PAGE.encode()
            self.send_response(200)
            self.send_header("Content-Type", "text/html; charset=utf-8")
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)
            return
        super().do_GET()

    def log_message(self, *args):
        pass


class Harness:
    def __init__(self, forma_binary):
        self.work = tempfile.mkdtemp(prefix="forma-browser-")
        self.server = Server(forma_binary, self.work, "server", env={"FORMA_EMBED_REPLAY": "on"})
        self.base = self.server.base
        self.host_port = free_port()
        self.host = f"http://127.0.0.1:{self.host_port}"
        self.driver = None

    def forma(self, *args):
        return self.server.cli(*args)

    def start(self):
        self.forma("migrate")
        created = json.loads(self.forma("company", "create", "--name", "Acme", "--origin", self.host, "--json"))
        self.key = created["apiKey"]
        self.forma("synthesize", "--exercise", "squat", "--reps", str(SQUAT_REPS), "--seconds-per-rep", "2",
                   "--seed", "5", "--output", os.path.join(self.work, "squats.json"))
        self.server.start(timeout=60)
        handler = lambda *a, **k: HostHandler(*a, directory=self.work, **k)  # noqa: E731
        self.http = ThreadingHTTPServer(("127.0.0.1", self.host_port), handler)
        threading.Thread(target=self.http.serve_forever, daemon=True).start()
        options = webdriver.ChromeOptions()
        options.binary_location = CHROMIUM
        for argument in ("--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--mute-audio",
                         "--autoplay-policy=no-user-gesture-required", "--window-size=600,1000"):
            options.add_argument(argument)
        self.driver = webdriver.Chrome(service=Service(executable_path=CHROMEDRIVER), options=options)
        self.driver.set_page_load_timeout(30)

    def stop(self):
        if self.driver:
            self.driver.quit()
        self.server.stop()
        if getattr(self, "http", None):
            self.http.shutdown()
        shutil.rmtree(self.work, ignore_errors=True)

    def api(self, method, path, user, body=None):
        request = urllib.request.Request(
            self.base + path, method=method, data=json.dumps(body).encode() if body is not None else None,
            headers={"X-Forma-Key": self.key, "X-Forma-User": user, "Content-Type": "application/json"})
        with urllib.request.urlopen(request, timeout=10) as reply:
            return json.loads(reply.read() or b"null")

    def workout_for(self, user):
        """A host back end picks the workout: 10 minutes of quadriceps work, with a squat the camera can count."""
        workout = self.api("POST", "/v1/workouts/generate", user,
                           {"muscles": ["quadriceps"], "equipment": [], "level": "beginner", "minutes": 10, "seed": 2})
        tracked = [item for item in workout["items"] if item.get("poseExercise") == "squat"]
        assert len(tracked) == 1, f"the generated workout should hold one squat item, got {workout['items']}"
        assert tracked[0]["reps"] < SQUAT_REPS <= tracked[0]["reps"] * tracked[0]["sets"], tracked[0]
        return workout, tracked[0]
# What a page that has not rendered yet (or is re-rendering) answers: a wait treats these as "not yet" and keeps
# trying until its deadline, instead of failing at once on a busy machine.
NOT_THERE_YET = (NoSuchElementException, StaleElementReferenceException, NoSuchFrameException)


def wait_until(condition, timeout, what):
    """Calls `condition` until it returns something truthy, which it returns, or fails after `timeout` seconds.
    A condition that finds no element yet, or one that went stale under it, counts as "not yet", not as a failure."""
    return common.wait_until(condition, timeout, what, retry_on=NOT_THERE_YET)


def click_if_present(driver, selector):
    try:
        found = driver.find_elements(By.CSS_SELECTOR, selector)
        if found and found[0].is_displayed():
            found[0].click()
            return True
    # The view re-rendered under the click, or the button is not clickable yet: try again on the next round.
    except NOT_THERE_YET + (ElementNotInteractableException, ElementClickInterceptedException):
        pass
    return False


def play_workout(driver, events, tracked_name, timeout=150, while_counting=None):
    """Clicks through the player as a person would: start, skip rests, finish the timed items; the squat item is
    left to the live counter and the replayed recording. `while_counting()` is called once, when the camera
    counts the squat."""
    wait_until(lambda: click_if_present(driver, "#start"), 20, "the Start button")
    deadline = time.time() + timeout
    while time.time() < deadline:
        if any(e["type"] in ("workout_completed", "finished_workout") for e in events()):
            return
        if click_if_present(driver, "#skip-rest"):
            continue
        try:
            titles = driver.find_elements(By.CSS_SELECTOR, ".player[data-phase='work'] h1")
            if titles and titles[0].text != tracked_name:
                click_if_present(driver, "#finish-exercise")
            elif titles and while_counting and driver.find_elements(By.CSS_SELECTOR, "#rep-count"):
                counting, while_counting = while_counting, None
                counting()
        except NOT_THERE_YET:
            pass
        time.sleep(0.3)
    raise AssertionError("the workout did not complete; events: " + json.dumps([e["type"] for e in events()]))


def screenshot(driver, name, phone=False, scroll_to=None):
    """With FORMA_SCREENSHOTS=<directory> (docs/screenshots), the page in the host's iframe as a person sees it,
    written as a small palette PNG (small_png.py). The driver is in the page's frame before and after. `phone` draws
    the iframe at phone size (360 × 740) for the picture and gives it its size back after; `scroll_to` (a CSS
    selector) scrolls the page to that element first, for a part below the fold."""
    directory = os.environ.get("FORMA_SCREENSHOTS")
    if not directory:
        return
    driver.execute_script("window.scrollTo(0, 0);")
    driver.switch_to.default_content()
    size = driver.get_window_size()
    iframe = driver.find_element(By.ID, "forma")
    style = iframe.get_attribute("style")
    if phone:
        driver.execute_script("arguments[0].style.width = '360px'; arguments[0].style.height = '740px';", iframe)
    # Tall enough for the whole phone-sized iframe to be on screen, then back to the phone.
    driver.set_window_size(max(size["width"], 400), 1100)
    driver.execute_script("window.scrollTo(0, 0);")
    if phone:
        # the page lays itself out again at the new width before the picture
        driver.switch_to.frame(iframe)
        driver.execute_async_script("requestAnimationFrame(() => requestAnimationFrame(arguments[0]));")
        driver.execute_script("const target = arguments[0] && document.querySelector(arguments[0]);"
                              "if (target) target.scrollIntoView({ block: 'start' }); else window.scrollTo(0, 0);",
                              scroll_to)
        driver.switch_to.default_content()
    path = os.path.join(directory, f"{name}.png")
    iframe.screenshot(path)
    shrink(path)
    if phone:
        driver.execute_script("arguments[0].setAttribute('style', arguments[1]);", iframe, style)
    driver.set_window_size(size["width"], size["height"])
    driver.switch_to.frame(driver.find_element(By.ID, "forma"))


def phone_screenshot(driver, name, scroll_to=None):
    """screenshot() of the page at phone size (docs/embed.md shows one of each page)."""
    screenshot(driver, name, phone=True, scroll_to=scroll_to)


def open_in_iframe(harness, src, user, **extra):
    config = {"key": harness.key, "company": "Acme", "userId": user, **extra}
    query = urllib.parse.urlencode({"forma": harness.base, "src": src, "config": json.dumps(config)})
    harness.driver.get(f"{harness.host}/host.html?{query}")
    return lambda: harness.driver.execute_script("return window.formaEvents")


def motion_set(reps, period, seed):
    """A wrist recording at 50 Hz: rest, `reps` vertical strokes `period` seconds apart, rest (gravity included)."""
    import math
    import random
    rng = random.Random(seed)
    accel = []
    rest = 150
    for i in range(rest * 2 + int(reps * period * 50)):
        t = (i - rest) / 50
        stroke = 0.35 * math.sin(2 * math.pi * t / period) if 0 <= t < reps * period else 0
        accel.append([rng.gauss(0, 0.01), -1 + stroke + rng.gauss(0, 0.01), rng.gauss(0, 0.01)])
    recorded = time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime())
    return {"sampleRate": 50, "accel": accel, "recordedAt": recorded}


def chat_state(driver):
    """(field being asked, whether an answer is on its way) as the composer says."""
    composer = driver.find_element(By.ID, "composer")
    if not composer.is_displayed():
        return None, True
    return composer.get_attribute("data-field"), composer.get_attribute("aria-busy") == "true"


def wait_for_question(driver, field, timeout=30):
    wait_until(lambda: chat_state(driver) == (field, False), timeout, f"the question {field}")


def answer(driver, field, choices=(), text=None):
    """Answers the question `field` as a person would: taps quick replies (and Send for a multiple choice), or types
    into the answer box and presses Enter; waits until the trainer has moved on."""
    wait_for_question(driver, field)
    if text is not None:
        box = driver.find_element(By.ID, "answer")
        box.clear()
        box.send_keys(text + "\n")
    else:
        for choice in choices:
            wait_until(lambda: click_if_present(driver, f".quick[data-id='{choice}']"), 10, f"{field}: {choice}")
        if driver.find_elements(By.ID, "send-choices"):
            wait_until(lambda: click_if_present(driver, "#send-choices"), 10, f"{field}: Send")
    wait_until(lambda: chat_state(driver)[0] != field, 30, f"an answer to {field} accepted")


def company_call(harness, method, path, body=None, content_type="application/json"):
    """A company API call with Acme's key, as the company's back end makes it."""
    data = body if isinstance(body, bytes) else (json.dumps(body).encode() if body is not None else None)
    request = urllib.request.Request(harness.base + path, method=method, data=data,
                                     headers={"X-Forma-Key": harness.key, "Content-Type": content_type})
    with urllib.request.urlopen(request, timeout=10) as reply:
        return json.loads(reply.read() or b"null")


def check_axe(driver):
    from axe_selenium_python import Axe

    axe = Axe(driver)
    axe.inject()
    results = axe.run()
    assert not results["violations"], json.dumps(
        [(v["id"], [n["target"] for n in v["nodes"]]) for v in results["violations"]], indent=1)
