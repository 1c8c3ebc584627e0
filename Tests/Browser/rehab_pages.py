"""Browser tests of the pain map and the progress charts.
"""
import json
import os
from browser_support import RECEIVED, motion_set, open_in_iframe, phone_screenshot, wait_until
from selenium.webdriver.common.by import By

# The core's body-map hits over a grid of figure points (FormaCoreTests); pain-map.js must find the same.
GOLDEN_HITS = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "Fixtures", "body-map", "hits.json")


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
