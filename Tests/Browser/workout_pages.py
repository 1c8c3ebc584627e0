"""Browser tests of the workout player's results, home (generating a workout, your workouts) and the summary's
movement pictures.
"""
from browser_support import (
    RECEIVED,
    SQUAT_REPS,
    check_axe,
    click_if_present,
    open_in_iframe,
    phone_screenshot,
    play_workout,
    screenshot,
    wait_until,
)
from selenium.webdriver.common.by import By

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
