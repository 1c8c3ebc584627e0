"""Tenant and user isolation, generated from openapi.yaml.

Every operation with a parameter in its path is tried against a resource of person A (company 1) by three intruders:
person B of company 1, the person with A's own host user id in company 2 (by token), and company 2's API key with
A's host user id. For each path parameter kind the table KINDS says how A gets one. A new operation over a known kind
is covered without a new test; an operation over a kind the table does not know fails `tenancy_covers_every_operation`
by name.

What is checked, per operation and intruder:
- a resource that belongs to A (`owned` kinds): never 2xx, and the answer is the same as for an id that does not
  exist (same status, same body once the id is blanked out), so an intruder cannot even tell that it exists;
- shared catalogue resources with per-person state (plans A is enrolled in, exercises A tracks): the intruder's view
  is the one it had before A acted, and no answer carries A's person id;
- resources of A's company (another person of it, its items and competitions, a follow request to A): the intruders
  from the other company are held to the rule for A's own resources; person B may reach them;
- afterwards A's own data, every authenticated GET of the contract that the values resolve, is unchanged.
"""
import datetime
import json
import re
import uuid

import yaml

from common import bearer, request, session_token, unique

WORKOUT_REQUEST = {"muscles": ["chest"], "equipment": [], "level": "beginner", "minutes": 10, "seed": 7}
TESTED_EXERCISE = "Pushups"
PLAN = "strength-bodyweight"


class Kind:
    def __init__(self, owned, make, personal=None, company=False):
        self.owned = owned          # belongs to one person: other people must not reach it at all
        self.make = make            # (base, headers) -> the value A uses
        self.personal = personal    # (base, headers, value) -> None: A's own state on a shared value
        # belongs to A's company: its other people may reach it (a person's public profile, a competition, an item
        # of the company's shop), so only the intruders from the other company must find it as if it did not exist
        self.company = company


# Company 1's API key, for the values only a company makes (its items, its competitions, its other people).
COMPANY = {}


def _created(reply, what):
    assert reply.status in (200, 201), f"{what}: {reply}"
    return reply.json()


def _workout(base, headers):
    workout = _created(request(base, "POST", "/v1/workouts/generate", headers, WORKOUT_REQUEST), "generate a workout")
    for action in ("start", "pause"):  # a paused run: every state change an intruder might cause is visible
        _created(request(base, "POST", f"/v1/workouts/{workout['id']}/{action}", headers), f"{action} the workout")
    return workout["id"]


def _fitness_test(base, headers):
    _created(request(base, "PUT", f"/v1/me/tracked-exercises/{TESTED_EXERCISE}", headers), "track an exercise")
    body = {"category": "strength", "exerciseIds": [TESTED_EXERCISE]}
    return _created(request(base, "POST", "/v1/fitness-tests", headers, body), "start a fitness test")["id"]


def _enrol(base, headers, plan):
    _created(request(base, "POST", f"/v1/plans/{plan}/enrolment", headers), "enrol in a plan")


def _track(base, headers, exercise):
    _created(request(base, "PUT", f"/v1/me/tracked-exercises/{exercise}", headers), "track an exercise")


def _pain_report(base, headers):
    body = {"region": "knee", "side": "left", "intensity": 4, "kind": "dull", "when": "movement"}
    return _created(request(base, "POST", "/v1/me/pain-reports", headers, body), "report pain")["id"]


def _theme(base, headers):
    body = {"name": "Running", "theme": "Daft Punk", "workouts": 5}
    return _created(request(base, "POST", "/v1/me/themes", headers, body), "add a theme")["id"]


def _goal(base, headers):
    # A goal that notifies: its reminder (goal-<id>) is A's too, and must not move when an intruder tries the goal.
    body = {"name": "Legs", "times": 10, "muscles": ["quadriceps"], "minutes": 20, "daysPerWeek": 2, "notify": True}
    return _created(request(base, "POST", "/v1/me/goals", headers, body), "set a goal")["id"]


REMINDER_KEY = "tenancy-probe"


def _reminder(base, headers, key):
    # A reminder key names a reminder among one person's own: another person using the same key sets their own.
    when = (datetime.datetime.now(datetime.timezone.utc) + datetime.timedelta(days=30)).strftime("%Y-%m-%dT09:00")
    body = {"localTime": when, "timeZone": "Europe/Berlin", "title": "Train", "body": "Legs today"}
    _created(request(base, "PUT", f"/v1/me/reminders/{key}", headers, body), "set a reminder")


def _conversation(base, headers):
    return _created(request(base, "POST", "/v1/trainer/conversations", headers, {}), "start a conversation")["id"]


def _session_pain(base, headers):
    # A session of the shared plan, saved with the pain around it: its record waits for the next morning.
    enrolment = request(base, "POST", f"/v1/plans/{PLAN}/enrolment", headers)
    assert enrolment.status in (200, 201, 409), f"enrol in a plan: {enrolment}"
    plan = _created(request(base, "GET", f"/v1/plans/{PLAN}", headers), "read the plan")
    session = plan["levels"][0]["sessions"][0]["id"]
    workout = _created(request(base, "POST", f"/v1/plans/{PLAN}/workouts", headers, {"sessionId": session}),
                       "make a plan session's workout")
    _created(request(base, "POST", f"/v1/workouts/{workout['id']}/start", headers), "start the session")
    saved = _created(request(base, "POST", f"/v1/workouts/{workout['id']}/save", headers,
                             {"sessionPain": {"morningBefore": 1, "during": 2, "after": 1}}), "save the session")
    return saved["sessionPain"]["id"]


def _company_headers():
    return {"X-Forma-Key": COMPANY["key1"]}


def _other_person(base, headers):
    """Person C of A's company (by host user id), whom A's company may see, follow and give to."""
    user = unique("c")
    session_token(base, COMPANY["key1"], user)
    return user


def _follow_request(base, headers):
    """Person C asks to follow A, whose profile is private: C's request waits for A."""
    user = unique("c")
    c = bearer(session_token(base, COMPANY["key1"], user))
    _created(request(base, "PATCH", "/v1/me", headers, {"privateProfile": True}), "make A's profile private")
    a_user = request(base, "GET", "/v1/me", headers).json()["userId"]
    _created(request(base, "PUT", f"/v1/me/following/{a_user}", c), "ask to follow A")
    return user


def _item(base, headers):
    body = {"name": "Water bottle", "price": 50}
    return _created(request(base, "POST", "/v1/company/items", _company_headers(), body), "add an item")["id"]


def _competition(base, headers):
    now = datetime.datetime.now(datetime.timezone.utc)
    body = {"name": "Squat week", "metric": "total_reps", "exerciseId": "Bodyweight_Squat",
            "start": (now - datetime.timedelta(days=1)).strftime("%Y-%m-%dT00:00"),
            "end": (now + datetime.timedelta(days=6)).strftime("%Y-%m-%dT00:00")}
    competition = _created(request(base, "POST", "/v1/company/competitions", _company_headers(), body),
                           "define a competition")
    _created(request(base, "PUT", f"/v1/competitions/{competition['id']}/membership", headers), "join it")
    return competition["id"]


def _saved_run(base, headers):
    """A saved run of A: only A's approved followers may cheer it, so everyone here finds it as if it did not exist."""
    workout = _created(request(base, "POST", "/v1/workouts/generate", headers, WORKOUT_REQUEST), "generate a workout")
    _created(request(base, "POST", f"/v1/workouts/{workout['id']}/start", headers), "start the workout")
    return _created(request(base, "POST", f"/v1/workouts/{workout['id']}/save", headers), "save the workout")["id"]


# (the path segment before the parameter, the parameter's name) -> how person A gets a value of that kind.
KINDS = {
    ("pain-reports", "id"): Kind(True, _pain_report),
    ("themes", "id"): Kind(True, _theme),
    ("goals", "id"): Kind(True, _goal),
    ("reminders", "key"): Kind(False, lambda base, headers: REMINDER_KEY, _reminder),
    ("conversations", "id"): Kind(True, _conversation),
    ("session-pain", "painId"): Kind(True, _session_pain),
    ("workouts", "id"): Kind(True, _workout),
    ("fitness-tests", "id"): Kind(True, _fitness_test),
    ("exercises", "exerciseId"): Kind(False, lambda base, headers: TESTED_EXERCISE),
    ("exercises", "id"): Kind(False, lambda base, headers: TESTED_EXERCISE),
    ("plans", "id"): Kind(False, lambda base, headers: PLAN, _enrol),
    ("tracked-exercises", "exerciseId"): Kind(False, lambda base, headers: TESTED_EXERCISE, _track),
    ("people", "userId"): Kind(True, _other_person, company=True),
    ("following", "userId"): Kind(True, _other_person, company=True),
    ("follow-requests", "userId"): Kind(True, _follow_request, company=True),
    ("items", "id"): Kind(True, _item, company=True),
    ("competitions", "id"): Kind(True, _competition, company=True),
    ("runs", "runId"): Kind(True, _saved_run),
}


class Contract:
    def __init__(self, path):
        with open(path) as file:
            self.spec = yaml.safe_load(file)

    def resolve(self, node):
        while isinstance(node, dict) and "$ref" in node:
            target = self.spec
            for part in node["$ref"].lstrip("#/").split("/"):
                target = target[part]
            node = target
        return node

    def operations(self):
        for path, item in self.spec["paths"].items():
            shared = item.get("parameters", [])
            for method in ("get", "put", "post", "patch", "delete"):
                if method in item:
                    operation = item[method]
                    parameters = [self.resolve(p) for p in shared + operation.get("parameters", [])]
                    yield method.upper(), path, operation, parameters

    def path_kinds(self, path):
        """[(parameter, (segment before it, parameter))] in path order."""
        segments = path.strip("/").split("/")
        found = []
        for index, segment in enumerate(segments):
            match = re.fullmatch(r"\{(\w+)\}", segment)
            if match:
                found.append((match.group(1), (segments[index - 1], match.group(1))))
        return found

    def body_example(self, operation):
        content = (operation.get("requestBody") or {}).get("content", {}).get("application/json")
        if content is None:
            return None
        if "example" in content:
            return content["example"]
        reference = content.get("schema", {}).get("$ref")
        for _, _, other, _ in self.operations():  # another operation's example of the same schema
            other_content = (other.get("requestBody") or {}).get("content", {}).get("application/json", {})
            if reference and other_content.get("schema", {}).get("$ref") == reference and "example" in other_content:
                return other_content["example"]
        return self.resolve(content.get("schema", {})).get("example", {})

    def query_for(self, parameters):
        """Required query parameters filled from their examples or first enum value; None when one has neither."""
        query = []
        for parameter in parameters:
            if parameter.get("in") != "query" or not parameter.get("required"):
                continue
            schema = parameter.get("schema", {})
            value = parameter.get("example", schema.get("example", (schema.get("enum") or [None])[0]))
            if value is None:
                return None
            query.append(f"{parameter['name']}={value}")
        return "?" + "&".join(query) if query else ""


def fill(path, values):
    """The path with each parameter replaced by the value of its kind (`values` maps kinds to values)."""
    segments = path.strip("/").split("/")
    for index, segment in enumerate(segments):
        match = re.fullmatch(r"\{(\w+)\}", segment)
        if match:
            segments[index] = str(values[(segments[index - 1], match.group(1))])
    return "/" + "/".join(segments)


def unknown_kinds(contract):
    return [f"{method} {path} ({operation.get('operationId')}): {{{name}}} after '{kind[0]}'"
            for method, path, operation, _ in contract.operations()
            for name, kind in contract.path_kinds(path) if kind not in KINDS]


def tenancy_operations(contract):
    return [(operation["operationId"], method, path, operation)
            for method, path, operation, _ in contract.operations()
            if contract.path_kinds(path) and all(kind in KINDS for _, kind in contract.path_kinds(path))]


def snapshot(contract, base, headers, values):
    """Every authenticated GET of the contract whose path parameters are among `values`: (status, JSON) by path."""
    views = {}
    for method, path, operation, parameters in contract.operations():
        if method != "GET" or not operation.get("security"):
            continue
        query = contract.query_for(parameters)
        if query is None or not all(kind in values for _, kind in contract.path_kinds(path)):
            continue
        target = fill(path, values) + query
        reply = request(base, "GET", target, headers)
        body = reply.json() if reply.headers.get("content-type", "").find("json") >= 0 else reply.body.hex()
        views[target] = (reply.status, without_moments(body))
    return views


MOMENTS = {"asOf"}  # the moment an answer was made (GET /v1/me/pain): differs between two reads, not data


def without_moments(value):
    if isinstance(value, dict):
        return {k: without_moments(v) for k, v in value.items() if k not in MOMENTS}
    if isinstance(value, list):
        return [without_moments(v) for v in value]
    return value


def normalised(reply, secret, stand_in):
    text = reply.body.decode("utf-8", "replace").replace(secret, "<id>").replace(stand_in, "<id>")
    return reply.status, text


class Tenancy:
    def __init__(self, base, contract, key1, key2):
        self.base, self.contract, self.key1, self.key2 = base, contract, key1, key2

    def people(self):
        a_user = unique("a")
        a = bearer(session_token(self.base, self.key1, a_user))
        intruders = [
            ("person B of the same company", bearer(session_token(self.base, self.key1, unique("b")))),
            ("A's user id in another company", bearer(session_token(self.base, self.key2, a_user))),
            ("another company's key with A's user id", {"X-Forma-Key": self.key2, "X-Forma-User": a_user}),
        ]
        return a, intruders

    def check(self, method, path, operation):
        a, intruders = self.people()
        kinds = self.contract.path_kinds(path)
        shared_values = {kind: KINDS[kind].make(self.base, a) for _, kind in kinds if not KINDS[kind].owned}
        before_intruders = [self.intruder_view(method, path, headers, shared_values) for _, headers in intruders]

        values, owned = dict(shared_values), {}
        for _, kind in kinds:
            if KINDS[kind].owned:
                values[kind] = owned[kind] = KINDS[kind].make(self.base, a)
            elif KINDS[kind].personal:
                KINDS[kind].personal(self.base, a, values[kind])
        a_id = request(self.base, "GET", "/v1/me", a).json()["id"]
        a_before = snapshot(self.contract, self.base, a, values)

        body = self.contract.body_example(operation)
        if isinstance(body, dict):
            by_name = {name: values[kind] for name, kind in kinds}  # e.g. the exerciseId the path names
            body = {k: by_name.get(k, v) for k, v in body.items()}
        problems = []
        of_the_company = any(KINDS[kind].company for _, kind in kinds)
        for (who, headers), before in zip(intruders, before_intruders):
            if of_the_company and who == "person B of the same company":
                continue
            reply = request(self.base, method, fill(path, values), headers, body)
            if a_id in reply.body.decode("utf-8", "replace"):
                problems.append(f"{who} got an answer carrying A's person id: {reply}")
            if owned:
                stand_ins = {kind: str(uuid.uuid4()) for kind in owned}
                control = request(self.base, method, fill(path, {**values, **stand_ins}), headers, body)
                if 200 <= reply.status < 300:
                    problems.append(f"{who} got {reply.status} on A's resource: {reply}")
                secret, stand_in = next(iter(owned.values())), next(iter(stand_ins.values()))
                if normalised(reply, secret, stand_in) != normalised(control, secret, stand_in):
                    problems.append(f"{who} can tell A's resource exists: {reply} vs. an unknown id: {control}")
            elif before is not None:
                after = self.intruder_view(method, path, headers, shared_values)
                if after != before:
                    problems.append(f"{who} sees A's state: before A acted {before}, after {after}")
        a_after = snapshot(self.contract, self.base, a, values)
        for target in a_before:
            if a_after.get(target) != a_before[target]:
                problems.append(f"A's {target} changed: {a_before[target]} became {a_after.get(target)}")
        assert not problems, "; ".join(problems)

    def intruder_view(self, method, path, headers, shared_values):
        """What a GET of shared resources shows the intruder (compared before and after A acts)."""
        if method != "GET" or len(shared_values) != len(self.contract.path_kinds(path)):
            return None
        reply = request(self.base, "GET", fill(path, shared_values), headers)
        return reply.status, json.loads(reply.body) if reply.body else None


def run(results, server, spec_path):
    contract = Contract(spec_path)
    key1 = server.create_company(unique("Tenancy One"))
    key2 = server.create_company(unique("Tenancy Two"))
    COMPANY["key1"] = key1
    tenancy = Tenancy(server.base, contract, key1, key2)

    def covers_every_operation():
        missing = unknown_kinds(contract)
        assert not missing, ("operations with a path parameter the tenancy suite cannot exercise (add the kind to "
                             "KINDS in Tests/Probe/tenancy.py): " + "; ".join(missing))
        assert tenancy_operations(contract), "openapi.yaml has no operation with an id in its path"

    results.run("tenancy_covers_every_operation", covers_every_operation)
    for operation_id, method, path, operation in tenancy_operations(contract):
        results.run(f"tenancy_{operation_id}", tenancy.check, method, path, operation)
