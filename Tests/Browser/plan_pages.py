"""Browser tests of goals, a plan's levels as a path, and leaderboards.
"""
import json
import os
from browser_support import RECEIVED, check_axe, open_in_iframe, phone_screenshot, wait_until
from selenium.webdriver.common.by import By

def level_heading(level):
    """A plan level's heading as the page shows it: the number once, then the level's name (the API's title
    already reads "Level 1: Foundations")."""
    prefix = f"Level {level['number']}: "
    name = level["title"][len(prefix):] if level["title"].startswith(prefix) else level["title"]
    return prefix + name


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
