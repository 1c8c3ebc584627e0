"""Browser tests of the host bridges: the player in an iframe with a counted workout and its saved run, the iOS,
Android and React Native bridges, a wrong key, FormaKit's event shapes, and the waits themselves.
"""
import json
import os
import urllib.parse
import urllib.request
from browser_support import NOT_THERE_YET, RECEIVED, SQUAT_REPS, play_workout, wait_until
from selenium.webdriver.common.by import By

# Messages exactly as the page posted them: FormaKit's event decoding is tested against these (FormaKitTests).
EVENT_FIXTURE = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "FormaKitTests", "Fixtures",
                             "page-events.json")


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


def shape(raw):
    """An event's type and its fields: those of `data`, or, for seed 002's flat trainer event, those beside `type`."""
    message = json.loads(raw)
    if "data" not in message:
        return message["type"], tuple(sorted(key for key in message if key != "type"))
    return message["type"], tuple(sorted(message["data"].keys()))


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
