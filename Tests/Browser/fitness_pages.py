"""Browser tests of the fitness test page and its motion recorder.
"""
from browser_support import (
    RECEIVED,
    check_axe,
    click_if_present,
    motion_set,
    open_in_iframe,
    phone_screenshot,
    wait_until,
)
from selenium.webdriver.common.by import By

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
    """The fitness page's MotionRecorder (motion-recorder.js) turns `devicemotion` events into the API's recording: g with Core Motion's sign,
    rotation as [beta, gamma, alpha] deg/s, `sampleRate` from a uniform interval, else `t` from the intervals, no
    gyroscope unless every sample has one; the server accepts both
    forms and counts the same strokes."""
    driver = harness.driver
    driver.get(f"{harness.base}/embed/")
    accel = motion_samples(8, 2.0, 24, seed=9)
    made = driver.execute_async_script("""
        const [accel, done] = arguments;
        import('/embed/assets/motion-recorder.js').then(({ MotionRecorder }) => {
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
