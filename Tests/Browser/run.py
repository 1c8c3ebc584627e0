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
   at tablet size, a test started elsewhere carried on to its baseline level; the page's motion recorder writes the API's
   motion format (sample rate or times, g, deg/s), which the server counts.
7e. home's "Your workouts" grouped into In progress (Resume, Quit) and Saved; axe-core.
7f. a plan's levels as a path (locked, open, done, current; keyboard); spoken cues captioned (a replayed shallow
   squat's cue); the workout summary's movement pictures (reduced motion); home, exercise, competitions, workout,
   player while counting and results at tablet size (overflow, 44 px targets, axe-core).
8. the messages the page sent have exactly the shapes FormaKit's decoding tests know.
9. live.js encodes pose frames byte for byte as the Swift codec does (the golden frames FormaLiveTests writes).

The tests live by area in `*_pages.py` beside this file (host bridges, workouts, camera, rehab, trainer, style,
community, plans, fitness, language); `browser_support.py` holds the harness, the waits that retry until a deadline,
screenshots and axe-core. This file runs them in the order below.

Prints one line per test (`✔ Test <name> passed after <s> seconds.` or `✘ Test <name> failed ...`) and exits non-zero
when any failed. Usage: run.py FORMA_BINARY
"""
import os
import sys
import time
import traceback
from browser_support import Harness
from camera_pages import (
    test_camera_component,
    test_camera_component_exercise_in_the_configuration,
    test_camera_stage,
    test_challenge,
    test_live_cheer,
    test_live_js_writes_the_golden_frames,
    test_spoken_cues_are_captioned,
)
from community_pages import test_competitions_page, test_people_page, test_profile_page
from fitness_pages import (
    test_fitness_js_writes_the_apis_motion_format,
    test_fitness_test_carries_on_at_tablet_size,
    test_fitness_test_page,
)
from host_pages import (
    test_android_and_react_native_bridges,
    test_events_match_formakit_fixture,
    test_iframe_host,
    test_ios_bridge,
    test_waits_retry_until_the_element_appears,
    test_wrong_key,
)
from language_pages import test_every_page_in_german, test_language_catalogues, test_pages_in_german
from plan_pages import test_goals_page, test_plan_and_leaderboard_pages
from rehab_pages import test_pain_map, test_pain_map_js_hits_as_the_core_does, test_progress_charts
from style_pages import (
    test_exercise_pages,
    test_key_pages_at_tablet_size,
    test_style_and_branding,
    test_theme_is_shown_and_told_to_the_host,
    test_themes_page,
)
from trainer_pages import test_trainer_chat
from workout_pages import (
    test_home_generates_a_workout,
    test_results_screen,
    test_view_workouts,
    test_workout_summary_pictures,
)

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
