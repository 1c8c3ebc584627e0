"""Browser tests of the language catalogues and every page in German.
"""
import re
import os
import time
from browser_support import check_axe, company_call, motion_set, open_in_iframe, phone_screenshot, wait_until
from selenium.webdriver.common.by import By

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
