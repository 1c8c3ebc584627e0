"""Browser tests of the trainer's chat.
"""
import json
import re
import time
import urllib.parse
import urllib.request
from browser_support import (
    NOT_THERE_YET,
    RECEIVED,
    answer,
    chat_state,
    click_if_present,
    phone_screenshot,
    wait_for_question,
    wait_until,
)
from selenium.webdriver.common.by import By

def transcript(driver):
    return [(item.get_attribute("class"), item.find_element(By.CSS_SELECTOR, ".text").text)
            for item in driver.find_elements(By.CSS_SELECTOR, "#messages li")]


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
    assert message.strip(), "the refusal names no problem"
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
