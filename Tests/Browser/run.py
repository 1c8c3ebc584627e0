#!/usr/bin/env python3
"""Browser tests of the embedded experience in a real headless Chromium (docs/embed.md, "Tests").

Starts `forma serve` on a free port with a fresh data directory, a company whose allowed origin is a host page served
here on another port, a synthetic squat recording from `forma synthesize`, and drives Chromium through selenium:

1. iframe host: the workout player in an iframe, configuration posted after the launch event, a replayed squat
   recording counted live; checks the event sequence, the rep count, and the saved run on the server.
2. iOS bridge: window.webkit.messageHandlers.listener injected before load, configuration sent with
   window.postMessage after load (seed 000's host), 2023 event names.
3. a timed squat challenge from the same recording: counting stops when the time is up, and the replayed score is
   not ranked; the leaderboard the page shows ranks another person's camera score (played over /v1/live).
4. the camera component: the host names the exercise with {"currentExercise": "squat"}; every repetition reported;
   a host that names it inside its configuration message is honoured too.
5. home: plans of the host's planC first, "Get a workout" generates one and opens the player.
6. a wrong API key gives error_occurred with a message, and the page shows it; the Android and React Native
   bridges receive the events too.
7. the pain map: axe-core finds no violation, a tap and the keyboard choose regions, a saved report reaches the
   server and the host (`pain_reported`), a workout generated afterwards avoids that knee, and the progress chart
   shows the report.
7b. the progress charts draw the stored pain, training and fitness-test values (points, labels, tables), pass
   axe-core, and show empty states to a person with nothing stored.
7c. the trainer's chat at phone size (/embed/trainer): pre-fill not asked, quick replies and typed answers (a refused
   one keeps the question), a reload resumes, the workout played inline (left once: `workout_exit_request`; then to
   the end), the check-in, a proposed time picked and sent to the host as `trainer_schedule_next_workout`; axe-core.
7d. the fitness test at phone size (/embed/fitness-test): tracking from the search, iOS's motion permission refused
   then granted, synthetic `devicemotion` events recorded and counted by the server, no motion said, Skip, the
   result beside the previous one, the level going up, Track / Untrack, `fitness_test_completed`; axe-core; and
   at tablet size, a test started elsewhere carried on to its baseline level; fitness.js's recorder writes the API's
   motion format (sample rate or times, g, deg/s), which the server counts.
7e. home's "Your workouts" grouped into In progress (Resume, Quit) and Saved; axe-core.
7f. a plan's levels as a path (locked, open, done, current; keyboard); spoken cues captioned (a replayed shallow
   squat's cue); the workout summary's movement pictures (reduced motion); home, exercise, competitions, workout,
   player while counting and results at tablet size (overflow, 44 px targets, axe-core).
8. the messages the page sent have exactly the shapes FormaKit's decoding tests know.
9. live.js encodes pose frames byte for byte as the Swift codec does (the golden frames FormaLiveTests writes).

Prints one line per test (`✔ Test <name> passed after <s> seconds.` or `✘ Test <name> failed ...`) and exits non-zero
when any failed. Usage: run.py FORMA_BINARY
"""
import json
import re
import os
import shutil
import sys
import tempfile
import threading
import time
import traceback
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
from common import Server, free_port, session_token  # noqa: E402
from live import play_challenge  # noqa: E402
from small_png import shrink  # noqa: E402

CHROMIUM = os.environ.get("CHROMIUM", "/usr/bin/chromium")
# Messages exactly as the page posted them: FormaKit's event decoding is tested against these (FormaKitTests).
EVENT_FIXTURE = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "FormaKitTests", "Fixtures",
                             "page-events.json")
RECEIVED = []
# Pose frames and the bytes the Swift codec writes for them (FormaLiveTests); live.js must write the same bytes.
GOLDEN_FRAMES = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "Fixtures", "live", "frames.json")
# The core's body-map hits over a grid of figure points (FormaCoreTests); pain-map.js must find the same.
GOLDEN_HITS = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "Fixtures", "body-map", "hits.json")
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



def level_heading(level):
    """A plan level's heading as the page shows it: the number once, then the level's name (the API's title
    already reads "Level 1: Foundations")."""
    prefix = f"Level {level['number']}: "
    name = level["title"][len(prefix):] if level["title"].startswith(prefix) else level["title"]
    return prefix + name

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


def check_workout_events(events, names, workout, tracked):
    types = [e["type"] for e in events]
    reps = [e for e in events if e["type"] == "successful_repeat"]
    completed = [e for e in events if e["type"] == "exercise_completed"]
    finished = [e for e in events if e["type"] == names["workout_completed"]]
    assert types[0] == "kinestex_launched", types
    order = [names["workout_opened"], names["workout_started"]]
    assert [t for t in types if t in order] == order, types
    assert types.index(names["workout_started"]) < types.index("exercise_completed"), types
    assert len(completed) == len(workout["items"]), types
    assert [c["data"]["exerciseId"] for c in completed] == [i["exerciseId"] for i in workout["items"]], completed
    squat = next(c["data"] for c in completed if c["data"]["exerciseId"] == tracked["exerciseId"])
    errors = [e["data"] for e in events if e["type"] == names["error_occurred"]]
    assert squat["repeats"] == SQUAT_REPS, f"squat repeats {squat['repeats']} != {SQUAT_REPS}; {types}; {errors}"
    assert len(reps) == SQUAT_REPS, f"{len(reps)} successful_repeat events"
    assert [r["data"]["repeats"] for r in reps] == list(range(1, SQUAT_REPS + 1)), reps
    assert squat["sets"] == 2 and squat["targetRepeats"] == tracked["sets"] * tracked["reps"], squat
    assert len(finished) == 1 and types[-1] == names["workout_completed"], types
    totals = finished[0]["data"]
    assert totals["workoutId"] == workout["id"] and totals["totalRepeats"] == SQUAT_REPS, totals
    assert totals["exercises"] == len(workout["items"]) and totals["saved"] is True, totals
    assert totals["accuracy"] is not None and 0 <= totals["accuracy"] <= 100, totals


def check_saved_run(harness, user, workout, tracked):
    saved = harness.api("GET", f"/v1/workouts/{workout['id']}", user)
    assert saved["timesCompleted"] == 1, saved
    listed = harness.api("GET", "/v1/workouts?status=completed", user)
    run = next(item["run"] for item in listed["items"] if item["id"] == workout["id"])
    squat = next(r for r in run["results"] if r["exerciseId"] == tracked["exerciseId"])
    assert squat["reps"] == SQUAT_REPS, f"the server saved {squat['reps']} squats"


CURRENT = {"workout_opened": "workout_opened", "workout_started": "workout_started",
           "workout_completed": "workout_completed", "error_occurred": "error_occurred"}
LEGACY = {"workout_opened": "workoutOpened", "workout_started": "workoutStarted",
          "workout_completed": "finished_workout", "error_occurred": "error_occured"}


def test_iframe_host(harness):
    driver = harness.driver
    user = "iframe-user"
    workout, tracked = harness.workout_for(user)
    src = f"{harness.base}/embed/workout/{workout['id']}?company=Acme&replay={harness.host}/squats.json"
    config = {"key": harness.key, "company": "Acme", "userId": user, "age": 34, "height": 172, "weight": 68}
    query = urllib.parse.urlencode({"forma": harness.base, "src": src, "config": json.dumps(config)})
    driver.get(f"{harness.host}/host.html?{query}")
    events = lambda: driver.execute_script("return window.formaEvents")  # noqa: E731
    wait_until(lambda: any(e["type"] == "workout_opened" for e in events()), 30, "workout_opened")
    driver.switch_to.frame(driver.find_element(By.ID, "forma"))
    play_workout(driver, lambda: (driver.switch_to.parent_frame(), events(),
                                  driver.switch_to.frame(driver.find_element(By.ID, "forma")))[1],
                 tracked["name"])
    total = driver.find_element(By.ID, "total-repeats").text
    driver.switch_to.default_content()
    RECEIVED.extend(driver.execute_script("return window.formaRaw"))
    assert total == str(SQUAT_REPS), f"the summary shows {total} repetitions"
    check_workout_events(events(), CURRENT, workout, tracked)
    check_saved_run(harness, user, workout, tracked)
    me = harness.api("GET", "/v1/me", user)
    assert me["age"] == 34 and me["heightCm"] == 172 and me["weightKg"] == 68, me


def shown_range(value, unit):
    """What the page's Intl formatting (English) shows for a stored range of motion."""
    text = ("%.1f" % value).rstrip("0").rstrip(".")
    return f"{text}°" if unit == "degrees" else f"{text} {unit}"


def shown_duration(seconds):
    minutes, rest = divmod(round(seconds), 60)
    if minutes == 0:
        return f"{rest} sec"
    return f"{minutes} min" if rest == 0 else f"{minutes} min {rest} sec"


def play_to_results(harness, user, workout, tracked, style=""):
    """Plays `workout` in the iframe host at phone size with the replayed squats; the events, with the driver left in
    the page's frame on its results screen."""
    driver = harness.driver
    src = f"{harness.base}/embed/workout/{workout['id']}?company=Acme{style}&replay={harness.host}/squats.json"
    events = open_in_iframe(harness, src, user)
    driver.execute_script("document.getElementById('forma').style.width = '360px';")
    wait_until(lambda: any(e["type"] == "workout_opened" for e in events()), 30, "workout_opened")
    frame = lambda: driver.switch_to.frame(driver.find_element(By.ID, "forma"))  # noqa: E731
    frame()
    play_workout(driver, lambda: (driver.switch_to.parent_frame(), events(), frame())[1], tracked["name"])
    wait_until(lambda: driver.find_elements(By.CSS_SELECTOR, ".results #results-title"), 30, "the results screen")
    driver.switch_to.default_content()
    received = events()
    RECEIVED.extend(driver.execute_script("return window.formaRaw"))
    frame()
    return received


def check_results_screen(driver, run, previous_results, previous_run):
    """The screen shows the run's stored values per exercise and the comparison with `previous_results` (exercise id
    → the previous stored result) and `previous_run`."""
    assert driver.execute_script("return document.activeElement && document.activeElement.id") == "results-title"
    for result in run["results"]:
        section = driver.find_element(By.CSS_SELECTOR, f".exercise-result[data-exercise-id='{result['exerciseId']}']")
        field = lambda name: section.find_element(By.CSS_SELECTOR, f"dd[data-field='{name}']")  # noqa: E731
        value = lambda name: field(name).find_element(By.CLASS_NAME, "value").text  # noqa: E731
        if result.get("reps") is not None:
            assert value("reps") == str(result["reps"]), (value("reps"), result)
        if result.get("seconds") is not None:
            assert value("seconds") == shown_duration(result["seconds"]), (value("seconds"), result)
        if result.get("rangeOfMotion") is not None:
            assert value("range") == shown_range(result["rangeOfMotion"], result["rangeOfMotionUnit"]), (
                value("range"), result)
        else:
            assert "not measured" in value("range"), value("range")
        if result.get("formScore") is not None:
            assert value("form") == f"{int(result['formScore'] + 0.5)}%", (value("form"), result)
        before = previous_results.get(result["exerciseId"])
        if before is None:
            assert "First time" in section.text, section.text
            continue
        if before.get("reps") is not None and result.get("reps") is not None:
            said = field("reps").find_element(By.CLASS_NAME, "change").text
            difference = result["reps"] - before["reps"]
            words = ("same as last time" if difference == 0 else
                     f"{abs(difference)} {'more' if difference > 0 else 'fewer'} than last time")
            assert said.startswith(words) and f"({before['reps']} on " in said, (said, words)
        if before.get("rangeOfMotion") is not None and result.get("rangeOfMotion") is not None:
            said = field("range").find_element(By.CLASS_NAME, "change").text
            assert f"({shown_range(before['rangeOfMotion'], before['rangeOfMotionUnit'])} on " in said, said
    totals = driver.find_element(By.ID, "totals")
    total = sum(result.get("reps") or 0 for result in run["results"])
    assert driver.find_element(By.ID, "total-repeats").text == str(total), totals.text
    if previous_run is None:
        assert driver.find_elements(By.ID, "totals-first-time"), totals.text
    else:
        said = totals.find_element(By.CSS_SELECTOR, "dd[data-field='reps'] .change").text
        assert f"({previous_run['totalReps']} on " in said and "last time" in said, said
    for button in driver.find_elements(By.CSS_SELECTOR, ".results button"):
        assert button.size["height"] >= 44 and button.size["width"] >= 44, (button.text, button.size)
    check_axe(driver)


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


def test_results_screen(harness):
    """After a workout the results screen shows, at phone size, what the server stored with the run: per exercise
    repetitions, time, the camera's range of motion and form score; the totals; the second time, each compared in
    words with the first. `workout_completed` carries the same stored results, the previous run and a sentence to
    share. axe-core finds nothing, dark and light."""
    driver = harness.driver
    user = "results-user"
    workout, tracked = harness.workout_for(user)
    driver.set_window_size(390, 844)
    try:
        events = play_to_results(harness, user, workout, tracked)
        first = harness.api("GET", "/v1/workouts?status=completed", user)["items"][0]["run"]
        squat = next(r for r in first["results"] if r["exerciseId"] == tracked["exerciseId"])
        assert squat["reps"] == SQUAT_REPS and squat["rangeOfMotionUnit"] == "degrees", squat
        assert squat["rangeOfMotion"] > 30 and 0 <= squat["formScore"] <= 100, squat
        check_results_screen(driver, first, {}, None)
        screenshot(driver, "results-first-time-dark")
        completed = [e["data"] for e in events if e["type"] == "workout_completed"][-1]
        assert completed["runId"] == first["id"] and completed["previousRun"] is None, completed
        sent = next(r for r in completed["results"] if r["exerciseId"] == tracked["exerciseId"])
        assert (sent["repeats"], sent["rangeOfMotion"], sent["formScore"]) == (
            squat["reps"], squat["rangeOfMotion"], squat["formScore"]), (sent, squat)
        assert workout["name"] in completed["shareText"], completed["shareText"]

        driver.switch_to.default_content()
        events = play_to_results(harness, user, workout, tracked, style="&style=light")
        runs = harness.api("GET", "/v1/workouts?status=completed", user)["items"]
        second = runs[0]["run"]
        assert second["id"] != first["id"] and runs[1]["run"]["id"] == first["id"], runs
        check_results_screen(driver, second, {r["exerciseId"]: r for r in first["results"]},
                             {"totalReps": sum(r.get("reps") or 0 for r in first["results"])})
        assert driver.execute_script("return document.documentElement.dataset.style") == "light"
        screenshot(driver, "results-compared-light")
        completed = [e["data"] for e in events if e["type"] == "workout_completed"][-1]
        assert completed["previousRun"]["runId"] == first["id"], completed
    finally:
        driver.switch_to.default_content()
        driver.set_window_size(600, 1000)


def test_ios_bridge(harness):
    driver = harness.driver
    user = "ios-user"
    workout, tracked = harness.workout_for(user)
    injected = driver.execute_cdp_cmd("Page.addScriptToEvaluateOnNewDocument", {"source": (
        "window.iosMessages = [];"
        "window.webkit = {messageHandlers: {listener: {postMessage: (m) => window.iosMessages.push(m)}}};")})
    try:
        play_ios_host(harness, user, workout, tracked)
    finally:
        driver.execute_cdp_cmd("Page.removeScriptToEvaluateOnNewDocument", {"identifier": injected["identifier"]})


def play_ios_host(harness, user, workout, tracked):
    driver = harness.driver
    # Replay needs the company in the URL: the recording must come from one of its allowed origins.
    driver.get(f"{harness.base}/embed/workout/{workout['id']}?events=2023&company=Acme&replay={harness.host}/squats.json")
    events = lambda: [json.loads(m) for m in driver.execute_script("return window.iosMessages")]  # noqa: E731
    wait_until(lambda: any(e["type"] == "kinestex_launched" for e in events()), 20, "kinestex_launched")
    # What seed 000's WKWebView host evaluates when the page has loaded.
    driver.execute_script("window.postMessage({'key': arguments[0], 'company': 'Acme', 'userId': arguments[1],"
                          " 'planC': 'Strength', 'category': 'Fitness'});", harness.key, user)
    wait_until(lambda: any(e["type"] == "workoutOpened" for e in events()), 30, "workoutOpened")
    play_workout(driver, events, tracked["name"])
    RECEIVED.extend(driver.execute_script("return window.iosMessages"))
    check_workout_events(events(), LEGACY, workout, tracked)
    check_saved_run(harness, user, workout, tracked)
    current_only = set(CURRENT.values()) - set(LEGACY.values())
    assert not [e["type"] for e in events() if e["type"] in current_only], "2023 hosts get only the 2023 names"


def test_challenge(harness):
    driver = harness.driver
    user = "challenger"
    # setup: another person of the company plays the challenge in front of a camera (over /v1/live, as the page
    # would), so the leaderboard holds a ranked score
    harness.api("PATCH", "/v1/me", "rival", {"displayName": "Rival Rosa"})
    with open(os.path.join(harness.work, "squats.json")) as recording:
        frames = json.load(recording)["frames"]
    rival = play_challenge(harness.base, session_token(harness.base, harness.key, "rival"), frames, 10)
    assert len(rival) == 1 and rival[0]["completed"] and rival[0]["ranked"] and rival[0]["reps"] >= 1, rival
    src = f"{harness.base}/embed/challenge?exercise=squat&duration=10&company=Acme&replay={harness.host}/squats.json"
    config = {"key": harness.key, "company": "Acme", "userId": user}
    query = urllib.parse.urlencode({"forma": harness.base, "src": src, "config": json.dumps(config)})
    driver.get(f"{harness.host}/host.html?{query}")
    events = lambda: driver.execute_script("return window.formaEvents")  # noqa: E731
    frame = lambda: driver.switch_to.frame(driver.find_element(By.ID, "forma"))  # noqa: E731
    frame()
    wait_until(lambda: click_if_present(driver, "#start"), 30, "the Start challenge button")
    driver.switch_to.default_content()
    done = wait_until(lambda: [e for e in events() if e["type"] == "exercise_completed"], 60, "exercise_completed")
    result = done[0]["data"]
    reps = [e for e in events() if e["type"] == "successful_repeat"]
    # 12 squats of 2 s each do not fit in 10 s: the server stops counting when the time is up. The recording is
    # replayed, so the score is counted but never ranked (issue 12, finding 6).
    assert result["ranked"] is False and result["challengeSeconds"] == 10, result
    assert 3 <= result["repeats"] < SQUAT_REPS and result["repeats"] == len(reps), (result, len(reps))
    frame()
    wait_until(lambda: "never ranked" in driver.find_element(By.CSS_SELECTOR, ".challenge.finished .caption").text
               if driver.find_elements(By.CSS_SELECTOR, ".challenge.finished .caption") else False, 10, "the verdict")
    # the page's leaderboard ranks the other person's camera score, and not this replayed try
    rows = wait_until(lambda: [[cell.text for cell in row.find_elements(By.TAG_NAME, "td")]
                               for row in driver.find_elements(By.CSS_SELECTOR, "#leaderboard tbody tr")],
                      10, "the leaderboard")
    assert rows == [["1", "Rival Rosa", str(rival[0]["reps"])]], rows
    assert not driver.find_elements(By.CSS_SELECTOR, "#leaderboard tr.me"), "the replayed try has a row"
    assert "(you)" not in driver.find_element(By.ID, "leaderboard").text, rows
    phone_screenshot(driver, "challenge")
    driver.switch_to.default_content()
    board = harness.api("GET", "/v1/challenges/leaderboard?exercise=squat&seconds=10", user)
    assert board.get("me") is None, board
    assert [(entry["name"], entry["reps"]) for entry in board["entries"]] == [("Rival Rosa", rival[0]["reps"])], board
    RECEIVED.extend(driver.execute_script("return window.formaRaw"))


def test_waits_retry_until_the_element_appears(harness):
    """The wait helper itself: an element that is not rendered yet, then re-rendered under the condition (going
    stale), is waited for, not reported missing at the first look. The page renders when the condition's looks
    say so, not on a timer, so each case happens on every machine."""
    driver = harness.driver
    driver.get("data:text/html;charset=utf-8," + urllib.parse.quote("<body></body>"))
    looks, misses = [], []

    def heading_is_ready():
        looks.append(1)
        try:
            if len(looks) == 2:
                driver.execute_script("document.body.innerHTML = '<h1>loading</h1>';")
            heading = driver.find_element(By.TAG_NAME, "h1")  # first look: not there yet
            if len(looks) == 3:
                driver.execute_script("document.body.innerHTML = '<h1>ready</h1>';")  # the heading goes stale
            return heading.text == "ready"
        except NOT_THERE_YET as miss:
            misses.append(type(miss).__name__)
            raise

    assert wait_until(heading_is_ready, 20, "the late heading") is True
    assert misses == ["NoSuchElementException", "StaleElementReferenceException"], misses
    assert len(looks) == 4, f"{len(looks)} looks"
    try:
        wait_until(lambda: driver.find_element(By.ID, "never"), 0.5, "an element that never comes")
        raise AssertionError("a wait for a missing element returned")
    except AssertionError as timeout:
        assert "timed out after 0.5 s" in str(timeout) and "NoSuchElementException" in str(timeout), timeout


def open_in_iframe(harness, src, user, **extra):
    config = {"key": harness.key, "company": "Acme", "userId": user, **extra}
    query = urllib.parse.urlencode({"forma": harness.base, "src": src, "config": json.dumps(config)})
    harness.driver.get(f"{harness.host}/host.html?{query}")
    return lambda: harness.driver.execute_script("return window.formaEvents")


def test_camera_component(harness):
    driver = harness.driver
    events = open_in_iframe(harness, f"{harness.base}/embed/camera?company=Acme&replay={harness.host}/squats.json",
                            "camera-user")
    driver.switch_to.frame(driver.find_element(By.ID, "forma"))
    wait_until(lambda: "Waiting for an exercise" in driver.find_element(By.TAG_NAME, "h1").text, 30, "the camera view")
    driver.switch_to.default_content()
    # The host names the exercise, as a host with its own player does.
    driver.execute_script("document.getElementById('forma').contentWindow.postMessage("
                          "JSON.stringify({currentExercise: 'squat'}), arguments[0]);", harness.base)
    done = wait_until(lambda: [e for e in events() if e["type"] == "exercise_completed"], 90, "exercise_completed")
    reps = [e for e in events() if e["type"] == "successful_repeat"]
    assert done[0]["data"]["exercise"] == "squat" and done[0]["data"]["repeats"] == SQUAT_REPS, done[0]
    assert [r["data"]["repeats"] for r in reps] == list(range(1, SQUAT_REPS + 1)), reps
    RECEIVED.extend(driver.execute_script("return window.formaRaw"))


def test_live_cheer(harness):
    """A follower watches the camera component's live session on the watch socket and cheers: the page shows the
    cheer as its cue, through the page's words (docs/community.md, "Live watching")."""
    import websocket
    driver = harness.driver
    user, fan = "cheered-user", "cheer-fan"
    events = open_in_iframe(harness, f"{harness.base}/embed/camera?company=Acme&replay={harness.host}/squats.json", user)
    harness.api("GET", "/v1/me", user)  # the host's person, made known before the fan follows them
    harness.api("PUT", f"/v1/me/following/{user}", fan)
    driver.switch_to.frame(driver.find_element(By.ID, "forma"))
    wait_until(lambda: "Waiting for an exercise" in driver.find_element(By.TAG_NAME, "h1").text, 30, "the camera view")
    driver.switch_to.default_content()
    driver.execute_script("document.getElementById('forma').contentWindow.postMessage("
                          "JSON.stringify({currentExercise: 'squat'}), arguments[0]);", harness.base)
    # The session stays open after the recording ends (until its idle limit): the fan watches and cheers then.
    wait_until(lambda: [e for e in events() if e["type"] == "exercise_completed"], 90, "exercise_completed")
    profile = harness.api("GET", f"/v1/people/{user}", fan)
    assert profile["liveNow"] and profile.get("liveSessionId"), profile
    socket = websocket.create_connection(
        harness.base.replace("http://", "ws://") + f"/v1/people/{user}/live/watch",
        header=[f"Authorization: Bearer {session_token(harness.base, harness.key, fan)}"], timeout=30)
    try:
        watching = json.loads(socket.recv())
        assert watching["type"] == "watching" and watching["session"] == profile["liveSessionId"], watching
        socket.send(json.dumps({"type": "cheer", "text": "Go, go!"}))
        assert json.loads(socket.recv()) == {"type": "cheer_sent", "text": "Go, go!"}
        driver.switch_to.frame(driver.find_element(By.ID, "forma"))
        wait_until(lambda: "A follower cheers: Go, go!" in driver.find_element(By.ID, "cue").get_attribute("textContent"),
                   30, "the cheer")
        driver.switch_to.default_content()
    finally:
        socket.close()


STAGE_RECORDER = """
window.stageLog = {fractions: [], guidance: [], joints: 0, measured: 0, angles: []};
new MutationObserver((changes) => {
  for (const change of changes) {
    const target = change.target;
    if (target.classList && target.classList.contains('ring') && change.attributeName === 'data-fraction') {
      window.stageLog.fractions.push(Number(target.dataset.fraction));
    }
    if (target.id === 'guidance' && change.attributeName === 'hidden') {
      window.stageLog.guidance.push(target.hidden ? '' : target.textContent);
    }
  }
  const drawn = document.querySelectorAll('#overlay circle.joint[cx]').length;
  window.stageLog.joints = Math.max(window.stageLog.joints, drawn);
  window.stageLog.measured = Math.max(window.stageLog.measured,
    document.querySelectorAll('#overlay circle.joint.measured').length);
  const angle = document.querySelector('#overlay text.angle');
  if (angle && angle.textContent) window.stageLog.angles.push(angle.textContent);
}).observe(document.body, {subtree: true, attributes: true, attributeFilter: ['data-fraction', 'hidden', 'cx', 'class']});
"""


def test_camera_stage(harness):
    """The camera stage while a recording replays: the 33 landmarks drawn, the 3 of the knee angle highlighted with
    its value in degrees, the ring filling to full and emptying with the server's progress events for every
    repetition, its count ending at the page's count, and guidance while the person is out of the picture (frames
    without a person in the middle of the recording), gone when they return. A recorder installed in the page keeps
    every change, so nothing depends on how fast the test looks."""
    driver = harness.driver
    with open(os.path.join(harness.work, "squats.json")) as original:
        recording = json.load(original)
    for frame in recording["frames"]:
        if 7.0 <= frame["t"] < 10.0:
            frame["landmarks"] = None
    with open(os.path.join(harness.work, "squats-away.json"), "w") as away:
        json.dump(recording, away)
    events = open_in_iframe(harness, f"{harness.base}/embed/camera?company=Acme&replay={harness.host}/squats-away.json",
                            "stage-user")
    driver.switch_to.frame(driver.find_element(By.ID, "forma"))
    wait_until(lambda: "Waiting for an exercise" in driver.find_element(By.TAG_NAME, "h1").text, 30, "the camera view")
    driver.execute_script(STAGE_RECORDER)
    driver.switch_to.default_content()
    driver.execute_script("document.getElementById('forma').contentWindow.postMessage("
                          "JSON.stringify({currentExercise: 'squat'}), arguments[0]);", harness.base)
    if os.environ.get("FORMA_SCREENSHOTS"):
        driver.switch_to.frame(driver.find_element(By.ID, "forma"))
        wait_until(lambda: int(driver.find_element(By.CSS_SELECTOR, "#overlay g.ring").get_attribute("data-count")) >= 3,
                   60, "three repetitions for the picture")
        phone_screenshot(driver, "camera")
        driver.switch_to.default_content()
    done = wait_until(lambda: [e for e in events() if e["type"] == "exercise_completed"], 120, "exercise_completed")
    counted = done[0]["data"]["repeats"]
    driver.switch_to.frame(driver.find_element(By.ID, "forma"))
    log = driver.execute_script("return window.stageLog")
    ring_count = driver.find_element(By.CSS_SELECTOR, "#overlay g.ring").get_attribute("data-count")
    driver.switch_to.default_content()

    assert log["joints"] == 33, log["joints"]
    assert log["measured"] == 3, log["measured"]
    assert log["angles"] and all(re.fullmatch(r"\d{2,3}°", a) for a in log["angles"]), log["angles"][:10]
    # every counted repetition filled the ring and it emptied after: count the climbs to full
    fills, low = 0, True
    for fraction in log["fractions"]:
        if low and fraction >= 1:
            fills, low = fills + 1, False
        elif fraction <= 0.2:
            low = True
    assert counted >= SQUAT_REPS - 2 and fills == counted, (counted, fills, log["fractions"][:80])
    assert ring_count == str(counted), ring_count
    shown = [g for g in log["guidance"] if g]
    assert shown and shown[0].startswith("Move back into the picture"), log["guidance"]
    assert log["guidance"][-1] == "", "the guidance went away when the person came back"
    assert [e["type"] for e in events() if e["type"] in ("left_camera_frame", "returned_camera_frame")] == \
        ["left_camera_frame", "returned_camera_frame"]


CAPTION_RECORDER = """
window.spokenLog = [];
window.captionLog = [];
if ('speechSynthesis' in window) {
  const speak = window.speechSynthesis.speak.bind(window.speechSynthesis);
  window.speechSynthesis.speak = (utterance) => { window.spokenLog.push(utterance.text); speak(utterance); };
}
const look = () => {
  const cue = document.getElementById('cue');
  if (!cue || !cue.textContent) return;
  const box = cue.getBoundingClientRect();
  const entry = {text: cue.textContent, role: cue.getAttribute('role'), shown: !cue.classList.contains('visually-hidden')
                 && box.width > 20 && box.height > 10, color: getComputedStyle(cue).color,
                 background: getComputedStyle(cue).backgroundColor};
  const last = window.captionLog[window.captionLog.length - 1];
  if (!last || last.text !== entry.text || last.shown !== entry.shown) window.captionLog.push(entry);
};
new MutationObserver(look).observe(document.body, {childList: true, subtree: true, characterData: true});
"""


def test_spoken_cues_are_captioned(harness):
    """A replayed squat recording whose first repetition is too shallow: the server's cue ("partial") is spoken and,
    the same words, shown as a caption in the live region (#cue, role status), white on near-black; unticking
    "Show captions" hides the caption and keeps the live region; `?captions=off` starts with it hidden."""
    driver = harness.driver
    with open(os.path.join(harness.work, "squats.json")) as original:
        recording = json.load(original)
    standing = recording["frames"][0]["landmarks"]
    for frame in recording["frames"]:
        if 1.0 <= frame["t"] < 3.0 and frame["landmarks"]:
            frame["landmarks"] = [[s + 0.45 * (p - s) for s, p in zip(rest[:3], point[:3])] + point[3:]
                                  for rest, point in zip(standing, frame["landmarks"])]
    with open(os.path.join(harness.work, "squats-shallow.json"), "w") as shallow:
        json.dump(recording, shallow)
    for captions in ("", "&captions=off"):
        events = open_in_iframe(
            harness, f"{harness.base}/embed/camera?company=Acme{captions}&replay={harness.host}/squats-shallow.json",
            "caption-user")
        driver.switch_to.frame(driver.find_element(By.ID, "forma"))
        wait_until(lambda: "Waiting for an exercise" in driver.find_element(By.TAG_NAME, "h1").text, 30, "the camera")
        driver.execute_script(CAPTION_RECORDER)
        driver.switch_to.default_content()
        driver.execute_script("document.getElementById('forma').contentWindow.postMessage("
                              "JSON.stringify({currentExercise: 'squat'}), arguments[0]);", harness.base)
        cues = wait_until(lambda: [e["data"]["message"] for e in events() if e["type"] == "mistake"], 90, "a cue")
        driver.switch_to.frame(driver.find_element(By.ID, "forma"))
        log = wait_until(lambda: driver.execute_script("return window.captionLog") or None, 10, "the caption")
        spoken = driver.execute_script("return window.spokenLog")
        assert log[0]["text"] == cues[0] and log[0]["role"] == "status", (log, cues)
        if spoken:
            assert spoken[0] == cues[0], (spoken, cues)
        toggle = driver.find_element(By.ID, "captions-toggle")
        if captions:
            assert not log[0]["shown"] and not toggle.is_selected(), log
        else:
            assert log[0]["shown"] and log[0]["color"] == "rgb(255, 255, 255)", log
            assert toggle.is_selected()
            check_axe(driver)
            phone_screenshot(driver, "camera-caption")
            driver.find_element(By.CSS_SELECTOR, "label.captions-toggle").click()
            cue = driver.find_element(By.ID, "cue")
            assert "visually-hidden" in cue.get_attribute("class") and cue.get_attribute("role") == "status", \
                cue.get_attribute("outerHTML")
        label = driver.find_element(By.CSS_SELECTOR, "label.captions-toggle")
        assert label.size["height"] >= 44, label.size
        driver.switch_to.default_content()
        wait_until(lambda: [e for e in events() if e["type"] == "exercise_completed"], 120, "exercise_completed")


def test_camera_component_exercise_in_the_configuration(harness):
    """A host that names the exercise inside its configuration message (issue 12, finding 9) is honoured."""
    driver = harness.driver
    src = f"{harness.base}/embed/camera?company=Acme&replay={harness.host}/squats.json"
    config = {"key": harness.key, "company": "Acme", "userId": "camera-config-user", "currentExercise": "squat"}
    query = urllib.parse.urlencode({"forma": harness.base, "src": src, "config": json.dumps(config)})
    driver.get(f"{harness.host}/host.html?{query}")
    events = lambda: driver.execute_script("return window.formaEvents")  # noqa: E731
    first = wait_until(lambda: [e for e in events() if e["type"] == "successful_repeat"], 90, "a counted repetition")
    assert first[0]["data"]["exercise"] == "squat" and first[0]["data"]["repeats"] == 1, first


def test_home_generates_a_workout(harness):
    driver = harness.driver
    events = open_in_iframe(harness, f"{harness.base}/embed/?company=Acme&planC=Cardio", "home-user")
    driver.switch_to.frame(driver.find_element(By.ID, "forma"))
    cards = wait_until(lambda: driver.find_elements(By.CSS_SELECTOR, "#plans .card span"), 30, "the plans")
    categories = [card.text.split(" · ")[0] for card in cards]
    assert categories[0] == "Cardio" and categories == sorted(categories, key=lambda c: c != "Cardio"), categories
    wait_until(lambda: driver.find_elements(By.CSS_SELECTOR, "#muscle option[value='quadriceps']"), 10, "muscles")
    driver.execute_script("document.getElementById('muscle').value = 'quadriceps';"
                          "document.getElementById('minutes').value = '10';")
    driver.find_element(By.ID, "generate").click()
    wait_until(lambda: driver.find_elements(By.ID, "start"), 30, "the workout summary")
    title = driver.find_element(By.CSS_SELECTOR, ".summary h1").text
    driver.switch_to.default_content()
    opened = wait_until(lambda: [e for e in events() if e["type"] == "workout_opened"], 10, "workout_opened")
    assert opened[0]["data"]["title"] == title and "Quadriceps" in title, (opened, title)
    saved = harness.api("GET", f"/v1/workouts/{opened[0]['data']['id']}", "home-user")
    assert saved["minutes"] == 10, saved
    RECEIVED.extend(driver.execute_script("return window.formaRaw"))


def test_wrong_key(harness):
    driver = harness.driver
    src = f"{harness.base}/embed/?company=Acme"
    config = {"key": "fk_" + "0" * 40, "company": "Acme", "userId": "someone"}
    query = urllib.parse.urlencode({"forma": harness.base, "src": src, "config": json.dumps(config)})
    driver.get(f"{harness.host}/host.html?{query}")
    events = lambda: driver.execute_script("return window.formaEvents")  # noqa: E731
    errors = wait_until(lambda: [e for e in events() if e["type"] == "error_occurred"], 30, "error_occurred")
    assert errors[0]["data"]["code"] == "unauthorized", errors
    assert "API key" in errors[0]["data"]["message"], errors
    driver.switch_to.frame(driver.find_element(By.ID, "forma"))
    shown = driver.find_element(By.ID, "error").text
    driver.switch_to.default_content()
    assert "API key" in shown, f"the page shows {shown!r}"
    RECEIVED.extend(driver.execute_script("return window.formaRaw"))


def test_android_and_react_native_bridges(harness):
    """Seed 000's other hosts: events go to window.messageHandler (Android) or window.ReactNativeWebView."""
    driver = harness.driver
    for bridge in ("messageHandler", "ReactNativeWebView"):
        injected = driver.execute_cdp_cmd("Page.addScriptToEvaluateOnNewDocument", {"source": (
            f"window.bridgeMessages = []; window.{bridge} = {{postMessage: (m) => window.bridgeMessages.push(m)}};")})
        try:
            driver.get(f"{harness.base}/embed/")
            messages = lambda: [json.loads(m) for m in driver.execute_script("return window.bridgeMessages")]  # noqa: E731
            wait_until(lambda: any(m["type"] == "kinestex_launched" for m in messages()), 20, f"{bridge}: launched")
            driver.execute_script("window.postMessage({key: 'fk_wrong', company: 'Acme', userId: 'u'});")
            errors = wait_until(lambda: [m for m in messages() if m["type"] == "error_occurred"], 20,
                                f"{bridge}: error_occurred")
            assert errors[0]["data"]["code"] == "unauthorized", (bridge, errors)
        finally:
            driver.execute_cdp_cmd("Page.removeScriptToEvaluateOnNewDocument", {"identifier": injected["identifier"]})


def test_pain_map(harness):
    """/embed/pain-map: every region a labelled control (axe-core finds no violation), a tap and the keyboard choose
    regions, the intensity is set with the arrow keys, save stores the report and tells the host `pain_reported`, and
    a workout generated afterwards leaves out what loads that knee."""
    from axe_selenium_python import Axe
    from selenium.webdriver.common.action_chains import ActionChains
    from selenium.webdriver.common.keys import Keys
    from selenium.webdriver.support.ui import Select

    driver = harness.driver
    user = "pain-user"
    events = open_in_iframe(harness, f"{harness.base}/embed/pain-map?company=Acme", user)
    driver.switch_to.frame(driver.find_element(By.ID, "forma"))
    knee = "g.region[data-region='knee'][data-side='left'][data-view='front']"
    wait_until(lambda: driver.find_elements(By.CSS_SELECTOR, knee), 30, "the body map")
    regions = driver.find_elements(By.CSS_SELECTOR, "g.region")
    # front: 8 paired regions and neck, chest, abdomen; back: 9 paired regions and neck, upper and lower back
    assert len(regions) == (2 * 8 + 3) + (2 * 9 + 3), len(regions)
    assert all(r.get_attribute("role") == "button" and r.get_attribute("tabindex") == "0" and r.get_attribute("aria-label")
               for r in regions)
    axe = Axe(driver)
    axe.inject()
    results = axe.run()
    assert not results["violations"], json.dumps(
        [(v["id"], [n["target"] for n in v["nodes"]]) for v in results["violations"]], indent=1)

    # keyboard: focus the left wrist and press Enter
    wrist = driver.find_element(By.CSS_SELECTOR, "g.region[data-region='wrist'][data-side='left'][data-view='back']")
    driver.execute_script("arguments[0].focus();", wrist)
    ActionChains(driver).send_keys(Keys.ENTER).perform()
    wait_until(lambda: "Left wrist and hand" in driver.find_element(By.ID, "selected").text, 5, "the keyboard choice")
    assert wrist.get_attribute("aria-pressed") == "true"

    # tap the left knee on the front figure
    driver.find_element(By.CSS_SELECTOR, knee).click()
    wait_until(lambda: driver.find_element(By.ID, "selected").text == "Selected: Left knee", 5, "the tapped knee")
    assert driver.find_element(By.CSS_SELECTOR, knee).get_attribute("aria-pressed") == "true"
    assert wrist.get_attribute("aria-pressed") == "false"
    intensity = driver.find_element(By.ID, "intensity")
    driver.execute_script("arguments[0].focus();", intensity)
    ActionChains(driver).send_keys(*([Keys.ARROW_RIGHT] * 8)).perform()
    assert driver.find_element(By.ID, "intensity-value").text == "8"
    Select(driver.find_element(By.ID, "kind")).select_by_value("sharp")
    Select(driver.find_element(By.ID, "when")).select_by_value("movement")
    driver.find_element(By.ID, "note").send_keys("after the stairs")
    driver.find_element(By.ID, "save").click()
    wait_until(lambda: driver.find_element(By.ID, "saved").text == "Saved: Left knee, 8/10.", 10, "the saved report")
    wait_until(lambda: driver.find_elements(By.CSS_SELECTOR, "#current li[data-region='knee']"), 10, "the current pain")
    assert "severe" in driver.find_element(By.CSS_SELECTOR, knee).get_attribute("class")
    phone_screenshot(driver, "pain-map")
    driver.switch_to.default_content()

    reported = wait_until(lambda: [e for e in events() if e["type"] == "pain_reported"], 10, "pain_reported")
    data = reported[0]["data"]
    assert (data["region"], data["side"], data["intensity"], data["kind"], data["when"]) == \
        ("knee", "left", 8, "sharp", "movement"), data
    RECEIVED.extend(raw for raw in driver.execute_script("return window.formaRaw") if "pain_reported" in raw)
    log = harness.api("GET", "/v1/me/pain-reports?region=knee", user)
    assert log["total"] == 1 and log["items"][0]["id"] == data["id"] and log["items"][0]["note"] == "after the stairs", log

    # a workout generated now spares the knee, and says which exercises it left out
    request = {"categories": ["strength"], "equipment": ["barbell", "dumbbell"], "level": "intermediate",
               "minutes": 30, "seed": 11}
    workout = harness.api("POST", "/v1/workouts/generate", user, request)
    assert "knee" in workout["request"]["avoidRegions"], workout["request"]
    left_out = {item["exerciseId"] for item in workout["pain"]["leftOut"]}
    assert left_out and all(item["region"] == "knee" for item in workout["pain"]["leftOut"]), workout["pain"]
    assert not left_out & {item["exerciseId"] for item in workout["items"]}, workout["items"]
    painless = harness.api("POST", "/v1/workouts/generate", "painless-user", request)
    assert "pain" not in painless and left_out & {item["exerciseId"] for item in painless["items"]}, painless["items"]

    # and the progress chart shows the report
    check_progress_shows_the_report(harness, user, log["items"][0])


def chart_points(driver, section):
    """What a chart section drew: (series, label, value) of every data mark, in document order."""
    return [(mark.get_attribute("data-series"), mark.get_attribute("data-label"), float(mark.get_attribute("data-value")))
            for mark in driver.find_elements(By.CSS_SELECTOR, f"#{section} svg.chart [data-value]")]


def open_progress(harness, user):
    """/embed/progress in the iframe host; returns the events getter once the three sections are drawn."""
    driver = harness.driver
    events = open_in_iframe(harness, f"{harness.base}/embed/progress?company=Acme", user)
    driver.switch_to.frame(driver.find_element(By.ID, "forma"))
    wait_until(lambda: len(driver.find_elements(By.CSS_SELECTOR, "section.chart-block")) == 3, 30, "the charts")
    return events


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


def test_progress_charts(harness):
    """/embed/progress draws the stored values: a point per pain day and region at the day's highest pain, a bar
    per week of the saved runs' minutes and repetitions, each fitness test beside the previous one; a table holds the
    same values for screen readers (axe-core finds no violation); a person with nothing stored sees empty states."""
    from axe_selenium_python import Axe
    from datetime import datetime, timedelta, timezone

    driver = harness.driver
    user = "progress-user"
    # the reports' moments only; what the charts should show comes from the server's answers (its dates, its weeks),
    # so midnight or Monday passing during the test changes nothing
    today = datetime.now(timezone.utc).replace(hour=12, minute=0, second=0, microsecond=0)
    # the runs first: with the knee in pain, a quadriceps workout would be refused
    created = []
    for reps in (30, 12):
        workout = harness.api("POST", "/v1/workouts/generate", user,
                              {"muscles": ["quadriceps"], "equipment": [], "level": "beginner", "minutes": 10})
        created.append(workout["createdAt"])
        harness.api("POST", f"/v1/workouts/{workout['id']}/start", user)
        harness.api("POST", f"/v1/workouts/{workout['id']}/save", user,
                    {"results": [{"exerciseId": workout["items"][0]["exerciseId"], "reps": reps}]})
    day = {}  # days back -> the day the server stored the report on (UTC, the person's time zone)
    for region, side, intensity, back in [("knee", "left", 3, 20), ("knee", "right", 6, 9), ("knee", "left", 2, 9),
                                          ("knee", "left", 4, 3), ("lower back", "both", 5, 9)]:
        stamp = (today - timedelta(days=back)).isoformat().replace("+00:00", "Z")
        report = harness.api("POST", "/v1/me/pain-reports", user, {"region": region, "side": side, "intensity": intensity,
                                                                   "kind": "aching", "when": "movement", "reportedAt": stamp})
        day[back] = report["reportedAt"][:10]
    harness.api("PUT", "/v1/me/tracked-exercises/Pushups", user)
    tests = []
    for reps, period, seed in ((8, 2.5, 1), (10, 2.0, 2)):
        test = harness.api("POST", "/v1/fitness-tests", user, {"category": "strength", "exerciseIds": ["Pushups"]})
        tests.append(harness.api("POST", f"/v1/fitness-tests/{test['id']}/exercises/Pushups/motion", user,
                                 motion_set(reps, period, seed)))
    assert all(test["status"] == "completed" for test in tests), tests

    def opened_with_training():
        """The page and the server's training weeks as the page drew them: opened again if Monday passed between."""
        for _ in range(2):
            events = open_progress(harness, user)
            training = harness.api("GET", "/v1/me/progress/training", user)
            drawn = [label for series, label, _ in chart_points(driver, "training-chart") if series == "repetitions"]
            if drawn == [week["weekStart"] for week in training["weeks"]]:
                return events, training
            driver.switch_to.default_content()
        raise AssertionError(f"the drawn weeks {drawn} are not the server's {training['weeks']}")

    events, training = opened_with_training()
    axe = Axe(driver)
    axe.inject()
    results = axe.run()
    assert not results["violations"], json.dumps(
        [(v["id"], [n["target"] for n in v["nodes"]]) for v in results["violations"]], indent=1)
    phone_screenshot(driver, "progress")

    # pain: head to foot, one point per day with reports, at the day's highest
    assert chart_points(driver, "pain-chart") == [
        ("Lower back", day[9], 5), ("Knee", day[20], 3), ("Knee", day[9], 6), ("Knee", day[3], 4)]
    legend = [item.text for item in driver.find_elements(By.CSS_SELECTOR, "#pain-chart .legend li")]
    assert legend == ["Lower back", "Knee"], legend
    titles = {text.get_attribute("textContent") for text in driver.find_elements(By.CSS_SELECTOR, "#pain-chart .axis-title")}
    assert titles == {"Pain (0–10)", "Day"}, titles
    rows = [[cell.get_attribute("textContent") for cell in row.find_elements(By.CSS_SELECTOR, "th, td")]
            for row in driver.find_elements(By.CSS_SELECTOR, "#pain-chart table tbody tr")]
    assert [row[1:] for row in rows] == [["Lower back", "5", "1"], ["Knee", "3", "1"], ["Knee", "6", "2"],
                                         ["Knee", "4", "1"]], rows

    # training: twelve weeks, this week's bars carry the saved repetitions and the minutes the server summed
    marks = chart_points(driver, "training-chart")
    weeks = training["weeks"]
    assert len(weeks) == 12 and len(marks) == 24, marks
    assert [value for series, _, value in marks if series == "repetitions"] == [w["repetitions"] for w in weeks]
    assert [value for series, _, value in marks if series == "minutes"] == [w["minutes"] for w in weeks]
    # the runs' week: the Monday on or before the day the server created the last workout (both saved around it)
    run_day = datetime.strptime(created[-1][:10], "%Y-%m-%d")
    run_week = (run_day - timedelta(days=run_day.weekday())).strftime("%Y-%m-%d")
    assert [(w["weekStart"], w["repetitions"]) for w in weeks if w["repetitions"]] == [(run_week, 42)], weeks
    assert ("repetitions", run_week, 42) in marks, marks

    # fitness tests: the second test beside the first
    rate = lambda result: round(result["ratePerMinute"] * 10) / 10  # noqa: E731
    first, second = (test["exercises"][0]["result"] for test in tests)
    assert chart_points(driver, "fitness-chart") == [
        ("This test", tests[0]["completedAt"][:10], rate(first)), ("Previous test", tests[1]["completedAt"][:10], rate(first)),
        ("This test", tests[1]["completedAt"][:10], rate(second))]
    cells = [cell.get_attribute("textContent") for cell in driver.find_elements(By.CSS_SELECTOR, "#fitness-chart tbody td")]
    assert cells[0] == str(first["reps"]) and cells[5] == str(second["reps"]), cells
    driver.switch_to.default_content()
    opened = wait_until(lambda: [e for e in events() if e["type"] == "progress_opened"], 10, "progress_opened")
    assert opened[0]["data"]["painRegions"] == 2 and opened[0]["data"]["fitnessExercises"] == 1, opened
    RECEIVED.extend(raw for raw in driver.execute_script("return window.formaRaw") if "progress_opened" in raw)

    # nothing stored: each section says so
    open_progress(harness, "newcomer")
    empty = [p.text for p in driver.find_elements(By.CSS_SELECTOR, "p.empty")]
    assert empty == ["No pain reported in this period.", "No saved workouts in this period.",
                     "No fitness tests completed in this period."], empty
    assert not driver.find_elements(By.CSS_SELECTOR, "svg.chart")
    driver.switch_to.default_content()


# ---- the trainer's chat (/embed/trainer, docs/trainer.md "The page")

def chat_state(driver):
    """(field being asked, whether an answer is on its way) as the composer says."""
    composer = driver.find_element(By.ID, "composer")
    if not composer.is_displayed():
        return None, True
    return composer.get_attribute("data-field"), composer.get_attribute("aria-busy") == "true"


def wait_for_question(driver, field, timeout=30):
    wait_until(lambda: chat_state(driver) == (field, False), timeout, f"the question {field}")


def transcript(driver):
    return [(item.get_attribute("class"), item.find_element(By.CSS_SELECTOR, ".text").text)
            for item in driver.find_elements(By.CSS_SELECTOR, "#messages li")]


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


def answer_through_a_lost_response(driver, field, choice, label):
    """The first answer's response is lost on its way back (the server applied it): the page sends it again with the
    same client id, and the conversation advances once."""
    wait_for_question(driver, field)
    driver.execute_script("""
        window.repliesSent = [];
        const real = window.fetch;
        let dropped = false;
        window.fetch = async (url, init) => {
          const reply = init && init.method === 'POST' && String(url).endsWith('/replies');
          if (reply) window.repliesSent.push(JSON.parse(init.body));
          const response = await real(url, init);
          if (reply && !dropped) {
            dropped = true;
            throw new TypeError('the response was lost');
          }
          return response;
        };""")
    people = len(driver.find_elements(By.CSS_SELECTOR, "#messages li.person"))
    answer(driver, field, [choice])
    sent = driver.execute_script("return window.repliesSent")
    assert len(sent) == 2 and sent[0] == sent[1] and sent[0]["clientId"], sent
    mine = [item.text for item in driver.find_elements(By.CSS_SELECTOR, "#messages li.person .text")]
    assert len(mine) == people + 1 and mine[-1] == label, mine


def answer_by_keyboard(driver, field, first_choice):
    """After an answer, focus is on the new question's first quick reply: Enter answers it."""
    from selenium.webdriver.common.keys import Keys
    wait_for_question(driver, field)
    focused = wait_until(lambda: driver.switch_to.active_element.get_attribute("data-id") == first_choice, 10,
                         f"focus on {first_choice}")
    assert focused
    driver.switch_to.active_element.send_keys(Keys.ENTER)
    wait_until(lambda: chat_state(driver)[0] != field, 30, f"an answer to {field} by keyboard")


def play_inline(driver, events, tracked, timeout=240):
    """The inline player, clicked through as a person would: rests skipped, exercises the camera does not count
    finished by hand, the counted squat left to the replayed recording; returns when the chat is back."""
    deadline = time.time() + timeout
    while time.time() < deadline:
        if any(e["type"] == "workout_completed" for e in events()) and chat_state(driver)[0] != "workoutResult" \
                and not driver.find_elements(By.CSS_SELECTOR, "#trainer-player .player"):
            return
        if click_if_present(driver, "#trainer-player #skip-rest"):
            continue
        try:
            titles = driver.find_elements(By.CSS_SELECTOR, "#trainer-player .player[data-phase='work'] h1")
            if titles and titles[0].text not in tracked:
                click_if_present(driver, "#trainer-player #finish-exercise")
        except NOT_THERE_YET:
            pass
        time.sleep(0.3)
    raise AssertionError("the inline workout did not complete; events: " + json.dumps([e["type"] for e in events()]))


def test_trainer_chat(harness):
    """The whole chat at phone size: the host's pre-fill is not asked again; profile answers by quick replies and
    typed text (a refused one shows the server's message and keeps the question); a reload mid-chat resumes at the
    same question with the transcript intact; the readiness check; the workout played inline with the replayed
    recording (left early once: `workout_exit_request` and back to the chat; then to the end, which answers the
    workout question); the check-in; a proposed time picked, which the host gets as `trainer_schedule_next_workout`
    with exactly that `scheduledFor`; axe-core finds no violation."""
    from axe_selenium_python import Axe

    driver = harness.driver
    user = "trainee"
    src = (f"{harness.base}/embed/trainer?company=Acme&age=34&gender=female&heightCm=0&weightKg="
           f"&replay={harness.host}/squats.json")
    config = {"key": harness.key, "company": "Acme", "userId": user}
    query = urllib.parse.urlencode({"forma": harness.base, "src": src, "config": json.dumps(config)})
    driver.set_window_size(390, 844)
    try:
        driver.get(f"{harness.host}/host.html?{query}")
        driver.execute_script("document.getElementById('forma').style.width = '360px';")
        trainer_conversation(harness, driver, user, src)
    finally:
        driver.switch_to.default_content()
        driver.set_window_size(600, 1000)


def trainer_conversation(harness, driver, user, src):
    from axe_selenium_python import Axe

    events = lambda: driver.execute_script("return window.formaEvents")  # noqa: E731
    frame = lambda: driver.switch_to.frame(driver.find_element(By.ID, "forma"))  # noqa: E731
    from_frame = lambda: (driver.switch_to.default_content(), events(), frame())[1]  # noqa: E731
    frame()
    # the pre-fill (age, gender) is not asked; the zero height and empty weight are
    wait_for_question(driver, "height")
    asked = [item.get_attribute("data-field") for item in driver.find_elements(By.CSS_SELECTOR, "#messages li.trainer")]
    assert "age" not in asked and "gender" not in asked, asked
    axe = Axe(driver)
    axe.inject()
    results = axe.run()
    assert not results["violations"], json.dumps(
        [(v["id"], [n["target"] for n in v["nodes"]]) for v in results["violations"]], indent=1)
    phone_screenshot(driver, "trainer")
    # a typed answer the server cannot read: its message beside the box, the question kept
    box = driver.find_element(By.ID, "answer")
    box.send_keys("very tall\n")
    message = wait_until(lambda: driver.find_element(By.ID, "answer-error").text, 20, "the refusal")
    assert chat_state(driver) == ("height", False), chat_state(driver)
    assert driver.find_element(By.ID, "answer").get_attribute("aria-invalid") == "true"
    answer(driver, "height", text="5'11\"")
    answer(driver, "weight", text="76 kg")
    answer_through_a_lost_response(driver, "goal", "strength", "Get stronger")
    answer_by_keyboard(driver, "experience", "beginner")
    answer(driver, "equipment", ["none"])
    wait_for_question(driver, "trainingDays")

    # a reload mid-chat resumes at the same question, the transcript intact
    before = transcript(driver)
    driver.switch_to.default_content()
    driver.execute_script("document.getElementById('forma').src = arguments[0];", src)
    frame()
    wait_until(lambda: transcript(driver) == before and chat_state(driver) == ("trainingDays", False), 30,
               "the resumed conversation")
    assert sum(1 for e in from_frame() if e["type"] == "kinestex_launched") == 2, from_frame()

    answer(driver, "trainingDays", ["monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday"])
    answer(driver, "sessionMinutes", text="20 min")
    answer(driver, "preferredTimes", ["morning", "evening"])
    answer(driver, "painfulRegions", ["none"])
    profile = harness.api("GET", "/v1/me", user)
    assert profile["heightCm"] == 180.3 and profile["weightKg"] == 76, profile
    for field in ("sleepQuality", "fatigue", "muscleSoreness", "stress"):
        answer(driver, field, ["2"])
    answer(driver, "painRegions", ["none"])

    # the workout, inline: left early once, then played to the end
    wait_for_question(driver, "workoutResult")
    conversation = harness.api("POST", "/v1/trainer/conversations", user, {})
    workout = conversation["workout"]
    assert conversation["decision"]["kind"] == "train_as_planned", conversation["decision"]
    shown = [li.get_attribute("data-exercise-id") for li in driver.find_elements(By.CSS_SELECTOR, "#trainer-workout li")]
    assert shown == [item["exerciseId"] for item in workout["items"]], shown
    wait_until(lambda: click_if_present(driver, "#start-workout"), 10, "Start workout")
    wait_until(lambda: click_if_present(driver, "#trainer-player .player #exit"), 30, "the player's Exit")
    driver.switch_to.default_content()
    exits = wait_until(lambda: [e for e in events() if e["type"] == "workout_exit_request"], 20, "workout_exit_request")
    assert exits[0]["data"]["workoutId"] == workout["workoutId"], exits
    assert not [e for e in events() if e["type"] == "exit_kinestex"], "leaving the workout is not leaving the trainer"
    frame()
    wait_for_question(driver, "workoutResult")
    assert driver.find_element(By.ID, "trainer-player").get_attribute("hidden") is not None
    # what the camera counts (repetitions of a squat) is left to the replayed recording; the rest is ticked off
    tracked = {item["name"] for item in workout["items"] if item.get("poseExercise") == "squat" and item.get("reps")}
    wait_until(lambda: click_if_present(driver, "#start-workout"), 10, "Start workout again")
    play_inline(driver, from_frame, tracked)

    # the check-in, then a proposed time
    answer(driver, "sessionRPE", ["3"])
    answer(driver, "feeling", ["good"])
    answer(driver, "painAfterRegions", ["none"])
    wait_for_question(driver, "scheduledFor")
    proposals = [button.get_attribute("data-id") for button in driver.find_elements(By.CSS_SELECTOR, "#quick-replies .quick")]
    assert proposals[-1] == "skip" and len(proposals) >= 2, proposals
    picked = proposals[1] if len(proposals) > 2 else proposals[0]
    answer(driver, "scheduledFor", [picked])
    wait_until(lambda: chat_state(driver)[0] == "finished", 20, "the end of the conversation")
    axe.inject()  # the page was loaded again since the first run
    results = axe.run()
    assert not results["violations"], json.dumps(
        [(v["id"], [n["target"] for n in v["nodes"]]) for v in results["violations"]], indent=1)
    driver.switch_to.default_content()

    scheduled = wait_until(lambda: [e for e in events() if e["type"] == "trainer_schedule_next_workout"], 20,
                           "trainer_schedule_next_workout")
    assert len(scheduled) == 1 and scheduled[0]["scheduledFor"] == picked, scheduled
    assert re.fullmatch(r"\d{4}-\d{2}-\d{2}T\d{2}:\d{2}", picked), picked
    raw = [m for m in driver.execute_script("return window.formaRaw") if "trainer_schedule_next_workout" in m]
    assert raw == [json.dumps({"type": "trainer_schedule_next_workout", "scheduledFor": picked}, separators=(",", ":"))], raw
    types = [e["type"] for e in events()]
    order = ["kinestex_launched", "workout_opened", "workout_started", "workout_exit_request", "workout_opened",
             "workout_started", "workout_completed", "trainer_schedule_next_workout"]
    assert [t for t in types if t in order][-len(order):] == order, types
    completed = [e for e in events() if e["type"] == "exercise_completed"]
    assert [c["data"]["exerciseId"] for c in completed] == [item["exerciseId"] for item in workout["items"]], completed
    reps = [e["data"] for e in events() if e["type"] == "successful_repeat"]
    if tracked:  # counted live from the recording, as the player counts on its own page
        counted = [c["data"] for c in completed if c["data"]["exercise"] in tracked]
        assert reps and [r["repeats"] for r in reps] == list(range(1, len(reps) + 1)), reps
        assert sum(c["repeats"] for c in counted) == len(reps), (counted, len(reps))
    else:
        assert not reps, reps
    finished = harness.api("GET", f"/v1/trainer/conversations/{conversation['id']}", user)
    assert finished["status"] == "finished" and finished["scheduledFor"] == picked, finished
    assert finished["checkIn"]["sessionRPE"] == 3 and finished["checkIn"]["feeling"] == "good", finished["checkIn"]
    saved = harness.api("GET", f"/v1/workouts/{workout['workoutId']}", user)
    assert saved["timesCompleted"] == 1, saved
    RECEIVED.extend(m for m in driver.execute_script("return window.formaRaw")
                    if "trainer_schedule_next_workout" in m or "workout_exit_request" in m)


def check_progress_shows_the_report(harness, user, report):
    """The end of the pain-map story: the progress chart has today's point for the knee at the reported pain."""
    driver = harness.driver
    open_progress(harness, user)
    points = chart_points(driver, "pain-chart")
    assert points == [("Knee", report["reportedAt"][:10], report["intensity"])], points
    driver.switch_to.default_content()


def test_pain_map_js_hits_as_the_core_does(harness):
    """The page's hit test (pain-map.js) over the served map finds the region FormaCore finds at every grid point."""
    with open(GOLDEN_HITS) as file:
        golden = json.load(file)
    driver = harness.driver
    driver.get(f"{harness.base}/embed/")
    found = driver.execute_async_script("""
        const [columns, rows, done] = arguments;
        Promise.all([import('/embed/assets/pain-map.js'), fetch('/v1/body-map').then((reply) => reply.json())])
          .then(([{ hitTest }, map]) => done(Object.fromEntries(map.figures.map((figure) => {
            const hits = [];
            for (let row = 0; row < rows; row++) {
              for (let column = 0; column < columns; column++) {
                const area = hitTest(figure, column / (columns - 1), row / (rows - 1));
                hits.push(area ? `${area.region}/${area.side}` : '');
              }
            }
            return [figure.view, hits];
          }))))
          .catch((error) => done(`error: ${error}`));
    """, golden["columns"], golden["rows"])
    assert isinstance(found, dict), found
    for view, hits in golden["figures"].items():
        differing = [(i % golden["columns"], i // golden["columns"], want, got)
                     for i, (want, got) in enumerate(zip(hits, found[view])) if want != got]
        assert len(found[view]) == len(hits) and not differing, (view, differing[:10])


def shape(raw):
    """An event's type and its fields: those of `data`, or, for seed 002's flat trainer event, those beside `type`."""
    message = json.loads(raw)
    if "data" not in message:
        return message["type"], tuple(sorted(key for key in message if key != "type"))
    return message["type"], tuple(sorted(message["data"].keys()))


def test_theme_is_shown_and_told_to_the_host(harness):
    """A workout generated with a theme shows it before and during the run, and tells the host `theme_selected` right
    after `workout_started`, so the host can play the music; `?theme=` names another of the person's themes for the
    run, which the server stores with the run."""
    driver = harness.driver
    user = "theme-user"
    running = harness.api("POST", "/v1/me/themes", user, {"name": "Running", "theme": "Daft Punk", "workouts": 3})
    yoga = harness.api("POST", "/v1/me/themes", user, {"name": "Yoga", "theme": "ambient", "workouts": 2})
    request = {"muscles": ["quadriceps"], "equipment": [], "level": "beginner", "minutes": 10, "seed": 2}
    workout = harness.api("POST", "/v1/workouts/generate", user, dict(request, theme=running["id"]))
    assert workout["theme"] == {"id": running["id"], "name": "Running", "theme": "Daft Punk"}, workout.get("theme")

    def run_until_theme(workout_id, query, theme):
        src = f"{harness.base}/embed/workout/{workout_id}?company=Acme{query}"
        events = open_in_iframe(harness, src, user)
        driver.switch_to.frame(driver.find_element(By.ID, "forma"))
        wait_until(lambda: driver.find_elements(By.CSS_SELECTOR, "#start"), 30, "the workout summary")
        summary_line = [e.text for e in driver.find_elements(By.ID, "theme")]
        wait_until(lambda: click_if_present(driver, "#start"), 20, "the Start button")
        line = wait_until(lambda: [e.text for e in driver.find_elements(By.CSS_SELECTOR, ".player #theme")], 30,
                          "the theme in the player")
        assert line == [f"Theme: {theme['name']} · {theme['theme']}"], line
        # the server stores the theme with the run in progress
        active = harness.api("GET", f"/v1/workouts/{workout_id}", user)["activeRun"]
        assert active["theme"]["id"] == theme["id"], active
        wait_until(lambda: click_if_present(driver, "#exit"), 20, "the Exit button")
        driver.switch_to.default_content()
        wait_until(lambda: harness.api("GET", f"/v1/workouts/{workout_id}", user).get("activeRun") is None, 20,
                   "the run left early to be quit")
        seen = wait_until(lambda: [e for e in events() if e["type"] == "theme_selected"], 20, "theme_selected")
        types = [e["type"] for e in events()]
        assert types.index("workout_started") + 1 == types.index("theme_selected"), types
        assert seen == [{"type": "theme_selected", "data": {"id": theme["id"], "name": theme["name"],
                                                            "theme": theme["theme"]}}], seen
        RECEIVED.extend(raw for raw in driver.execute_script("return window.formaRaw") if "theme_selected" in raw)
        return summary_line

    # the workout's own theme
    summary = run_until_theme(workout["id"], "", running)
    assert summary == ["Theme: Running · Daft Punk"], summary

    # another workout, without a theme of its own, done with the yoga theme the host names
    plain = harness.api("POST", "/v1/workouts/generate", user, dict(request, seed=3))
    assert "theme" not in plain, plain
    summary = run_until_theme(plain["id"], f"&theme={yoga['id']}", yoga)
    assert summary == [], summary
    # runs left early count for nothing
    assert harness.api("GET", f"/v1/me/themes/{yoga['id']}", user)["completed"] == 0


def test_themes_page(harness):
    """/embed/themes: the person adds a theme with the form (a bad number is refused next to its field, nothing
    stored), sees it listed with the workouts left, and removes it; axe-core finds no violation."""
    from axe_selenium_python import Axe

    driver = harness.driver
    user = "themes-page-user"
    open_in_iframe(harness, f"{harness.base}/embed/themes?company=Acme", user)
    driver.switch_to.frame(driver.find_element(By.ID, "forma"))
    wait_until(lambda: driver.find_elements(By.CSS_SELECTOR, "#themes li.empty"), 30, "the empty list")

    def fill(name, theme, workouts):
        for field, value in (("name", name), ("theme", theme), ("workouts", workouts)):
            box = driver.find_element(By.ID, f"theme-{field}")
            box.clear()
            box.send_keys(value)
        driver.find_element(By.ID, "add").click()

    # a number the server refuses: the message stands next to the field, and nothing is stored
    fill("Running", "Daft Punk", "0")
    wait_until(lambda: driver.find_element(By.ID, "workouts-error").text, 10, "the workouts error")
    assert "1 to 1000" in driver.find_element(By.ID, "workouts-error").text
    assert driver.find_element(By.ID, "theme-workouts").get_attribute("aria-invalid") == "true"
    assert harness.api("GET", "/v1/me/themes", user)["total"] == 0

    fill("Running", "Daft Punk", "10")
    wait_until(lambda: driver.find_element(By.ID, "themes-status").text == "Added Running.", 10, "the added theme")
    item = wait_until(lambda: driver.find_elements(By.CSS_SELECTOR, "#themes li[data-theme-id]"), 10, "the list item")
    assert len(item) == 1 and "Daft Punk" in item[0].text and "10 to go" in item[0].text, item[0].text
    stored = harness.api("GET", "/v1/me/themes", user)["items"]
    assert [(t["name"], t["theme"], t["workouts"]) for t in stored] == [("Running", "Daft Punk", 10)], stored
    assert item[0].get_attribute("data-theme-id") == stored[0]["id"]
    assert driver.find_element(By.ID, "workouts-error").text == ""

    axe = Axe(driver)
    axe.inject()
    results = axe.run()
    assert not results["violations"], json.dumps(
        [(v["id"], [n["target"] for n in v["nodes"]]) for v in results["violations"]], indent=1)
    phone_screenshot(driver, "themes")

    wait_until(lambda: click_if_present(driver, "button[aria-label='Remove theme Running']"), 10, "the Remove button")
    wait_until(lambda: driver.find_elements(By.CSS_SELECTOR, "#themes li.empty"), 10, "the list emptied")
    assert driver.find_element(By.ID, "themes-status").text == "Removed Running."
    driver.switch_to.default_content()
    assert harness.api("GET", "/v1/me/themes", user)["total"] == 0


def company_call(harness, method, path, body=None, content_type="application/json"):
    """A company API call with Acme's key, as the company's back end makes it."""
    data = body if isinstance(body, bytes) else (json.dumps(body).encode() if body is not None else None)
    request = urllib.request.Request(harness.base + path, method=method, data=data,
                                     headers={"X-Forma-Key": harness.key, "Content-Type": content_type})
    with urllib.request.urlopen(request, timeout=10) as reply:
        return json.loads(reply.read() or b"null")


def relative_luminance(rgb):
    def channel(c):
        c = c / 255
        return c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4
    r, g, b = (channel(c) for c in rgb)
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


def contrast_ratio(a, b):
    light, dark = sorted((relative_luminance(a), relative_luminance(b)), reverse=True)
    return (light + 0.05) / (dark + 0.05)


def css_rgb(value):
    """`rgb(1, 2, 3)` or `#010203` as a tuple."""
    value = value.strip()
    if value.startswith("#"):
        return tuple(int(value[i:i + 2], 16) for i in (1, 3, 5))
    return tuple(int(float(part)) for part in re.findall(r"[\d.]+", value)[:3])


def page_look(driver):
    return driver.execute_script("""
        const root = getComputedStyle(document.documentElement);
        const add = document.getElementById('add');
        const logo = document.querySelector('header.brand img');
        return {style: document.documentElement.dataset.style,
                background: getComputedStyle(document.body).backgroundColor,
                text: getComputedStyle(document.body).color,
                button: add && getComputedStyle(add).backgroundColor,
                buttonText: add && getComputedStyle(add).color,
                accentText: root.getPropertyValue('--accent-text'),
                logo: logo && {alt: logo.alt, width: logo.naturalWidth, complete: logo.complete}};""")


def check_axe(driver):
    from axe_selenium_python import Axe

    axe = Axe(driver)
    axe.inject()
    results = axe.run()
    assert not results["violations"], json.dumps(
        [(v["id"], [n["target"] for n in v["nodes"]]) for v in results["violations"]], indent=1)


def test_style_and_branding(harness):
    """The host's style and the company's branding: with `?style=light` the goals page is drawn light, with Acme's
    accent on its buttons (text on them black or white, whichever reads) and Acme's logo above it; with `style: dark`
    in the configuration it is drawn dark, and the accent used as text is lightened until it reads (4.5:1). An
    unknown style is reported, naming `style`, and the page stays usable. axe-core finds no violation in either
    style."""
    driver = harness.driver
    with open(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "FormaServerTests", "Fixtures",
                           "avatar-6x4.png"), "rb") as image:
        logo = image.read()
    # a dark blue: too dark to read as text on the dark page, fine on the light one
    company_call(harness, "PUT", "/v1/company/branding", {"accentColor": "#2B4C9B"})
    company_call(harness, "PUT", "/v1/company/branding/logo", logo, content_type="image/png")
    try:
        user = "style-user"
        open_in_iframe(harness, f"{harness.base}/embed/goals?company=Acme&style=light", user)
        driver.switch_to.frame(driver.find_element(By.ID, "forma"))
        wait_until(lambda: driver.find_elements(By.CSS_SELECTOR, "#goals li.empty"), 30, "the goals page")
        look = wait_until(lambda: (lambda l: l if l["logo"] and l["logo"]["complete"] else None)(page_look(driver)),
                          10, "the logo loaded")
        assert look["style"] == "light", look
        assert css_rgb(look["background"]) == (247, 248, 249), look
        assert css_rgb(look["button"]) == (0x2b, 0x4c, 0x9b), look
        assert css_rgb(look["buttonText"]) == (255, 255, 255), look
        assert look["logo"] == {"alt": "Acme logo", "width": 6, "complete": True}, look
        check_axe(driver)
        driver.switch_to.default_content()

        open_in_iframe(harness, f"{harness.base}/embed/goals?company=Acme", user, style="dark")
        driver.switch_to.frame(driver.find_element(By.ID, "forma"))
        wait_until(lambda: driver.find_elements(By.CSS_SELECTOR, "#goals li.empty"), 30, "the goals page, dark")
        look = page_look(driver)
        assert look["style"] == "dark", look
        assert css_rgb(look["background"]) == (16, 18, 20), look
        accent_text = css_rgb(look["accentText"])
        assert accent_text != (0x2b, 0x4c, 0x9b), "the accent was not lightened for text on the dark page"
        assert contrast_ratio(accent_text, (16, 18, 20)) >= 4.5, look
        check_axe(driver)
        driver.switch_to.default_content()

        # every list and chart page, light: nothing axe-core flags (contrast above all)
        for page, ready in (("themes", "#themes li.empty"), ("progress", ".progress-charts"),
                            ("pain-map", ".pain-map"), ("trainer", "#composer[data-field]"),
                            ("fitness-test", "#fitness-choices"), ("", ".workout-groups")):
            open_in_iframe(harness, f"{harness.base}/embed/{page}?company=Acme&style=light", user)
            driver.switch_to.frame(driver.find_element(By.ID, "forma"))
            wait_until(lambda: driver.find_elements(By.CSS_SELECTOR, ready), 30, f"the {page} page, light")
            assert page_look(driver)["style"] == "light"
            check_axe(driver)
            driver.switch_to.default_content()

        open_in_iframe(harness, f"{harness.base}/embed/goals?company=Acme", user, style="sepia")
        driver.switch_to.frame(driver.find_element(By.ID, "forma"))
        notice = wait_until(lambda: driver.find_element(By.ID, "notice").text, 30, "the style notice")
        assert notice == "style: 'sepia' is not a style of these pages (dark or light)", notice
        wait_until(lambda: driver.find_elements(By.CSS_SELECTOR, "#goals li.empty"), 30, "the goals page, still there")
        assert page_look(driver)["style"] == "dark"
        driver.switch_to.default_content()
    finally:
        company_call(harness, "PUT", "/v1/company/branding", {})
        company_call(harness, "DELETE", "/v1/company/branding/logo")


def test_exercise_pages(harness):
    """/embed/exercises finds what the API finds for the same search and filters; /embed/exercise/{id} shows the
    counter's demonstration moving (33 landmarks and the measured angle drawn), the muscles on the body figures,
    the equipment and every instruction as a step; with reduced motion asked for, the figure stands still at the
    turning point until Play; axe-core finds no violation."""
    driver = harness.driver
    user = "exercises-user"
    open_in_iframe(harness, f"{harness.base}/embed/exercises?company=Acme", user)
    driver.switch_to.frame(driver.find_element(By.ID, "forma"))
    wait_until(lambda: driver.find_elements(By.CSS_SELECTOR, "#exercise-results li"), 30, "the first results")
    box = driver.find_element(By.ID, "exercise-query")
    box.clear()
    box.send_keys("squat")
    for field, value in (("muscle", "quadriceps"), ("equipment", "barbell")):
        driver.execute_script("const s = document.getElementById(arguments[0]); s.value = arguments[1];",
                              field, value)
    driver.find_element(By.ID, "search").click()
    expected = harness.api("GET", "/v1/exercises?q=squat&muscle=quadriceps&equipment=barbell&perPage=20", user)
    names = [item["name"] for item in expected["items"]]
    assert "Barbell Squat" in names, names

    def shown():
        return [a.text for a in driver.find_elements(By.CSS_SELECTOR, "#exercise-results li a")]
    wait_until(lambda: shown() == names, 20, f"the results {names}")
    status = driver.find_element(By.ID, "exercise-count").text
    assert status.startswith(f"{expected['total']} exercise"), status
    check_axe(driver)
    phone_screenshot(driver, "exercises")

    wait_until(lambda: click_if_present(driver, "#exercise-results li[data-exercise-id='Barbell_Squat'] a"), 10,
               "the Barbell Squat link")
    demo = wait_until(lambda: driver.find_elements(By.CSS_SELECTOR, "svg#demonstration"), 30, "the demonstration")[0]
    assert len(driver.find_elements(By.CSS_SELECTOR, "svg#demonstration circle.joint")) == 33
    assert len(driver.find_elements(By.CSS_SELECTOR, "svg#demonstration circle.joint.measured")) == 3
    assert demo.get_attribute("data-playing") == "true"
    first = demo.get_attribute("data-frame")
    wait_until(lambda: demo.get_attribute("data-frame") != first, 20, "the figure to move")
    assert driver.find_element(By.CSS_SELECTOR, "svg#demonstration text.angle").text.endswith("°")
    exercise = harness.api("GET", "/v1/exercises/Barbell_Squat", user)
    steps = [li.text for li in driver.find_elements(By.CSS_SELECTOR, "#steps li")]
    assert steps == exercise["instructions"], steps
    assert driver.find_elements(By.CSS_SELECTOR, ".muscle-figures .region.primary[data-region='thigh front']")
    assert driver.find_elements(By.CSS_SELECTOR, ".muscle-figures .region.secondary[data-region='glute']")
    assert driver.find_element(By.ID, "equipment").text == "Barbell"
    check_axe(driver)
    phone_screenshot(driver, "exercise")
    driver.switch_to.default_content()

    driver.execute_cdp_cmd("Emulation.setEmulatedMedia",
                           {"features": [{"name": "prefers-reduced-motion", "value": "reduce"}]})
    try:
        open_in_iframe(harness, f"{harness.base}/embed/exercise/Barbell_Squat?company=Acme", user)
        driver.switch_to.frame(driver.find_element(By.ID, "forma"))
        demo = wait_until(lambda: driver.find_elements(By.CSS_SELECTOR, "svg#demonstration"), 30,
                          "the demonstration, reduced motion")[0]
        assert demo.get_attribute("data-playing") in (None, "false"), "the figure moved although less motion was asked"
        still = demo.get_attribute("data-frame")
        button = driver.find_element(By.ID, "demonstration-play")
        assert button.text == "Play" and button.get_attribute("aria-pressed") == "false"
        button.click()
        wait_until(lambda: demo.get_attribute("data-frame") != still, 20, "the figure to move after Play")
        assert button.get_attribute("aria-pressed") == "true"
        driver.switch_to.default_content()
    finally:
        driver.execute_cdp_cmd("Emulation.setEmulatedMedia", {"features": []})


SUMMARY_PICTURES = """
return [...document.querySelectorAll('.summary .items li')].map((li) => {
  const figure = li.querySelector('.item-picture svg.demonstration');
  return {id: li.dataset.exerciseId, picture: !!figure, frame: figure && figure.dataset.frame,
          playing: figure && figure.dataset.playing, joints: figure ? figure.querySelectorAll('circle.joint').length : 0,
          label: figure && figure.getAttribute('aria-label'), width: figure && figure.getBoundingClientRect().width};
});"""


def test_workout_summary_pictures(harness):
    """The workout summary shows, beside each exercise the camera counts and no other, a small moving picture of the
    movement (the exercise page's demonstration: 33 landmarks), with one Pause pictures button that stops them all;
    with reduced motion asked for they stand still until Play pictures; axe-core finds no violation (phone size)."""
    driver = harness.driver
    user = "summary-pictures"
    workout, tracked = harness.workout_for(user)
    counted = {item["exerciseId"] for item in workout["items"] if item.get("poseExercise")}
    driver.set_window_size(390, 844)
    try:
        open_in_iframe(harness, f"{harness.base}/embed/workout/{workout['id']}?company=Acme", user)
        driver.switch_to.frame(driver.find_element(By.ID, "forma"))
        wait_until(lambda: driver.find_elements(By.CSS_SELECTOR, ".summary .item-picture svg"), 30, "the pictures")
        rows = driver.execute_script(SUMMARY_PICTURES)
        assert [r["id"] for r in rows] == [item["exerciseId"] for item in workout["items"]], rows
        for row in rows:
            assert row["picture"] == (row["id"] in counted), row
            if row["picture"]:
                assert row["joints"] == 33 and row["label"] == f"Animated figure doing {tracked['name']}", row
                assert row["playing"] == "true" and 40 <= row["width"] <= 80, row
        first = [r["frame"] for r in rows if r["picture"]]
        wait_until(lambda: [r["frame"] for r in driver.execute_script(SUMMARY_PICTURES) if r["picture"]] != first,
                   20, "the pictures to move")
        button = driver.find_element(By.ID, "pictures-play")
        assert button.text == "Pause pictures" and button.get_attribute("aria-pressed") == "true"
        assert button.size["height"] >= 44
        check_axe(driver)
        phone_screenshot(driver, "workout")
        button.click()
        assert button.text == "Play pictures" and button.get_attribute("aria-pressed") == "false"
        paused = [r["frame"] for r in driver.execute_script(SUMMARY_PICTURES) if r["picture"]]
        assert all(r["playing"] == "false" for r in driver.execute_script(SUMMARY_PICTURES) if r["picture"])
        driver.execute_async_script("requestAnimationFrame(() => requestAnimationFrame(arguments[0]));")
        assert [r["frame"] for r in driver.execute_script(SUMMARY_PICTURES) if r["picture"]] == paused
        driver.switch_to.default_content()

        driver.execute_cdp_cmd("Emulation.setEmulatedMedia",
                               {"features": [{"name": "prefers-reduced-motion", "value": "reduce"}]})
        open_in_iframe(harness, f"{harness.base}/embed/workout/{workout['id']}?company=Acme", user)
        driver.switch_to.frame(driver.find_element(By.ID, "forma"))
        wait_until(lambda: driver.find_elements(By.CSS_SELECTOR, ".summary .item-picture svg"), 30,
                   "the pictures, reduced motion")
        rows = [r for r in driver.execute_script(SUMMARY_PICTURES) if r["picture"]]
        assert rows and all(r["playing"] == "false" for r in rows), rows
        button = driver.find_element(By.ID, "pictures-play")
        assert button.text == "Play pictures"
        still = [r["frame"] for r in rows]
        button.click()
        wait_until(lambda: [r["frame"] for r in driver.execute_script(SUMMARY_PICTURES) if r["picture"]] != still,
                   20, "the pictures to move after Play pictures")
    finally:
        driver.execute_cdp_cmd("Emulation.setEmulatedMedia", {"features": []})
        driver.switch_to.default_content()
        driver.set_window_size(600, 1000)


TABLET = (820, 1180)

LAYOUT = """
const doc = document.documentElement;
const width = doc.clientWidth;
const shown = (e) => { const r = e.getBoundingClientRect(); return r.width > 1 && r.height > 1
  && getComputedStyle(e).visibility !== 'hidden' && !e.closest('.visually-hidden'); };
const name = (e) => `${e.tagName.toLowerCase()}${e.id ? '#' + e.id : ''} ${(e.innerText || e.getAttribute('aria-label') || '').trim().slice(0, 30)}`;
const beyond = [...document.querySelectorAll('body *')].filter(shown)
  .filter((e) => { const r = e.getBoundingClientRect(); return r.right > width + 1 || r.left < -1; }).map(name);
const small = [...document.querySelectorAll('button, a[href], select, input:not([type=hidden]), textarea, [role=button]')]
  .map((e) => (e.matches('input[type=checkbox], input[type=radio]') && e.closest('label')) || e)
  .filter(shown)
  .filter((e) => { const r = e.getBoundingClientRect(); return r.height < 44 || r.width < 44; })
  .map((e) => { const r = e.getBoundingClientRect(); return `${name(e)} ${Math.round(r.width)}×${Math.round(r.height)}`; });
return {width, inner: window.innerWidth, scrollWidth: Math.max(doc.scrollWidth, document.body.scrollWidth), beyond: beyond.slice(0, 8), small};
"""


def open_at_tablet_size(harness, src, user):
    """Opens `src` in the host's iframe drawn at tablet size (820 × 1180 CSS pixels); the driver is in the frame."""
    driver = harness.driver
    events = open_in_iframe(harness, src, user)
    driver.execute_script("const f = document.getElementById('forma'); f.style.width = arguments[0] + 'px';"
                          "f.style.height = arguments[1] + 'px';", *TABLET)
    driver.switch_to.frame(driver.find_element(By.ID, "forma"))
    return events


def check_tablet_page(driver, what, picture=None):
    """At tablet size: nothing wider than the page (no sideways scrolling), every button, link and field at least
    44 × 44 px (a check box with its label), and no axe-core violation."""
    driver.execute_async_script("requestAnimationFrame(() => requestAnimationFrame(arguments[0]));")
    layout = driver.execute_script(LAYOUT)
    assert layout["inner"] == TABLET[0], (what, layout["inner"])
    assert layout["scrollWidth"] <= layout["width"] and not layout["beyond"], (what, layout)
    assert not layout["small"], (what, layout["small"])
    check_axe(driver)
    if picture:
        tablet_screenshot(driver, picture)


def tablet_screenshot(driver, name):
    """With FORMA_SCREENSHOTS, the iframe as drawn at tablet size, as a small palette PNG."""
    directory = os.environ.get("FORMA_SCREENSHOTS")
    if not directory:
        return
    driver.execute_script("window.scrollTo(0, 0);")
    driver.switch_to.default_content()
    path = os.path.join(directory, f"{name}.png")
    driver.find_element(By.ID, "forma").screenshot(path)
    shrink(path)
    driver.switch_to.frame(driver.find_element(By.ID, "forma"))


def test_key_pages_at_tablet_size(harness):
    """Home, the exercise page, the competitions, the workout summary, the player while the camera counts a replayed
    squat, and the results, each at tablet size (820 × 1180): no sideways overflow, touch targets of at least 44 px,
    no axe-core violation."""
    driver = harness.driver
    user = "tablet-user"
    workout, tracked = harness.workout_for(user)
    driver.set_window_size(TABLET[0] + 100, TABLET[1] + 200)
    try:
        open_at_tablet_size(harness, f"{harness.base}/embed/?company=Acme", user)
        wait_until(lambda: driver.find_elements(By.CSS_SELECTOR, "#plans li"), 30, "home")
        check_tablet_page(driver, "home", "tablet-home")
        driver.switch_to.default_content()

        open_at_tablet_size(harness, f"{harness.base}/embed/exercise/Barbell_Squat?company=Acme", user)
        wait_until(lambda: driver.find_elements(By.CSS_SELECTOR, "svg#demonstration"), 30, "the exercise")
        check_tablet_page(driver, "exercise")
        driver.switch_to.default_content()

        open_at_tablet_size(harness, f"{harness.base}/embed/competitions?company=Acme", user)
        wait_until(lambda: driver.find_elements(By.ID, "open-competitions"), 30, "competitions")
        check_tablet_page(driver, "competitions")
        driver.switch_to.default_content()

        src = f"{harness.base}/embed/workout/{workout['id']}?company=Acme&replay={harness.host}/squats.json"
        events = open_at_tablet_size(harness, src, user)
        wait_until(lambda: driver.find_elements(By.CSS_SELECTOR, ".summary .item-picture svg"), 30, "the summary")
        check_tablet_page(driver, "workout summary")
        frame = lambda: driver.switch_to.frame(driver.find_element(By.ID, "forma"))  # noqa: E731
        checked = []
        play_workout(driver, lambda: (driver.switch_to.parent_frame(), events(), frame())[1], tracked["name"],
                     while_counting=lambda: (check_tablet_page(driver, "player, counting", "tablet-player"),
                                             checked.append(True)))
        assert checked, "the player was never seen counting"
        wait_until(lambda: driver.find_elements(By.CSS_SELECTOR, ".results #results-title"), 30, "the results")
        check_tablet_page(driver, "results", "tablet-results")
    finally:
        driver.switch_to.default_content()
        driver.set_window_size(600, 1000)


def board_rows(driver):
    return [[cell.text for cell in row.find_elements(By.TAG_NAME, "td")]
            for row in driver.find_elements(By.CSS_SELECTOR, "#standings tr")]


def open_board(harness, user, competition_id):
    harness.driver.switch_to.default_content()
    open_in_iframe(harness, f"{harness.base}/embed/competitions/{competition_id}?company=Acme", user)
    harness.driver.switch_to.frame(harness.driver.find_element(By.ID, "forma"))
    wait_until(lambda: harness.driver.find_elements(By.CSS_SELECTOR, "#standings tr"), 30, "the standings")


def test_competitions_page(harness):
    """/embed/competitions: the person joins a company's 10-second squat challenge competition (competition_joined
    sent, the competition moves to Current), sees two others tied at rank 1 and themselves 3rd with 0, does the
    challenge from the page with a replayed recording (counted, never scored: the standings do not move), then does
    it in front of a camera (a live session from the phone, faster) and sees themselves 1st and the two others sharing
    2nd; axe-core finds no violation on the list or the board."""
    from datetime import datetime, timedelta, timezone

    driver = harness.driver
    user = "competitor"
    zone = company_call(harness, "GET", "/v1/company/time-zone")["timeZone"]
    assert zone == "UTC", zone  # the default; start and end below are written in it
    now = datetime.now(timezone.utc)
    competition = company_call(harness, "POST", "/v1/company/competitions", {
        "name": "Squat sprint", "description": "Most squats in 10 seconds this week.", "metric": "best_challenge",
        "exerciseId": "Bodyweight_Squat", "challengeSeconds": 10,
        "start": (now - timedelta(days=1)).strftime("%Y-%m-%dT00:00"),
        "end": (now + timedelta(days=3)).strftime("%Y-%m-%dT00:00")})
    cid = competition["id"]
    with open(os.path.join(harness.work, "squats.json")) as recording:
        frames = json.load(recording)["frames"]
    others = {}
    for person, name in (("bea", "Bea"), ("cal", "Cal")):
        harness.api("PATCH", "/v1/me", person, {"displayName": name})
        harness.api("PUT", f"/v1/competitions/{cid}/membership", person)
        result = play_challenge(harness.base, session_token(harness.base, harness.key, person), frames, 10)
        assert len(result) == 1 and result[0]["ranked"], result
        others[name] = result[0]["reps"]
    assert others["Bea"] == others["Cal"] >= 3, others
    harness.api("PATCH", "/v1/me", user, {"displayName": "Dee"})

    events = open_in_iframe(harness, f"{harness.base}/embed/competitions?company=Acme&replay={harness.host}/squats.json",
                            user)
    driver.switch_to.frame(driver.find_element(By.ID, "forma"))
    item = f"li[data-competition-id='{cid}']"
    wait_until(lambda: driver.find_elements(By.CSS_SELECTOR, f"#open-competitions {item}"), 30, "the competition")
    check_axe(driver)
    wait_until(lambda: click_if_present(driver, f"#open-competitions {item} button.join"), 10, "Join")
    wait_until(lambda: driver.find_elements(By.CSS_SELECTOR, f"#current-competitions {item}"), 10, "joined")
    wait_until(lambda: driver.find_element(By.ID, "competitions-status").text == "Joined Squat sprint.", 10, "status")
    assert driver.switch_to.active_element.get_attribute("aria-label") == "Leave Squat sprint"
    check_axe(driver)
    phone_screenshot(driver, "competitions")
    driver.switch_to.default_content()
    joined = [e for e in events() if e["type"] == "competition_joined"]
    assert len(joined) == 1 and joined[0]["data"]["competitionId"] == cid, joined
    assert joined[0]["data"]["name"] == "Squat sprint" and joined[0]["data"]["metric"] == "best_challenge", joined
    RECEIVED.extend(raw for raw in driver.execute_script("return window.formaRaw") if "competition_joined" in raw)
    driver.switch_to.frame(driver.find_element(By.ID, "forma"))

    wait_until(lambda: click_if_present(driver, f"#current-competitions {item} button.board"), 10, "Leaderboard")
    wait_until(lambda: driver.find_elements(By.CSS_SELECTOR, "#standings tr"), 30, "the standings")
    reps = others["Bea"]
    expected = [["1", "Bea", f"{reps} reps in 10 s"], ["1", "Cal", f"{reps} reps in 10 s"],
                ["3", "Dee (you)", "0 reps in 10 s"]]
    assert board_rows(driver) == expected, board_rows(driver)
    assert driver.find_element(By.ID, "my-place").text == "3rd of 3, 0 reps in 10 s"
    check_axe(driver)
    phone_screenshot(driver, "competition-board")

    # the challenge from the page, with the replayed recording: counted, never scored
    wait_until(lambda: click_if_present(driver, "#take-part"), 10, "Do the challenge")
    wait_until(lambda: click_if_present(driver, "#start"), 30, "the Start challenge button")
    driver.switch_to.default_content()
    done = wait_until(lambda: [e for e in events() if e["type"] == "exercise_completed"], 90, "the replayed challenge")
    assert done[0]["data"]["ranked"] is False and done[0]["data"]["repeats"] >= 3, done
    open_board(harness, user, cid)
    assert board_rows(driver) == expected, "a replayed try moved the standings"

    # in front of a camera, faster: 1.5 times the recording's pace
    quick = [dict(frame, t=frame["t"] / 1.5) for frame in frames]
    mine = play_challenge(harness.base, session_token(harness.base, harness.key, user), quick, 10)
    assert len(mine) == 1 and mine[0]["ranked"] and mine[0]["reps"] > reps, (mine, reps)
    open_board(harness, user, cid)
    assert board_rows(driver) == [["1", "Dee (you)", f"{mine[0]['reps']} reps in 10 s"],
                                  ["2", "Bea", f"{reps} reps in 10 s"], ["2", "Cal", f"{reps} reps in 10 s"]], \
        board_rows(driver)
    assert driver.find_element(By.ID, "my-place").text == f"1st of 3, {mine[0]['reps']} reps in 10 s"
    driver.switch_to.default_content()


def top_up(harness, user, points):
    """Credits `points` to `user` as a host back end does after an in-app payment: an HS256 top-up token signed with
    the company's secret (docs/community.md, "Top-up tokens")."""
    import base64
    import hashlib
    import hmac
    import uuid

    if not getattr(harness, "top_up_secret", None):
        harness.top_up_secret = company_call(harness, "PUT", "/v1/company/points-key", {"algorithm": "HS256"})["secret"]
        harness.company_id = company_call(harness, "GET", "/v1/company")["id"]

    def b64(data):
        return base64.urlsafe_b64encode(data).rstrip(b"=").decode()

    header = b64(json.dumps({"alg": "HS256"}).encode())
    payload = b64(json.dumps({"jti": str(uuid.uuid4()), "sub": user, "points": points, "exp": int(time.time()) + 600,
                              "aud": harness.company_id}).encode())
    signature = b64(hmac.new(harness.top_up_secret.encode(), f"{header}.{payload}".encode(), hashlib.sha256).digest())
    return harness.api("POST", "/v1/me/points/top-ups", user, {"token": f"{header}.{payload}.{signature}"})


def points_of(harness, user):
    return harness.api("GET", "/v1/me/points?limit=100", user)


def test_profile_page(harness):
    """/embed/profile at phone size: the balance a top-up gave, an item on sale, today's missions, the streak and the
    follow counts. Too many of the item is refused for the balance and a price changed by the company is shown; then
    the first Buy's answer is lost on its way back (the server did charge): Buy again sends the same idempotency key,
    the server answers the first purchase again, and the balance fell once. The host gets purchase_completed and
    points_changed, and mission_completed for the mission a gift made through the API completed meanwhile; axe-core
    finds no violation."""
    driver = harness.driver
    user = "shopper"
    harness.api("PATCH", "/v1/me", "shop-friend", {"displayName": "Sam"})
    top_up(harness, user, 100)
    item = company_call(harness, "POST", "/v1/company/items", {"name": "Water bottle", "price": 30})
    driver.set_window_size(390, 844)
    try:
        events = open_in_iframe(harness, f"{harness.base}/embed/profile?company=Acme", user)
        driver.switch_to.frame(driver.find_element(By.ID, "forma"))
        row = f"#items li[data-item-id='{item['id']}']"
        wait_until(lambda: driver.find_elements(By.CSS_SELECTOR, row), 30, "the item")
        assert driver.find_element(By.ID, "balance").text == "Balance: 100 points"
        missions = [li.get_attribute("data-mission-id") for li in driver.find_elements(By.CSS_SELECTOR, "#missions li")]
        assert missions == ["train", "encourage", "go-live"], missions
        assert driver.find_element(By.CSS_SELECTOR, "#missions li[data-mission-id='encourage'] .meta").text \
            == "0 of 1 · 5 points"
        assert driver.find_element(By.ID, "streak").text == "Current: 0 days · longest: 0"
        assert driver.find_element(By.ID, "follows").text == "0 followers · following 0"
        check_axe(driver)

        # a gift made elsewhere (the host's own screen) completes today's "encourage" mission: 100 - 10 + 5
        harness.api("POST", "/v1/people/shop-friend/gifts", user, {"points": 10, "idempotencyKey": "gift-1"})

        quantity = driver.find_element(By.CSS_SELECTOR, f"{row} input.quantity")
        quantity.clear()
        quantity.send_keys("99")
        driver.find_element(By.CSS_SELECTOR, f"{row} button.buy").click()
        error = f"#buy-error-{item['id']}"
        wait_until(lambda: driver.find_element(By.CSS_SELECTOR, error).text, 10, "the refusal")
        assert driver.find_element(By.CSS_SELECTOR, error).text == \
            "Not enough points: this costs 2,970, your balance is 95.", driver.find_element(By.CSS_SELECTOR, error).text

        company_call(harness, "PATCH", f"/v1/company/items/{item['id']}", {"price": 25})
        quantity.clear()
        quantity.send_keys("2")
        driver.find_element(By.CSS_SELECTOR, f"{row} button.buy").click()
        wait_until(lambda: "price changed" in driver.find_element(By.CSS_SELECTOR, error).text, 10, "price changed")
        assert driver.find_element(By.CSS_SELECTOR, f"{row} .price").text == "25 points each"
        check_axe(driver)

        driver.execute_script("""
            window.purchasesSent = [];
            const real = window.fetch;
            let dropped = false;
            window.fetch = async (url, init) => {
              const buying = init && init.method === 'POST' && String(url).endsWith('/v1/me/purchases');
              if (buying) window.purchasesSent.push(JSON.parse(init.body));
              const response = await real(url, init);
              if (buying && !dropped) {
                dropped = true;
                throw new TypeError('the answer was lost');
              }
              return response;
            };""")
        driver.find_element(By.CSS_SELECTOR, f"{row} button.buy").click()
        wait_until(lambda: driver.find_element(By.CSS_SELECTOR, error).text.startswith("Not bought"), 10, "lost")
        assert points_of(harness, user)["balance"] == 45  # the server did charge: 95 - 2 × 25
        wait_until(lambda: driver.find_element(By.CSS_SELECTOR, f"{row} button.buy").is_enabled(), 10, "Buy again")
        driver.find_element(By.CSS_SELECTOR, f"{row} button.buy").click()
        wait_until(lambda: driver.find_element(By.ID, "profile-status").text.startswith("Bought"), 10, "bought")
        sent = driver.execute_script("return window.purchasesSent")
        assert len(sent) == 2 and sent[0] == sent[1] and sent[0]["idempotencyKey"], sent
        assert driver.find_element(By.ID, "profile-status").text == "Bought 2 × Water bottle. Balance: 45."
        assert driver.find_element(By.ID, "balance").text == "Balance: 45 points"
        statement = points_of(harness, user)
        assert statement["balance"] == 45, statement["balance"]
        assert [e["kind"] for e in statement["entries"]].count("purchase") == 1, statement["entries"]
        assert driver.find_element(By.CSS_SELECTOR, "#missions li[data-mission-id='encourage'] .meta").text \
            == "Done · 5 points earned"
        check_axe(driver)
        phone_screenshot(driver, "profile")
        driver.switch_to.default_content()
        sent = [e for e in events() if e["type"] in ("purchase_completed", "points_changed", "mission_completed")]
        assert sent == [
            {"type": "purchase_completed", "data": {"itemId": item["id"], "quantity": 2, "unitPrice": 25, "balance": 45}},
            {"type": "points_changed", "data": {"balance": 45, "change": -50, "reason": "purchase"}},
            {"type": "mission_completed", "data": {"missionId": "encourage", "points": 5}},
            {"type": "points_changed", "data": {"balance": 45, "change": 5, "reason": "mission_completed"}},
        ], sent
        RECEIVED.extend(raw for raw in driver.execute_script("return window.formaRaw")
                        if any(kind in raw for kind in ("purchase_completed", "points_changed", "mission_completed")))
    finally:
        driver.switch_to.default_content()
        driver.set_window_size(600, 1000)


def test_people_page(harness):
    """/embed/people at phone size: finds a person by part of their name and one by their user id, follows them, cheers their completed workout in
    the feed, and gives them 20 points with a message: the points move (read back through the API) and the host gets
    points_changed; following a private profile is a request; an unknown id is said under the field; axe-core finds
    no violation."""
    driver = harness.driver
    user = "giver"
    friend = "gift-friend"
    harness.api("PATCH", "/v1/me", user, {"displayName": "Gia"})
    harness.api("PATCH", "/v1/me", friend, {"displayName": "Finn"})
    harness.api("PATCH", "/v1/me", "private-one", {"displayName": "Pia", "privateProfile": True})
    top_up(harness, user, 50)
    workout = harness.api("POST", "/v1/workouts/generate", friend,
                          {"muscles": ["quadriceps"], "equipment": [], "level": "beginner", "minutes": 10, "seed": 3})
    harness.api("POST", f"/v1/workouts/{workout['id']}/start", friend)
    harness.api("POST", f"/v1/workouts/{workout['id']}/save", friend,
                {"results": [{"exerciseId": workout["items"][0]["exerciseId"], "reps": 10}]})
    friend_before = points_of(harness, friend)["balance"]
    driver.set_window_size(390, 844)
    try:
        events = open_in_iframe(harness, f"{harness.base}/embed/people?company=Acme", user)
        driver.switch_to.frame(driver.find_element(By.ID, "forma"))
        wait_until(lambda: driver.find_elements(By.ID, "find-user"), 30, "the search")
        check_axe(driver)

        def find(user_id):
            field = driver.find_element(By.ID, "find-user")
            field.clear()
            field.send_keys(user_id)
            driver.find_element(By.ID, "find-button").click()

        find("nobody-here")
        wait_until(lambda: driver.find_element(By.ID, "find-error").text, 10, "not found")
        assert driver.find_element(By.ID, "find-error").text == \
            "Nobody in this company is called 'nobody-here' or has that id."

        find("PI")  # by part of the name, ignoring case
        wait_until(lambda: driver.find_elements(By.CSS_SELECTOR, "#results li[data-user-id='private-one']"), 10, "Pia")
        assert [li.get_attribute("data-user-id") for li in driver.find_elements(By.CSS_SELECTOR, "#results li")] \
            == ["private-one"]
        driver.find_element(By.CSS_SELECTOR, "#results li button.open-person").click()
        wait_until(lambda: driver.find_element(By.ID, "person-heading").text == "Pia", 10, "Pia")
        driver.find_element(By.ID, "follow").click()
        wait_until(lambda: driver.find_element(By.ID, "people-status").text ==
                   "Follow requested: Pia has a private profile.", 10, "requested")
        assert driver.find_element(By.ID, "follow").text == "Withdraw request"

        find(friend)  # a user id, as a host app may hand it
        wait_until(lambda: driver.find_element(By.ID, "person-heading").text == "Finn", 10, "Finn")
        driver.find_element(By.ID, "follow").click()
        wait_until(lambda: driver.find_element(By.ID, "people-status").text == "You now follow Finn.", 10, "followed")
        assert driver.find_element(By.ID, "person-counts").text == "1 follower · following 0"
        cheer = "#feed li[data-run-id] button.cheer"
        wait_until(lambda: driver.find_elements(By.CSS_SELECTOR, cheer), 10, "the feed")
        driver.find_element(By.CSS_SELECTOR, cheer).click()
        wait_until(lambda: driver.find_element(By.ID, "people-status").text == "You cheered Finn.", 10, "cheered")
        assert driver.find_element(By.CSS_SELECTOR, "#feed li[data-run-id] .cheers").text == "1 cheer"
        feed = harness.api("GET", "/v1/me/feed", user)["items"]
        assert feed[0]["workout"]["cheers"] == 1 and feed[0]["workout"]["cheeredByMe"], feed

        driver.find_element(By.ID, "gift-points").send_keys("20")
        driver.find_element(By.ID, "gift-message").send_keys("Well done")
        driver.find_element(By.ID, "gift-button").click()
        wait_until(lambda: driver.find_element(By.ID, "people-status").text.startswith("You gave"), 10, "given")
        mine = points_of(harness, user)
        # 50 from the top-up, 5 for the "encourage" mission the cheer completed, 20 given
        assert mine["balance"] == 35, mine
        assert driver.find_element(By.ID, "people-status").text == "You gave Finn 20 points. Balance: 35."
        theirs = points_of(harness, friend)
        assert theirs["balance"] == friend_before + 20, (theirs, friend_before)
        gift = theirs["entries"][0]
        assert (gift["kind"], gift["amount"], gift["counterpartyUserId"], gift["message"]) == \
            ("gift", 20, user, "Well done"), gift
        check_axe(driver)
        phone_screenshot(driver, "people", scroll_to="#person-heading")
        driver.switch_to.default_content()
        changed = [e for e in events() if e["type"] == "points_changed"]
        assert changed == [{"type": "points_changed", "data": {"balance": 35, "change": -20, "reason": "gift"}}], changed
    finally:
        driver.switch_to.default_content()
        driver.set_window_size(600, 1000)


def backdate_active_run(harness, workout_id, user, seconds):
    """Moves the person's run in progress `seconds` back in the server's SQLite database, as if they had started it
    that long ago: the server's clock is the real one here, and a goal counts only runs active for at least 10
    minutes (docs/goals.md), which a browser test cannot wait for."""
    import glob
    import sqlite3
    from datetime import datetime, timedelta

    run_id = harness.api("GET", f"/v1/workouts/{workout_id}", user)["activeRun"]["id"]
    databases = [path for path in glob.glob(os.path.join(harness.server.data_dir, "*"))
                 if path.endswith((".sqlite", ".sqlite3", ".db"))]
    assert len(databases) == 1, databases
    with sqlite3.connect(databases[0], timeout=10) as db:
        rows = db.execute("SELECT id, typeof(started_at), started_at, active_since FROM workout_runs "
                          "WHERE lower(id) = lower(?) OR hex(id) = upper(replace(?, '-', ''))",
                          (run_id, run_id)).fetchall()
        assert len(rows) == 1, rows
        row_id, kind, started, since = rows[0]
        if kind in ("real", "integer"):
            moved = (started - seconds, since - seconds)
        else:
            def back(text):
                parsed = datetime.fromisoformat(text.replace("Z", "+00:00"))
                written = (parsed - timedelta(seconds=seconds)).isoformat(timespec="milliseconds")
                return written.replace("+00:00", "Z") if text.endswith("Z") else written
            moved = (back(started), back(since))
        db.execute("UPDATE workout_runs SET started_at = ?, active_since = ? WHERE id = ?", (*moved, row_id))


def test_goals_page(harness):
    """/embed/goals: the person adds a goal with the form (a refused number is shown beside its field, nothing stored)
    and sees it listed; a matching run saved through the API makes it done, and the page, opened again, shows it done
    and tells the host `goal_completed` once, not again when the list is refreshed; axe-core finds no violation; the
    goals are removed with their buttons."""
    from axe_selenium_python import Axe
    from selenium.webdriver.common.keys import Keys
    from selenium.webdriver.support.ui import Select

    driver = harness.driver
    user = "goals-page-user"
    src = f"{harness.base}/embed/goals?company=Acme"
    open_in_iframe(harness, src, user)
    driver.switch_to.frame(driver.find_element(By.ID, "forma"))
    wait_until(lambda: driver.find_elements(By.CSS_SELECTOR, "#goals li.empty"), 30, "the empty list")

    def fill(name, description, times, ticks, minutes, days):
        for field, value in (("name", name), ("description", description), ("times", times)):
            box = driver.find_element(By.ID, f"goal-{field}")
            box.clear()
            box.send_keys(value)
        for tick in ticks:
            box = driver.find_element(By.ID, tick)
            if not box.is_selected():
                box.click()
        Select(driver.find_element(By.ID, "goal-minutes")).select_by_value(str(minutes))
        Select(driver.find_element(By.ID, "goal-daysPerWeek")).select_by_value(str(days))
        driver.find_element(By.ID, "add").click()

    # a number the server refuses: the message stands next to the field, and nothing is stored
    fill("Strong legs", "Squats twice a week", "0", ["goal-muscles-quadriceps"], 10, 2)
    wait_until(lambda: driver.find_element(By.ID, "times-error").text, 10, "the times error")
    assert "365" in driver.find_element(By.ID, "times-error").text, driver.find_element(By.ID, "times-error").text
    assert driver.find_element(By.ID, "goal-times").get_attribute("aria-invalid") == "true"
    # the keyboard is taken to the field to correct
    assert driver.switch_to.active_element.get_attribute("id") == "goal-times"
    assert harness.api("GET", "/v1/me/goals", user)["total"] == 0

    fill("Strong legs", "Squats twice a week", "1", ["goal-muscles-quadriceps"], 10, 2)
    wait_until(lambda: driver.find_element(By.ID, "goals-status").text == "Added Strong legs.", 10, "the added goal")
    item = wait_until(lambda: driver.find_elements(By.CSS_SELECTOR, "#goals li[data-goal-id]"), 10, "the list item")
    assert len(item) == 1 and "Squats twice a week" in item[0].text and "0 of 1 sessions" in item[0].text, item[0].text
    phone_screenshot(driver, "goals")
    stored = harness.api("GET", "/v1/me/goals", user)["items"]
    assert [(g["name"], g["times"], g["muscles"], g["minutes"], g["daysPerWeek"]) for g in stored] == [
        ("Strong legs", 1, ["quadriceps"], 10, 2)], stored
    assert item[0].get_attribute("data-goal-id") == stored[0]["id"]
    assert driver.find_element(By.ID, "times-error").text == ""
    driver.switch_to.default_content()

    # a quadriceps run active for 11 minutes, saved: the goal is done
    workout = harness.api("POST", "/v1/workouts/generate", user,
                          {"muscles": ["quadriceps"], "equipment": [], "level": "beginner", "minutes": 10})
    harness.api("POST", f"/v1/workouts/{workout['id']}/start", user)
    backdate_active_run(harness, workout["id"], user, 11 * 60)
    harness.api("POST", f"/v1/workouts/{workout['id']}/save", user,
                {"results": [{"exerciseId": workout["items"][0]["exerciseId"], "reps": 10}]})
    goal = harness.api("GET", f"/v1/me/goals/{stored[0]['id']}", user)
    assert goal["progress"]["done"] and goal["progress"]["sessions"] == 1, goal["progress"]

    # the page opened again shows it done and tells the host once
    host_events = open_in_iframe(harness, src, user)

    def events():
        # the host page's record, read from outside the frame
        driver.switch_to.default_content()
        try:
            return host_events()
        finally:
            driver.switch_to.frame(driver.find_element(By.ID, "forma"))

    driver.switch_to.frame(driver.find_element(By.ID, "forma"))
    done = wait_until(lambda: driver.find_elements(By.CSS_SELECTOR, "#goals li.done"), 30, "the goal done")
    assert "Done: 1 of 1 sessions" in done[0].text, done[0].text
    told = wait_until(lambda: [e for e in events() if e["type"] == "goal_completed"], 10, "goal_completed")
    assert told == [{"type": "goal_completed", "data": {
        "id": goal["id"], "name": "Strong legs", "sessions": 1, "times": 1,
        "completedAt": goal["progress"]["completedAt"]}}], told
    # another goal added refreshes the list: the done goal is not told again
    fill("Arms", "", "5", ["goal-categories-strength"], 15, 3)
    wait_until(lambda: driver.find_element(By.ID, "goals-status").text == "Added Arms.", 10, "the second goal")
    wait_until(lambda: len(driver.find_elements(By.CSS_SELECTOR, "#goals li[data-goal-id]")) == 2, 10, "two goals")
    assert len([e for e in events() if e["type"] == "goal_completed"]) == 1, events()

    axe = Axe(driver)
    axe.inject()
    results = axe.run()
    assert not results["violations"], json.dumps(
        [(v["id"], [n["target"] for n in v["nodes"]]) for v in results["violations"]], indent=1)

    # removed from the keyboard: Enter on the button screen readers name "Remove goal …"
    def press_enter_on(selector):
        # The list may be redrawn between finding the button and pressing it: find it again until the deadline.
        driver.find_element(By.CSS_SELECTOR, selector).send_keys(Keys.ENTER)
        return True

    for name in ("Strong legs", "Arms"):
        wait_until(lambda: press_enter_on(f"button[aria-label='Remove goal {name}']"), 10, f"the Remove {name} button")
        wait_until(lambda: driver.find_element(By.ID, "goals-status").text == f"Removed {name}.", 10, f"{name} removed")
    wait_until(lambda: driver.find_elements(By.CSS_SELECTOR, "#goals li.empty"), 10, "the list emptied")
    assert len([e for e in events() if e["type"] == "goal_completed"]) == 1, events()
    driver.switch_to.default_content()
    assert harness.api("GET", "/v1/me/goals", user)["total"] == 0
    RECEIVED.extend(raw for raw in driver.execute_script("return window.formaRaw") if "goal_completed" in raw)


# ---- the fitness test (/embed/fitness-test, docs/fitness-tests.md "The page") and the home page's workout groups

def motion_samples(reps, period, seconds, seed, lead=3.0):
    """`seconds` of wrist motion at 50 Hz in the API's terms (g, gravity included, an upright phone reads y = −1):
    `lead` seconds of rest, `reps` vertical strokes `period` seconds apart, rest to the end."""
    import math
    import random
    rng = random.Random(seed)
    accel = []
    for i in range(int(seconds * 50)):
        t = i / 50 - lead
        stroke = 0.35 * math.sin(2 * math.pi * t / period) if 0 <= t < reps * period else 0
        accel.append([rng.gauss(0, 0.01), -1 + stroke + rng.gauss(0, 0.01), rng.gauss(0, 0.01)])
    return accel


def dispatch_motion(driver, accel):
    """Dispatches one `devicemotion` event per sample into the page, 20 ms apart by their `interval`, in the web's
    terms (m/s², the opposite sign of the API's); answers the page's state after the last one."""
    return driver.execute_script("""
        const [accel] = arguments;
        for (const [x, y, z] of accel) {
          window.dispatchEvent(new DeviceMotionEvent('devicemotion', {
            accelerationIncludingGravity: { x: -x * 9.80665, y: -y * 9.80665, z: -z * 9.80665 }, interval: 20 }));
        }
        return document.querySelector('.fitness-run').dataset.state;
    """, accel)


def result_text(result):
    """A stored result as the page words it: the rate to one decimal, halves away from zero, as Intl rounds."""
    from decimal import Decimal, ROUND_HALF_UP
    rate = Decimal(result["ratePerMinute"]).quantize(Decimal("0.1"), rounding=ROUND_HALF_UP)
    return f"{result['reps']} repetitions, {rate} a minute"


def fitness_state(driver):
    return driver.find_element(By.CSS_SELECTOR, ".fitness-run").get_attribute("data-state")


def test_fitness_test_page(harness):
    """/embed/fitness-test at phone size: the person tracks an exercise from the search, ticks two tracked ones and
    starts; a refused motion permission (iOS's prompt) is said and Begin stays; synthetic `devicemotion` events
    dispatched into the page are recorded for 30 s of samples and sent, and the server's count is shown beside the
    previous result; with no motion arriving the page says so; Skip sends 15 s; the completed test shows the level
    going up from the baseline; Track / Untrack toggles the server's tracking; the host gets
    `fitness_test_completed`; axe-core finds no violation."""
    driver = harness.driver
    user = "fitness-page-user"
    driver.set_window_size(390, 844)
    try:
        # the baseline: one earlier test of push-ups at 24 a minute
        harness.api("PUT", "/v1/me/tracked-exercises/Pushups", user)
        baseline = harness.api("POST", "/v1/fitness-tests", user, {"category": "strength", "exerciseIds": ["Pushups"]})
        baseline = harness.api("POST", f"/v1/fitness-tests/{baseline['id']}/exercises/Pushups/motion", user,
                               motion_set(8, 2.5, 1))
        assert baseline["status"] == "completed" and baseline["level"]["after"] == 1, baseline
        events = open_in_iframe(harness, f"{harness.base}/embed/fitness-test?company=Acme", user)
        driver.switch_to.frame(driver.find_element(By.ID, "forma"))
        fitness_setup(harness, driver, user)
        test = fitness_record_both(harness, driver, user)
        fitness_results(harness, driver, user, test, baseline)
        driver.switch_to.default_content()
        told = wait_until(lambda: [e for e in events() if e["type"] == "fitness_test_completed"], 10,
                          "fitness_test_completed")
        assert told == [{"type": "fitness_test_completed", "data": {
            "id": test["id"], "category": "strength", "exercises": 2, "levelBefore": 1, "level": 2,
            "levelledUp": True}}], told
        refused = [e["data"] for e in events() if e["type"] == "error_occurred"]
        assert [e["code"] for e in refused] == ["motion"] and "refused" in refused[0]["message"], refused
        RECEIVED.extend(raw for raw in driver.execute_script("return window.formaRaw") if "fitness_test_completed" in raw)
    finally:
        driver.switch_to.default_content()
        driver.set_window_size(600, 1000)


def fitness_setup(harness, driver, user):
    level = wait_until(lambda: driver.find_element(By.ID, "fitness-level").text, 30, "the level")
    assert level == "Your level: 1 (beginner) · 1 test completed", level
    wait_until(lambda: driver.find_elements(By.ID, "fitness-exercise-Pushups"), 10, "Pushups to tick")
    # Sit-Up is tracked from the search
    driver.find_element(By.ID, "track-search").send_keys("sit-up")
    driver.find_element(By.ID, "track-find").click()
    track = wait_until(lambda: [b for b in driver.find_elements(By.CSS_SELECTOR, "#track-results button.track")
                                if b.text == "Track Sit-Up" and b.is_enabled()], 10, "the Track Sit-Up button")
    track[0].click()
    wait_until(lambda: driver.find_element(By.ID, "fitness-status").text == "Sit-Up is tracked: fitness tests can pick it.",
               10, "Sit-Up tracked")
    assert harness.api("GET", "/v1/me/tracked-exercises/Sit-Up", user)["tracked"] is True
    boxes = wait_until(lambda: len(driver.find_elements(By.CSS_SELECTOR, "#fitness-choices input")) == 2
                       and driver.find_elements(By.CSS_SELECTOR, "#fitness-choices input"), 10, "two tracked exercises")
    assert driver.find_element(By.CSS_SELECTOR, "#track-results button[data-exercise-id='Sit-Up']").text == "Untrack Sit-Up"
    check_axe(driver)
    phone_screenshot(driver, "fitness-test")
    for box in boxes:
        box.click()
    driver.find_element(By.ID, "start-test").click()
    wait_until(lambda: driver.find_elements(By.ID, "begin"), 20, "the first exercise")


def fitness_record_both(harness, driver, user):
    test = harness.api("GET", "/v1/fitness-tests?limit=1", user)["items"][0]
    assert test["status"] == "in_progress" and sorted(test["remaining"]) == ["Pushups", "Sit-Up"], test
    order = [item["exerciseId"] for item in test["exercises"]]
    for number, exercise_id in enumerate(order, start=1):
        section = wait_until(lambda: driver.find_element(By.CSS_SELECTOR, f".fitness-run[data-exercise-id='{exercise_id}']"),
                             20, f"exercise {number}")
        assert driver.find_element(By.ID, "fitness-progress").text == f"Exercise {number} of 2"
        previous = driver.find_element(By.ID, "fitness-previous").text
        if exercise_id == "Pushups":
            listed = harness.api("GET", f"/v1/fitness-tests/{test['id']}", user)["exercises"]
            shown = next(item["previous"] for item in listed if item["exerciseId"] == "Pushups")
            assert previous == f"Last time: {result_text(shown)}.", previous
            record_full_time(driver)
        else:
            assert previous == "No earlier result: this one sets your baseline.", previous
            record_without_motion_then_skip(driver)
        result = wait_until(lambda: recorded_result(driver), 60, f"result {number}")
        stored = next(item for item in harness.api("GET", f"/v1/fitness-tests/{test['id']}", user)["exercises"]
                      if item["exerciseId"] == exercise_id)["result"]
        line = result_text(stored)
        assert result == line, (result, line)
        # the server counted the strokes in the page's recording
        assert abs(stored["reps"] - (10 if exercise_id == "Pushups" else 6)) <= 1, stored
        assert section.get_attribute("data-state") == "recorded"
        assert driver.switch_to.active_element.get_attribute("id") == "result-heading"
        if number == 1:
            check_axe(driver)
        wait_until(lambda: click_if_present(driver, "#next"), 10, "the Next button")
    return harness.api("GET", f"/v1/fitness-tests/{test['id']}", user)


def recorded_result(driver):
    """The result line once the page shows it; a recording the page gave up on fails at once with its message."""
    if fitness_state(driver) == "ready" and driver.find_element(By.ID, "fitness-alert").text:
        raise AssertionError(f"not recorded: {driver.find_element(By.ID, 'fitness-alert').text}")
    return driver.find_element(By.ID, "result-this").text


def record_full_time(driver):
    """iOS's permission prompt refused, then granted; 30 s of samples end the recording on their own."""
    driver.execute_script("DeviceMotionEvent.requestPermission = () => Promise.resolve('denied');")
    driver.find_element(By.ID, "begin").click()
    alert = wait_until(lambda: driver.find_element(By.ID, "fitness-alert").text, 10, "the refusal")
    assert "Motion access was refused" in alert, alert
    assert fitness_state(driver) == "ready" and driver.find_element(By.ID, "begin").is_displayed()
    driver.execute_script("DeviceMotionEvent.requestPermission = () => Promise.resolve('granted');")
    driver.find_element(By.ID, "begin").click()
    wait_until(lambda: fitness_state(driver) == "recording", 10, "the recording")
    assert driver.find_element(By.ID, "fitness-alert").text == ""
    assert driver.find_element(By.ID, "fitness-timer").text == "0:30"
    # 1,500 samples at 20 ms are the 30 seconds: the page stops and sends by itself
    state = dispatch_motion(driver, motion_samples(10, 2.0, 30, seed=7))
    assert state in ("sending", "recorded"), state


def record_without_motion_then_skip(driver):
    """No prompt (Android, desktop): Begin records at once; nothing arriving is said; 15 s of samples, then Skip."""
    driver.execute_script("delete DeviceMotionEvent.requestPermission;")
    driver.find_element(By.ID, "begin").click()
    wait_until(lambda: fitness_state(driver) == "recording", 10, "the recording")
    alert = wait_until(lambda: driver.find_element(By.ID, "fitness-alert").text, 30, "the no-motion message")
    assert "No motion is arriving" in alert, alert
    assert dispatch_motion(driver, motion_samples(6, 2.0, 15, seed=8, lead=1.5)) == "recording"
    assert driver.find_element(By.ID, "fitness-alert").text == ""
    assert driver.find_element(By.ID, "fitness-timer").text == "0:15"
    assert driver.switch_to.active_element.get_attribute("id") == "skip"
    driver.find_element(By.ID, "skip").click()


def fitness_results(harness, driver, user, test, baseline):
    assert test["status"] == "completed" and test["level"] == {**test["level"], "before": 1, "after": 2,
                                                               "levelledUp": True}, test
    heading = wait_until(lambda: driver.find_elements(By.ID, "results-heading"), 20, "the results")
    assert driver.switch_to.active_element == heading[0]
    level = driver.find_element(By.ID, "fitness-level-result").text
    assert level == "Level up! You are now level 2 (beginner), up from 1.", level
    assert driver.find_element(By.ID, "fitness-reason").text == test["level"]["reason"]
    rows = {row.get_attribute("data-exercise-id"): [cell.text for cell in row.find_elements(By.CSS_SELECTOR, "th, td")]
            for row in driver.find_elements(By.CSS_SELECTOR, "#fitness-results tbody tr")}
    line = result_text
    for item in test["exercises"]:
        previous = line(item["previous"]) if "previous" in item else "—"
        change = f"{round(abs(item['change']) * 100)} % faster" if "change" in item else "—"
        assert rows[item["exerciseId"]] == [item["name"], line(item["result"]), previous, change], rows
    pushups = next(item for item in test["exercises"] if item["exerciseId"] == "Pushups")
    assert pushups["previous"]["id"] == baseline["exercises"][0]["result"]["id"], pushups
    check_axe(driver)
    phone_screenshot(driver, "fitness-test-results")
    # Untrack, then track again, from the results
    untrack = driver.find_element(By.CSS_SELECTOR, "#track-buttons button[data-exercise-id='Sit-Up']")
    wait_until(lambda: untrack.text == "Untrack Sit-Up" and untrack.is_enabled(), 10, "the Untrack button")
    untrack.click()
    wait_until(lambda: driver.find_element(By.ID, "fitness-status").text
               == "Sit-Up is no longer tracked; its results are kept.", 10, "Sit-Up untracked")
    assert untrack.text == "Track Sit-Up"
    assert harness.api("GET", "/v1/me/tracked-exercises/Sit-Up", user)["tracked"] is False
    untrack.click()
    wait_until(lambda: driver.find_element(By.ID, "fitness-status").text == "Sit-Up is tracked: fitness tests can pick it.",
               10, "Sit-Up tracked again")
    assert harness.api("GET", "/v1/me/tracked-exercises/Sit-Up", user)["tracked"] is True
    assert harness.api("GET", "/v1/me/fitness-level", user)["level"] == 2


def test_view_workouts(harness):
    """Home's "Your workouts" at phone size: the run in progress (paused) under In progress with Resume and Quit, the
    saved workout under Saved; Quit ends the run on the server and empties the group; Resume opens the player, which
    resumes the paused run; axe-core finds no violation."""
    driver = harness.driver
    user = "view-workouts-user"
    request = {"muscles": ["quadriceps"], "equipment": [], "level": "beginner", "minutes": 10}
    saved = harness.api("POST", "/v1/workouts/generate", user, dict(request, seed=4))
    harness.api("POST", f"/v1/workouts/{saved['id']}/start", user)
    harness.api("POST", f"/v1/workouts/{saved['id']}/save", user,
                {"results": [{"exerciseId": saved["items"][0]["exerciseId"], "reps": 10}]})
    going = harness.api("POST", "/v1/workouts/generate", user, dict(request, minutes=15, seed=5))
    harness.api("POST", f"/v1/workouts/{going['id']}/start", user)
    harness.api("POST", f"/v1/workouts/{going['id']}/pause", user)
    driver.set_window_size(390, 844)
    try:
        open_in_iframe(harness, f"{harness.base}/embed/?company=Acme", user)
        driver.switch_to.frame(driver.find_element(By.ID, "forma"))
        row = wait_until(lambda: driver.find_elements(By.CSS_SELECTOR, "#in-progress li"), 30, "the In progress group")
        assert len(row) == 1 and row[0].get_attribute("data-workout-id") == going["id"], row
        assert going["name"] in row[0].text and "paused" in row[0].text, row[0].text
        listed = [li.get_attribute("data-workout-id") for li in driver.find_elements(By.CSS_SELECTOR, "#workouts li")]
        assert listed == [saved["id"]], listed
        headings = [e.text for e in driver.find_elements(By.CSS_SELECTOR, ".workout-groups h2")]
        assert headings == ["In progress", "Saved"], headings
        check_axe(driver)
        phone_screenshot(driver, "home", scroll_to="#workouts-heading")
        # Quit from the list
        driver.find_element(By.CSS_SELECTOR, f"button[aria-label='Quit {going['name']}']").click()
        wait_until(lambda: driver.find_element(By.ID, "workouts-status").text.startswith(f"Quit {going['name']}."),
                   10, "the run quit")
        assert driver.find_element(By.CSS_SELECTOR, "#in-progress-group .empty").text == "No workout in progress."
        assert harness.api("GET", "/v1/workouts?status=in_progress", user)["items"] == []
        driver.switch_to.default_content()
        # Resume from the list: a paused run carries on in the player
        harness.api("POST", f"/v1/workouts/{going['id']}/start", user)
        harness.api("POST", f"/v1/workouts/{going['id']}/pause", user)
        events = open_in_iframe(harness, f"{harness.base}/embed/?company=Acme", user)
        driver.switch_to.frame(driver.find_element(By.ID, "forma"))
        wait_until(lambda: click_if_present(driver, f"button[aria-label='Resume {going['name']}']"), 30, "Resume")
        start = wait_until(lambda: driver.find_elements(By.ID, "start"), 30, "the player's summary")
        assert start[0].text == "Resume workout", start[0].text
        start[0].click()
        wait_until(lambda: harness.api("GET", f"/v1/workouts/{going['id']}", user)["activeRun"]["status"]
                   == "in_progress", 20, "the run resumed")
        driver.switch_to.default_content()
        wait_until(lambda: [e for e in events() if e["type"] == "workout_started"], 10, "workout_started")
        driver.switch_to.frame(driver.find_element(By.ID, "forma"))
        wait_until(lambda: click_if_present(driver, "#exit"), 20, "the Exit button")
        wait_until(lambda: harness.api("GET", f"/v1/workouts/{going['id']}", user).get("activeRun") is None, 20,
                   "the run left to be quit")
    finally:
        driver.switch_to.default_content()
        driver.set_window_size(600, 1000)


def test_fitness_test_carries_on_at_tablet_size(harness):
    """/embed/fitness-test at tablet size: a test started elsewhere (a host's API call) is offered with Carry on and
    goes on at its first remaining exercise; recorded, it is the person's first test, so the level is kept as the
    baseline and said so; axe-core finds no violation."""
    driver = harness.driver
    user = "fitness-tablet-user"
    harness.api("PUT", "/v1/me/tracked-exercises/Bodyweight_Squat", user)
    started = harness.api("POST", "/v1/fitness-tests", user, {"category": "strength", "count": 1})
    assert started["remaining"] == ["Bodyweight_Squat"], started
    driver.set_window_size(820, 1180)
    try:
        open_in_iframe(harness, f"{harness.base}/embed/fitness-test?company=Acme", user)
        driver.switch_to.frame(driver.find_element(By.ID, "forma"))
        carry_on = wait_until(lambda: driver.find_elements(By.ID, "carry-on"), 30, "Carry on")
        assert carry_on[0].text == "Carry on with your strength test (0 of 1 recorded)", carry_on[0].text
        carry_on[0].click()
        wait_until(lambda: driver.find_element(By.ID, "exercise-name").text == "Bodyweight Squat", 20, "the squat")
        driver.execute_script("delete DeviceMotionEvent.requestPermission;")
        driver.find_element(By.ID, "begin").click()
        wait_until(lambda: fitness_state(driver) == "recording", 10, "the recording")
        dispatch_motion(driver, motion_samples(9, 2.4, 30, seed=12))
        result = wait_until(lambda: recorded_result(driver), 60, "the result")
        test = harness.api("GET", f"/v1/fitness-tests/{started['id']}", user)
        assert test["status"] == "completed" and result == result_text(test["exercises"][0]["result"]), (result, test)
        assert driver.find_element(By.ID, "result-previous").text == "none"
        wait_until(lambda: click_if_present(driver, "#next"), 10, "See your results")
        level = wait_until(lambda: driver.find_element(By.ID, "fitness-level-result").text, 20, "the level")
        assert level == "Level 1 (beginner): not changed." and test["level"]["levelledUp"] is False, level
        assert driver.find_element(By.ID, "fitness-reason").text == test["level"]["reason"]
        check_axe(driver)
    finally:
        driver.switch_to.default_content()
        driver.set_window_size(600, 1000)


def test_fitness_js_writes_the_apis_motion_format(harness):
    """fitness.js's MotionRecorder turns `devicemotion` events into the API's recording: g with Core Motion's sign,
    rotation as [beta, gamma, alpha] deg/s, `sampleRate` from a uniform interval, else `t` from the intervals, no
    gyroscope unless every sample has one; the server accepts both
    forms and counts the same strokes."""
    driver = harness.driver
    driver.get(f"{harness.base}/embed/")
    accel = motion_samples(8, 2.0, 24, seed=9)
    made = driver.execute_async_script("""
        const [accel, done] = arguments;
        import('/embed/assets/fitness.js').then(({ MotionRecorder }) => {
          const record = (interval, rotation) => {
            const target = new EventTarget();
            const recorder = new MotionRecorder({ seconds: 1000, target });
            recorder.start();
            accel.forEach(([x, y, z], i) => {
              const init = { accelerationIncludingGravity: { x: -x * 9.80665, y: -y * 9.80665, z: -z * 9.80665 },
                             interval: interval(i) };
              if (rotation(i)) init.rotationRate = { alpha: 30, beta: 10, gamma: 20 };
              target.dispatchEvent(new DeviceMotionEvent('devicemotion', init));
            });
            return recorder.recording('Pushups');
          };
          // 20 ms throughout with rotation; then 20 and 21 ms alternating, one sample without rotation
          done([record(() => 20, () => true), record((i) => (i % 2 ? 21 : 20), (i) => i !== 7)]);
        }).catch((error) => done(`error: ${error}`));
    """, accel)
    assert isinstance(made, list), made
    uniform, uneven = made
    assert uniform["sampleRate"] == 50 and "t" not in uniform, {k: uniform[k] for k in uniform if k != "accel"}
    assert len(uniform["accel"]) == len(accel) and all(
        abs(a - b) < 1e-4 for got, want in zip(uniform["accel"], accel) for a, b in zip(got, want)), uniform["accel"][:3]
    assert uniform["gyro"][0] == [10, 20, 30] and len(uniform["gyro"]) == len(accel)
    assert "sampleRate" not in uneven and "gyro" not in uneven, sorted(uneven)
    times = uneven["t"]
    assert len(times) == len(accel) == len(uneven["accel"]), (len(times), len(accel))
    assert all(b > a for a, b in zip(times, times[1:])) and times[0] == 0.02 and times[1] == 0.041, times[:3]
    counts = []
    for body in (uniform, uneven):
        answer = harness.api("POST", "/v1/fitness-tests/motion", "fitness-js-user", body)
        counts.append(answer["reps"])
    assert counts[0] == counts[1] and abs(counts[0] - 8) <= 1, counts


EMBED_ASSETS = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "Sources", "FormaServer",
                            "EmbedAssets")
GERMAN_MONTHS = {"Jan.", "Feb.", "März", "Apr.", "Mai", "Juni", "Juli", "Aug.", "Sept.", "Okt.", "Nov.", "Dez."}


def catalogues(driver):
    """The message catalogues as the page imports them: {language: {key: message}}, and the page's own idea of the
    languages it has (i18n.js LANGUAGES)."""
    return driver.execute_async_script("""
      const done = arguments[arguments.length - 1];
      import('/embed/assets/i18n.js').then((i18n) => done({ languages: i18n.LANGUAGES, catalogues: i18n.CATALOGUES }))
        .catch((error) => done({ error: String(error) }));""")


def placeholders(message):
    forms = message.values() if isinstance(message, dict) else [message]
    return {name for form in forms if isinstance(form, str) for name in re.findall(r"\{(\w+)\}", form)}


def check_no_raw_keys(driver, keys):
    """Nothing the page shows or says (text, labels, placeholders, alt texts, SVG titles) is a catalogue key, and the
    page asked the catalogue for no key it lacks."""
    said = driver.execute_script("""
      const texts = [document.body.innerText];
      for (const element of document.querySelectorAll('[aria-label], [placeholder], [alt], [aria-valuetext], title, desc')) {
        for (const name of ['aria-label', 'placeholder', 'alt', 'aria-valuetext']) {
          if (element.getAttribute(name)) texts.push(element.getAttribute(name));
        }
        if (element.tagName === 'title' || element.tagName === 'desc') texts.push(element.textContent);
      }
      return texts.join('\\n');""")
    tokens = set(re.findall(r"[a-z]+(?:\.[a-zA-Z0-9]+)+", said))
    raw = sorted(tokens & keys)
    assert not raw, f"raw catalogue keys on the page: {raw}"
    missing = driver.execute_async_script("""
      const done = arguments[arguments.length - 1];
      import('/embed/assets/i18n.js').then((i18n) => done([...i18n.missing]));""")
    assert missing == [], f"keys the page asked for that its language lacks: {missing}"


def path_nodes(driver):
    return driver.execute_script("""
        return [...document.querySelectorAll('.plan-path .path-level')].map((li) => {
          const button = li.querySelector('button.path-node');
          const box = button.getBoundingClientRect();
          const line = getComputedStyle(li, '::after');
          return {level: Number(li.dataset.level), state: li.dataset.state, text: button.innerText.replace(/\\s+/g, ' '),
                  current: button.getAttribute('aria-current'), height: box.height, width: box.width,
                  icon: !!li.querySelector('.path-icon svg[aria-hidden=true]'),
                  line: line.content !== 'none' && parseFloat(line.height) > 0};
        });""")


def check_plan_path(driver, details, progress):
    """The path shows every level in order, each node at least 44 px high with its state in words (not colour alone)
    and the line joining it to the next; the level of the next session is marked current, levels above the unlocked
    one say Locked."""
    nodes = wait_until(lambda: path_nodes(driver) or None, 20, "the plan's path")
    assert [n["level"] for n in nodes] == [level["number"] for level in details["levels"]], nodes
    current = None
    if progress and progress.get("nextSessionId"):
        current = next(level["number"] for level in details["levels"]
                       if any(s["id"] == progress["nextSessionId"] for s in level["sessions"]))
    for index, (node, level) in enumerate(zip(nodes, details["levels"])):
        assert level_heading(level) in node["text"] and "Level 1: Level" not in node["text"], node
        weeks = sorted({s["week"] for s in level["sessions"]})
        assert (f"Week {weeks[0]}" if len(weeks) == 1 else f"Weeks {weeks[0]}–{weeks[-1]}") in node["text"], node
        locked = progress is None or level["number"] > progress["unlockedLevel"]
        assert node["state"] == ("locked" if locked else node["state"]) and (node["state"] != "locked") == (not locked)
        assert ("Locked" in node["text"]) == locked, node
        assert ("Unlocked" in node["text"] or "Completed" in node["text"]) == (not locked), node
        assert (node["current"] == "step") == (level["number"] == current), (node, current)
        assert ("You are here" in node["text"]) == (level["number"] == current), node
        assert node["icon"] and node["height"] >= 44, node
        assert node["line"] == (index < len(nodes) - 1), node
    return nodes


def plan_path_when_enrolled(harness, plan, details):
    """Enrolled, the first level is open and current, the others locked; Tab reaches the nodes in order and Enter on
    a locked level's node takes the focus to that level's sessions."""
    from selenium.webdriver.common.keys import Keys

    driver = harness.driver
    user = "plan-walker"
    harness.api("POST", f"/v1/plans/{plan['id']}/enrolment", user)
    progress = harness.api("GET", f"/v1/plans/{plan['id']}/progress", user)
    open_in_iframe(harness, f"{harness.base}/embed/plan/{plan['id']}?company=Acme", user)
    driver.switch_to.frame(driver.find_element(By.ID, "forma"))
    wait_until(lambda: driver.find_elements(By.CSS_SELECTOR, ".plan-path .path-level"), 30, "the enrolled plan page")
    nodes = check_plan_path(driver, details, progress)
    assert nodes[0]["current"] == "step" and nodes[0]["state"] == "open", nodes[0]
    assert len(nodes) > 1 and nodes[1]["state"] == "locked", nodes
    # The keyboard: from the Back button, Tab moves through the path's nodes in order.
    driver.execute_script("document.querySelector('.plan button.quiet').focus();")
    reached = []
    for _ in range(len(nodes)):
        driver.switch_to.active_element.send_keys(Keys.TAB)
        reached.append(driver.execute_script(
            "const li = document.activeElement.closest('.path-level'); return li && Number(li.dataset.level);"))
    assert reached == [n["level"] for n in nodes], reached
    driver.switch_to.active_element.send_keys(Keys.ENTER)
    focused = driver.execute_script("return document.activeElement.closest('section.level').id")
    assert focused == f"level-{nodes[-1]['level']}", focused
    check_axe(driver)
    phone_screenshot(driver, "plan")
    driver.switch_to.default_content()
    plan_path_after_a_level(harness, plan, details)


def plan_path_after_a_level(harness, plan, details):
    """Every session of level 1 done (started and saved through the API): level 1 says Completed with a tick and
    "6 of 6 sessions done", level 2 is open and current, level 3 still locked."""
    driver = harness.driver
    user = "plan-finisher"
    harness.api("POST", f"/v1/plans/{plan['id']}/enrolment", user)
    for session in details["levels"][0]["sessions"]:
        workout = harness.api("POST", f"/v1/plans/{plan['id']}/workouts", user, {"sessionId": session["id"]})
        harness.api("POST", f"/v1/workouts/{workout['id']}/start", user)
        harness.api("POST", f"/v1/workouts/{workout['id']}/save", user, {})
    progress = harness.api("GET", f"/v1/plans/{plan['id']}/progress", user)
    assert progress["unlockedLevel"] == 2, progress
    open_in_iframe(harness, f"{harness.base}/embed/plan/{plan['id']}?company=Acme", user)
    driver.switch_to.frame(driver.find_element(By.ID, "forma"))
    wait_until(lambda: driver.find_elements(By.CSS_SELECTOR, ".plan-path .path-level"), 30, "the plan page")
    nodes = check_plan_path(driver, details, progress)
    total = len(details["levels"][0]["sessions"])
    assert nodes[0]["state"] == "done" and f"Completed · {total} of {total} sessions done" in nodes[0]["text"], nodes[0]
    assert nodes[1]["state"] == "open" and nodes[1]["current"] == "step", nodes[1]
    assert all(node["state"] == "locked" for node in nodes[2:]), nodes
    check_axe(driver)
    driver.switch_to.default_content()


def test_plan_and_leaderboard_pages(harness):
    """/embed/plan/{id} shows the plan's title, summary, Start this plan and each level's sessions as the API has
    them; /embed/leaderboard shows the API's leaderboard rows; axe-core finds no violation on either (phone size)."""
    driver = harness.driver
    user = "plan-reader"
    plan = harness.api("GET", "/v1/plans", user)["items"][0]
    details = harness.api("GET", f"/v1/plans/{plan['id']}", user)
    driver.set_window_size(390, 844)
    try:
        open_in_iframe(harness, f"{harness.base}/embed/plan/{plan['id']}?company=Acme", user)
        driver.switch_to.frame(driver.find_element(By.ID, "forma"))
        wait_until(lambda: driver.find_elements(By.ID, "enrol"), 30, "the plan page")
        assert driver.find_element(By.CSS_SELECTOR, ".plan h1").text == details["summary"]["title"]
        assert driver.find_element(By.ID, "enrol").text == "Start this plan"
        levels = [e.text for e in driver.find_elements(By.CSS_SELECTOR, ".plan .level h2")]
        assert levels == [level_heading(level) for level in details["levels"]], levels
        sessions = len(driver.find_elements(By.CSS_SELECTOR, ".plan .level li"))
        assert sessions == sum(len(level["sessions"]) for level in details["levels"]), sessions
        check_plan_path(driver, details, None)
        check_axe(driver)
        driver.switch_to.default_content()
        plan_path_when_enrolled(harness, plan, details)
        board = harness.api("GET", "/v1/challenges/leaderboard?exercise=squat&seconds=10&limit=10", user)
        open_in_iframe(harness, f"{harness.base}/embed/leaderboard?exercise=squat&duration=10&company=Acme", user)
        driver.switch_to.frame(driver.find_element(By.ID, "forma"))
        wait_until(lambda: driver.find_elements(By.CSS_SELECTOR, ".leaderboard h1"), 30, "the leaderboard")
        rows = [[cell.text for cell in row.find_elements(By.TAG_NAME, "td")]
                for row in driver.find_elements(By.CSS_SELECTOR, "#leaderboard tbody tr")]
        assert rows == [[str(e["rank"]), e["name"], str(e["reps"])] for e in board["entries"]], (rows, board)
        check_axe(driver)
        phone_screenshot(driver, "leaderboard")
    finally:
        driver.switch_to.default_content()
        driver.set_window_size(600, 1000)


def test_language_catalogues(harness):
    """English and German are complete: the same keys, the same plural forms' `other`, the same placeholders in each
    message; every key the pages' code names literally (`t('…')`) is in the catalogue; the language choice follows
    the host, then the browser's languages, then English, and refuses a value that is not a language tag."""
    driver = harness.driver
    driver.get(f"{harness.base}/embed/")
    found = catalogues(driver)
    assert "error" not in found, found
    assert found["languages"] == ["en", "de"], found["languages"]
    english, german = found["catalogues"]["en"], found["catalogues"]["de"]
    assert set(english) == set(german), (sorted(set(english) - set(german)), sorted(set(german) - set(english)))
    for key, message in english.items():
        other = german[key]
        # plural forms where a language needs them (a plain string serves every count)
        for forms in (message, other):
            assert not isinstance(forms, dict) or "other" in forms, (key, forms)
        # a translation uses the parameters the code passes: those of the English message (the side of a pain
        # region is said after the region's own name in German, so it takes the name as the server has it)
        passed = placeholders(message) | ({"label"} if key in ("pain.left", "pain.right") else set())
        assert placeholders(other) <= passed and bool(placeholders(other)) == bool(placeholders(message)), (
            key, message, other)
        assert message and other, key
    used = set()
    for name in os.listdir(EMBED_ASSETS):
        if name.endswith(".js"):
            with open(os.path.join(EMBED_ASSETS, name), encoding="utf-8") as source:
                used.update(re.findall(r"\bt\('([a-zA-Z0-9.]+)'", source.read()))
    assert len(used) > 300, len(used)
    assert not sorted(used - set(english)), sorted(used - set(english))
    choices = driver.execute_async_script("""
      const done = arguments[arguments.length - 1];
      import('/embed/assets/i18n.js').then((i18n) => done([
        i18n.chooseLanguage('de', ['en-US']), i18n.chooseLanguage(null, ['fr-FR', 'de-CH', 'en']),
        i18n.chooseLanguage(null, ['fr-FR']), i18n.chooseLanguage('fr', ['de-DE']), i18n.chooseLanguage('!!', []),
      ].map((c) => [c.language, c.locale, c.problem])));""")
    assert choices == [["de", "de", None], ["de", "de-CH", None], ["en", "en", None],
                       ["de", "de-DE", "language.notOffered"], ["en", "en", "language.notATag"]], choices


def shown_texts(driver):
    """Every text node (trimmed) and every label, placeholder, alt text and value text of the page."""
    return set(driver.execute_script("""
      const texts = [];
      const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
      while (walker.nextNode()) if (walker.currentNode.textContent.trim()) texts.push(walker.currentNode.textContent.trim());
      for (const element of document.querySelectorAll('[aria-label], [placeholder], [alt], [aria-valuetext]')) {
        for (const name of ['aria-label', 'placeholder', 'alt', 'aria-valuetext']) {
          if (element.getAttribute(name)) texts.push(element.getAttribute(name).trim());
        }
      }
      return texts;"""))


def test_every_page_in_german(harness):
    """Each page opened with `?language=de` at phone size: `<html lang="de">`, none of the English catalogue's own
    sentences left on it (words hard-coded past the catalogue would be), no raw key, no key German lacks, and
    axe-core finds no violation."""
    driver = harness.driver
    user = "german-reader"
    driver.get(f"{harness.base}/embed/")
    found = catalogues(driver)["catalogues"]
    keys = set(found["en"])
    english_only = {message for key, message in found["en"].items()
                    if isinstance(message, str) and "{" not in message and message != found["de"][key]
                    and len(message) > 3}
    plan = harness.api("GET", "/v1/plans", user)["items"][0]["id"]
    pages = ["", f"plan/{plan}", "exercises", "exercise/Barbell_Squat", "goals", "themes", "pain-map", "progress",
             "fitness-test", "trainer", "competitions", "leaderboard?exercise=squat&duration=10",
             "challenge?exercise=squat&duration=10", "camera", "profile", "people"]
    driver.set_window_size(390, 844)
    try:
        for page in pages:
            joiner = "&" if "?" in page else "?"
            open_in_iframe(harness, f"{harness.base}/embed/{page}{joiner}company=Acme&language=de", user)
            driver.switch_to.frame(driver.find_element(By.ID, "forma"))
            wait_until(lambda: driver.find_elements(By.CSS_SELECTOR, "#app h1")
                       and not driver.find_elements(By.CSS_SELECTOR, "#app > p.status"), 30, f"/embed/{page}")
            time.sleep(0.3)  # a list drawn after its heading (the goals, the trainer's first question)
            assert driver.execute_script("return document.documentElement.lang") == "de", page
            left = sorted(shown_texts(driver) & english_only)
            assert not left, (page, left)
            check_no_raw_keys(driver, keys)
            check_axe(driver)
            driver.switch_to.default_content()
    finally:
        driver.switch_to.default_content()
        driver.set_window_size(600, 1000)


def test_pages_in_german(harness):
    """With `?language=de` (or the configuration's `"language": "de"`) the pages speak German at phone size: home and
    its workout groups, the workout player, the competitions with German dates and ordinals, the progress charts with
    German dates and decimal commas for the stored fitness rates; `<html lang>` is `de`, no catalogue key shows raw,
    axe-core finds no violation; an unknown language is reported as `error_occurred` and the page stays English."""
    from datetime import datetime, timedelta, timezone

    driver = harness.driver
    user = "german-user"
    request = {"muscles": ["quadriceps"], "equipment": [], "level": "beginner", "minutes": 10}
    going = harness.api("POST", "/v1/workouts/generate", user, dict(request, seed=7))
    harness.api("POST", f"/v1/workouts/{going['id']}/start", user)
    harness.api("POST", f"/v1/workouts/{going['id']}/pause", user)
    harness.api("PUT", "/v1/me/tracked-exercises/Pushups", user)
    for reps, period, seed in ((8, 2.5, 11), (11, 2.1, 12)):
        test = harness.api("POST", "/v1/fitness-tests", user, {"category": "strength", "exerciseIds": ["Pushups"]})
        harness.api("POST", f"/v1/fitness-tests/{test['id']}/exercises/Pushups/motion", user,
                    motion_set(reps, period, seed))
    now = datetime.now(timezone.utc)
    company_call(harness, "POST", "/v1/company/competitions", {
        "name": "Kniebeugen-Sprint", "metric": "total_reps", "exerciseId": "Bodyweight_Squat",
        "start": (now - timedelta(days=1)).strftime("%Y-%m-%dT00:00"),
        "end": (now + timedelta(days=3)).strftime("%Y-%m-%dT00:00")})
    driver.get(f"{harness.base}/embed/")
    keys = set(catalogues(driver)["catalogues"]["en"])
    frame = lambda: driver.switch_to.frame(driver.find_element(By.ID, "forma"))  # noqa: E731
    driver.set_window_size(390, 844)
    try:
        # home, the language in the URL
        open_in_iframe(harness, f"{harness.base}/embed/?company=Acme&language=de", user)
        frame()
        wait_until(lambda: driver.find_elements(By.CSS_SELECTOR, "#in-progress li"), 30, "the In progress group")
        assert driver.execute_script("return document.documentElement.lang") == "de"
        assert driver.find_element(By.CSS_SELECTOR, ".home h1").text == "Pläne"
        headings = [e.text for e in driver.find_elements(By.CSS_SELECTOR, ".workout-groups h2")]
        assert headings == ["Laufend", "Gespeichert"], headings
        row = driver.find_element(By.CSS_SELECTOR, "#in-progress li")
        assert "pausiert" in row.text and "Min." in row.text, row.text
        assert row.find_element(By.CSS_SELECTOR, "button.quit").get_attribute("aria-label") == f"{going['name']} abbrechen"
        assert driver.find_element(By.ID, "generate").text == "Training erstellen"
        check_no_raw_keys(driver, keys)
        check_axe(driver)
        phone_screenshot(driver, "home-de", scroll_to="#workouts-heading")
        # the player, the language in the configuration
        driver.switch_to.default_content()
        open_in_iframe(harness, f"{harness.base}/embed/workout/{going['id']}?company=Acme", user, language="de")
        frame()
        start = wait_until(lambda: driver.find_elements(By.ID, "start"), 30, "the player's summary")[0]
        assert start.text == "Training fortsetzen", start.text
        assert driver.execute_script("return document.documentElement.lang") == "de"
        assert " · etwa " in driver.find_element(By.CSS_SELECTOR, ".summary .meta").text
        assert driver.find_element(By.ID, "exit").text == "Beenden"
        check_no_raw_keys(driver, keys)
        check_axe(driver)
        # competitions: German dates ("Offen bis Mo., 30. Nov., 00:00") and places
        driver.switch_to.default_content()
        open_in_iframe(harness, f"{harness.base}/embed/competitions?company=Acme&language=de", user)
        frame()
        item = wait_until(lambda: [li for li in driver.find_elements(By.CSS_SELECTOR, "#open-competitions li")
                                   if "Kniebeugen-Sprint" in li.text], 30, "the German competition")[0]
        assert driver.find_element(By.ID, "competitions-heading").text == "Wettbewerbe"
        meta = item.find_element(By.CLASS_NAME, "meta").text
        assert meta.startswith("Zählt jede Wiederholung") and "Offen bis" in meta, meta
        shown_months = set(re.findall(r"\d{1,2}\. ([A-Za-zÄÖÜäöü]+\.?)", meta))
        assert shown_months and shown_months <= GERMAN_MONTHS, (meta, shown_months)
        item.find_element(By.CSS_SELECTOR, "button.join").click()
        wait_until(lambda: driver.find_element(By.ID, "competitions-status").text == "Bei Kniebeugen-Sprint dabei.", 10,
                   "the German join status")
        joined = wait_until(lambda: [li for li in driver.find_elements(By.CSS_SELECTOR, "#current-competitions li")
                                     if "Kniebeugen-Sprint" in li.text], 10, "the joined competition")[0]
        standing = joined.find_element(By.CLASS_NAME, "standing").text
        assert re.fullmatch(r"Du: \d+\. Platz, \d+ Wdh\.", standing), standing
        check_no_raw_keys(driver, keys)
        check_axe(driver)
        phone_screenshot(driver, "competitions-de")
        # progress: the stored fitness rates with a decimal comma, the days in German
        driver.switch_to.default_content()
        stored = harness.api("GET", "/v1/me/progress/fitness-tests", user)["exercises"][0]["points"]
        open_in_iframe(harness, f"{harness.base}/embed/progress?company=Acme&language=de", user)
        frame()
        wait_until(lambda: len(driver.find_elements(By.CSS_SELECTOR, "section.chart-block")) == 3, 30, "the charts")
        assert driver.find_element(By.CSS_SELECTOR, ".progress-charts h1").text == "Dein Fortschritt"
        rows = [[cell.get_attribute("textContent") for cell in row.find_elements(By.CSS_SELECTOR, "th, td")]
                for row in driver.find_elements(By.CSS_SELECTOR, "#fitness-chart tbody tr")]
        assert len(rows) == len(stored) == 2, rows
        for row, point in zip(rows, stored):
            rate = round(point["ratePerMinute"] * 10) / 10
            german = str(int(rate)) if rate == int(rate) else f"{rate:.1f}".replace(".", ",")
            assert row[2] == german, (row, point)
            day, month, year = re.fullmatch(r"(\d{1,2})\. (\S+) (\d{4})", row[0]).groups()
            assert month in GERMAN_MONTHS and f"{year}-" in point["date"] and int(day) == int(point["date"][8:10]), row
        titles = {e.get_attribute("textContent") for e in driver.find_elements(By.CSS_SELECTOR, "#fitness-chart .axis-title")}
        assert titles == {"Wdh. pro Minute", "Test"}, titles
        check_no_raw_keys(driver, keys)
        check_axe(driver)
        # a language the pages lack: reported, and the page carries on in the browser's language (English here)
        driver.switch_to.default_content()
        events = open_in_iframe(harness, f"{harness.base}/embed/competitions?company=Acme", user, language="fr")
        frame()
        wait_until(lambda: driver.find_elements(By.ID, "competitions-heading"), 30, "the competitions")
        assert driver.find_element(By.ID, "competitions-heading").text == "Competitions"
        driver.switch_to.default_content()
        refused = wait_until(lambda: [e for e in events() if e["type"] == "error_occurred"], 10, "the refusal")
        assert refused[0]["data"] == {"code": "configuration", "message":
                                      "language: 'fr' is not a language of these pages (en, de)"}, refused
    finally:
        driver.switch_to.default_content()
        driver.set_window_size(600, 1000)


def test_events_match_formakit_fixture(harness):
    """Every event shape the page sent in these tests is one FormaKit's decoding tests know, and the other way round:
    set FORMA_RECORD_EVENTS=1 to rewrite the fixture from this run."""
    assert RECEIVED, "no events were recorded"
    if os.environ.get("FORMA_RECORD_EVENTS"):
        first = {}
        for raw in RECEIVED:
            first.setdefault(shape(raw), raw)
        with open(EVENT_FIXTURE, "w") as out:
            json.dump(sorted(first.values(), key=lambda raw: shape(raw)), out, indent=1, ensure_ascii=False)
            out.write("\n")
    with open(EVENT_FIXTURE) as fixture:
        known = {shape(raw) for raw in json.load(fixture)}
    seen = {shape(raw) for raw in RECEIVED}
    assert seen == known, f"new shapes {sorted(seen - known)}; shapes no longer sent {sorted(known - seen)}"


def test_live_js_writes_the_golden_frames(harness):
    """The page's hand-written frame encoder (live.js) and the Swift codec agree byte for byte."""
    with open(GOLDEN_FRAMES) as file:
        golden = json.load(file)["frames"]
    driver = harness.driver
    driver.get(f"{harness.base}/embed/")
    written = driver.execute_async_script("""
        const [frames, done] = arguments;
        import('/embed/assets/live.js').then(({ encodeFrame }) => done(frames.map((frame) =>
          Array.from(new Uint8Array(encodeFrame(frame.t, frame.landmarks)),
                     (byte) => byte.toString(16).padStart(2, '0')).join(''))))
          .catch((error) => done(`error: ${error}`));
    """, golden)
    assert isinstance(written, list), written
    assert len(golden) >= 4 and written == [frame["hex"] for frame in golden], written


def main():
    if len(sys.argv) != 2:
        print("usage: run.py FORMA_BINARY", file=sys.stderr)
        return 2
    harness = Harness(sys.argv[1])
    passed = failed = 0
    try:
        harness.start()
        for test in (test_waits_retry_until_the_element_appears, test_iframe_host, test_ios_bridge, test_challenge, test_camera_component, test_live_cheer, test_camera_stage, test_spoken_cues_are_captioned,
                     test_camera_component_exercise_in_the_configuration,
                     test_home_generates_a_workout, test_wrong_key, test_android_and_react_native_bridges, test_pain_map, test_pain_map_js_hits_as_the_core_does,
                     test_progress_charts, test_theme_is_shown_and_told_to_the_host, test_themes_page, test_goals_page, test_style_and_branding, test_exercise_pages, test_competitions_page, test_profile_page, test_people_page, test_trainer_chat,
                     test_fitness_test_page, test_fitness_test_carries_on_at_tablet_size,
                     test_fitness_js_writes_the_apis_motion_format, test_view_workouts, test_workout_summary_pictures, test_key_pages_at_tablet_size, test_results_screen,
                     test_events_match_formakit_fixture, test_live_js_writes_the_golden_frames,
                     test_plan_and_leaderboard_pages, test_language_catalogues, test_pages_in_german,
                     test_every_page_in_german):
            # FORMA_BROWSER_TESTS=name,name runs only those tests (while working on a page).
            only = [name for name in os.environ.get("FORMA_BROWSER_TESTS", "").split(",") if name]
            if only and test.__name__ not in only:
                continue
            began = time.time()
            try:
                test(harness)
                passed += 1
                print(f"✔ Test {test.__name__}() passed after {time.time() - began:.3f} seconds.", flush=True)
            except Exception as error:  # noqa: BLE001
                failed += 1
                print(f"✘ Test {test.__name__}() failed after {time.time() - began:.3f} seconds: {error}", flush=True)
                traceback.print_exc()
    except Exception as error:  # noqa: BLE001
        failed += 1
        print(f"✘ Test browser_setup() failed after 0 seconds: {error}", flush=True)
        traceback.print_exc()
        print(harness.server.log_tail(3000), file=sys.stderr)
    finally:
        harness.stop()
    print(f"Browser tests: {passed} passed, {failed} failed")
    return 0 if failed == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
