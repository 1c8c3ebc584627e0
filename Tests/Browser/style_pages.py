"""Browser tests of themes, branding and contrast, the exercise pages, and the key pages at tablet size.
"""
import json
import re
import os
from browser_support import (
    RECEIVED,
    check_axe,
    click_if_present,
    company_call,
    open_in_iframe,
    phone_screenshot,
    play_workout,
    wait_until,
)
from selenium.webdriver.common.by import By
from small_png import shrink

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
