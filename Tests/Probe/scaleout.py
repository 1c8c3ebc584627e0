"""Two `forma serve` processes on one PostgreSQL database, requests alternating between them, must behave as one
process does: login throttling, one workout in progress per person, challenge scores and the per-person limit of
open live sessions (docs/live-protocol.md). Where a rule is a number, the same sequence of requests is sent to one
process and, for another person, alternately to both, and the answers must be the same."""
import json
import threading
import time

from common import Server, bearer, request, session_token, unique
from live import connect, play_challenge

PASSWORD = "lifting-heavy-things-daily"
CHALLENGE_SECONDS = 10


class Pair:
    def __init__(self, binary, work, database_url):
        self.first = Server(binary, work, "scale-1", database_url=database_url)
        self.second = Server(binary, work, "scale-2", database_url=database_url)
        self.first.cli("migrate")
        self.key = self.first.create_company(unique("Scale"))
        self.first.start()
        self.second.start()
        self.bases = [self.first.base, self.second.base]

    def base(self, index):
        return self.bases[index % 2]

    def stop(self):
        self.first.stop()
        self.second.stop()


def login_statuses(bases, email, wrong):
    statuses = []
    for attempt in range(wrong + 2):
        password = PASSWORD if attempt >= wrong else f"wrong-guess-{attempt}"
        reply = request(bases[attempt % len(bases)], "POST", "/v1/login", None, {"email": email, "password": password})
        if reply.status == 429:
            assert reply.headers.get("retry-after", "").isdigit(), f"429 without Retry-After: {reply.headers}"
        statuses.append(reply.status)
    return statuses


def login_throttling(pair, wrong=7):
    emails = [f"{unique('throttle')}@example.com" for _ in range(2)]
    for email in emails:
        body = {"email": email, "password": PASSWORD, "passwordConfirmation": PASSWORD}
        assert request(pair.first.base, "POST", "/v1/accounts", None, body).status == 201
    one = login_statuses([pair.first.base], emails[0], wrong)
    both = login_statuses(pair.bases, emails[1], wrong)
    assert 429 in one, f"one process never throttled {wrong} wrong passwords: {one}"
    # Where throttling begins and how the right password fares at the end must agree. The statuses between depend
    # on real time (a stall past a backoff lets one more guess be checked: a 401 instead of a 429), so the whole
    # sequences are not compared.
    assert 429 in both, f"two processes never throttled {wrong} wrong passwords: {both}"
    assert (both.index(429), both[-1]) == (one.index(429), one[-1]), \
        f"statuses through one process {one}, alternating between two {both}"


def one_workout_in_progress(pair, rounds=3, workouts=6):
    user = {"X-Forma-Key": pair.key, "X-Forma-User": unique("racer")}
    body = {"muscles": ["quadriceps"], "equipment": [], "level": "beginner", "minutes": 10}
    ids = []
    for index in range(workouts):
        reply = request(pair.base(index), "POST", "/v1/workouts/generate", user, body)
        assert reply.status == 201, reply
        ids.append(reply.json()["id"])
    for round_number in range(rounds):
        barrier = threading.Barrier(workouts)
        replies = [None] * workouts

        def start(index):
            barrier.wait(30)
            replies[index] = request(pair.base(index + round_number), "POST", f"/v1/workouts/{ids[index]}/start", user)
        threads = [threading.Thread(target=start, args=(index,)) for index in range(workouts)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join(120)
        statuses = sorted(reply.status for reply in replies)
        assert statuses == [201] + [409] * (workouts - 1), f"round {round_number}: concurrent starts gave {statuses}"
        winner = ids[[reply.status for reply in replies].index(201)]
        listed = request(pair.base(round_number + 1), "GET", "/v1/workouts?status=in_progress", user).json()["items"]
        assert [item["id"] for item in listed] == [winner], f"in progress: {listed}, started {winner}"
        quit_reply = request(pair.base(round_number + 1), "POST", f"/v1/workouts/{winner}/quit", user)
        assert quit_reply.status == 200, quit_reply


def sessions_until_refused(bases, token, most=6):
    opened, refusal = [], None
    try:
        for index in range(most):
            socket, code = connect(bases[index % len(bases)], token)
            if socket is None:
                refusal = code
                break
            opened.append(socket)
        return len(opened), refusal
    finally:
        for socket in opened:
            socket.close()


def live_session_limit(pair):
    one = sessions_until_refused([pair.first.base], session_token(pair.first.base, pair.key, unique("live")))
    both = sessions_until_refused(pair.bases, session_token(pair.first.base, pair.key, unique("live")))
    assert one[1] == 4429, f"one process: {one[0]} sessions opened, then close code {one[1]} (wanted 4429)"
    refused = f"then close code {both[1]}" if both[1] else "every one of 6 tries opened"
    assert both == one, (f"one process allowed {one[0]} open sessions per person, two processes together "
                         f"{both[0]} ({refused})")


def challenge_scores(pair, recording):
    with open(recording) as file:
        frames = json.load(file)["frames"]
    people = [unique("ada"), unique("bob")]
    tokens = {user: session_token(pair.first.base, pair.key, user) for user in people}
    # Ada through process 1 and, at the same time, process 2; Bob through process 2.
    plays = [(pair.first.base, people[0]), (pair.second.base, people[0]), (pair.second.base, people[1])]
    outcomes = [[] for _ in plays]

    def play(base, user, outcome):
        outcome.extend(play_challenge(base, tokens[user], frames, CHALLENGE_SECONDS))
    threads = [threading.Thread(target=play, args=(base, user, outcome))
               for (base, user), outcome in zip(plays, outcomes)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(120)
    scores = {}
    for (base, user), outcome in zip(plays, outcomes):
        assert len(outcome) == 1 and outcome[0]["completed"], f"{user} through {base}: challenge events {outcome}"
        scores[user] = max(scores.get(user, 0), outcome[0]["reps"])
    assert all(scores.values()), f"a challenge counted no repetition of the recorded squats: {outcomes}"
    path = f"/v1/challenges/leaderboard?exercise=squat&seconds={CHALLENGE_SECONDS}&limit=100"
    boards = [request(base, "GET", path, bearer(tokens[people[0]])).json() for base in pair.bases]
    assert boards[0] == boards[1], f"process 1 shows {boards[0]}, process 2 {boards[1]}"
    entries = boards[0]["entries"]
    assert len(entries) == 2, f"each person once: {entries}"
    assert sorted(entry["reps"] for entry in entries) == sorted(scores.values()), f"{entries} vs {scores}"
    assert boards[0]["me"]["reps"] == scores[people[0]], boards[0]["me"]


def run(results, binary, work, postgres):
    names = ["scaleout_login_throttling", "scaleout_one_workout_in_progress", "scaleout_challenge_scores",
             "scaleout_live_session_limit"]
    if postgres is None:
        for name in names:
            results.fail(name, time.time(), "no PostgreSQL server given (--postgres or FORMA_PROBE_POSTGRES)")
        return
    began = time.time()
    try:
        pair = Pair(binary, work, postgres.create("forma_probe_scale"))
    except Exception as error:  # noqa: BLE001
        for name in names:
            results.fail(name, began, f"two servers on one PostgreSQL did not start: {error}")
        return
    try:
        recording = f"{work}/squats.json"
        pair.first.cli("synthesize", "--exercise", "squat", "--reps", "8", "--seconds-per-rep", "2", "--seed", "5",
                       "--output", recording)
        results.run(names[0], login_throttling, pair)
        results.run(names[1], one_workout_in_progress, pair)
        results.run(names[2], challenge_scores, pair, recording)
        results.run(names[3], live_session_limit, pair)
    finally:
        pair.stop()
