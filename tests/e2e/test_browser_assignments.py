"""Assignments in the browser (issue 31): the main page's "Make an assignment…", the student's page
(/a/<id>) and the teacher's page (/a/<id>/teacher#<token>).

The pages' behaviour is tested against the contract with the API mocked (``MockApi``: Playwright's
``page.route``; the pages themselves rendered from the templates when the server has no route for
them yet), so sorting, live updates, escaping, the wrong token and the verdict's polling are
checked without the server's side. The acceptance flow at the end runs against the real endpoints
and is skipped while they are absent.
"""

from __future__ import annotations

import csv
import io
import json
import re
import urllib.error
import urllib.request
from pathlib import Path
from typing import Any

import pytest

from tests.e2e.pages import ARTIFACTS, BROWSER_TEST, ROOT, shooter, status_is, upload

pytestmark = BROWSER_TEST
shot = shooter("assign")
PROGRAMS = ROOT / "tests" / "code_programs"
VIEWPORT = {"width": 1366, "height": 768}
HOSTILE = "<img src=x onerror=\"document.body.dataset.pwned='1'\">"
PAGE_URL = re.compile(r"^https?://[^/]+/a/[^/?#]+(/teacher)?/?([?#].*)?$")


# ---- helpers ---------------------------------------------------------------------------------------


def render_template(name: str) -> str:
    """A page's template as the server renders it (``url_for`` for static files only; in English:
    ``t`` the page catalog's text, ``lang`` "en")."""
    import jinja2

    from server.i18n import page_catalog

    env = jinja2.Environment(loader=jinja2.FileSystemLoader(ROOT / "templates"), autoescape=True)
    catalog = page_catalog("en")
    return env.get_template(name).render(
        url_for=lambda _endpoint, filename: f"/static/{filename}",
        t=lambda key, **_params: catalog.get(key, key),
        lang="en",
    )


def pages_served(server_url: str) -> bool:
    """True when the server has the assignment endpoints: GET /api/assignments/x answers the
    contract's 404 ("No assignment x …"), not the app's generic 404 for an unknown address."""
    try:
        urllib.request.urlopen(f"{server_url}/api/assignments/x", timeout=5)
    except urllib.error.HTTPError as err:
        try:
            body = json.loads(err.read() or b"{}")
        except ValueError:
            return False
        return err.code == 404 and str(body.get("error", "")).startswith("No assignment")
    except OSError:
        return False
    return False


def gallery_puzzle(server_url: str, name: str = "seed-lee-example") -> dict[str, Any]:
    """Load a gallery puzzle on the server; its info (a real puzzle for the mocked assignment)."""
    request = urllib.request.Request(
        f"{server_url}/api/puzzles",
        data=json.dumps({"gallery": name}).encode(),
        headers={"Content-Type": "application/json"},
        method="POST",
    )
    with urllib.request.urlopen(request, timeout=60) as answer:
        return json.loads(answer.read())


def public(puzzle: dict[str, Any], **over: Any) -> dict[str, Any]:
    """An assignment's public view as the contract writes it."""
    tasks = [
        {
            "kind": "predict",
            "points": 2,
            "count": 3,
            "from": 0,
            "text": "Predict BFS's expansions 1 to 3, one state per line.",
        },
        {
            "kind": "code",
            "points": 5,
            "text": "Write def search(problem) whose expansions match BFS; its path legal and optimal.",
        },
        {
            "kind": "heuristic",
            "points": 3,
            "bar": False,
            "text": "Give a heuristic that is admissible and consistent.",
        },
        {"kind": "solution", "points": 2, "margin": 0, "text": "Hand in an optimal solution."},
    ]
    view = {
        "id": "abcdefghijkl",
        "title": "Blatt 3: BFS",
        "puzzle": puzzle["id"],
        "puzzle_name": "Lee's example",
        "family": puzzle["family"],
        "algorithm": "bfs",
        "algorithm_label": "Breadth-first (BFS)",
        "options": {},
        "tasks": tasks,
        "total_points": 12,
        "deadline": "2030-12-15T23:59:00Z",
        "reveal": "now",
        "attempts": 3,
        "counts": "best",
        "closed": False,
        "open": True,
        "keep_until": "2031-06-13T23:59:00Z",
        "stored": "Your name, identifier and answers are stored until 13 June 2031, then deleted.",
    }
    view.update(over)
    return view


def cell(
    score: float | None, points: float, sentence: str, status: str = "graded", sid: str = "s1"
) -> dict[str, Any]:
    return {
        "score": score,
        "points": points,
        "attempts": 1,
        "time": "2026-11-28T05:00:00Z",
        "sentence": sentence,
        "submission": sid,
        "status": status,
    }


def rows_of(*students: tuple[str, str, float, float]) -> list[dict[str, Any]]:
    """Rows of (identifier, name, code score, solution score)."""
    return [
        {
            "student": ident,
            "name": name,
            "total": code + sol,
            "tasks": {
                "code": cell(
                    code, 5, "Matches BFS." if code == 5 else "Breaks at expansion 7.", sid=f"c-{ident}"
                ),
                "solution": cell(sol, 2, "Legal and optimal." if sol else "Not legal.", sid=f"s-{ident}"),
            },
        }
        for ident, name, code, sol in students
    ]


class MockApi:
    """The assignment endpoints of the contract, answered by the test (``page.route``)."""

    def __init__(self, assignment: dict[str, Any], token: str = "T0K3N") -> None:
        self.assignment = assignment
        self.token = token
        self.rows: list[dict[str, Any]] = []
        self.version = 1
        self.requests: list[dict[str, Any]] = []  # what the page asked: method, url, headers, body
        self.submissions: dict[str, dict[str, Any]] = {}
        self.polls: dict[str, int] = {}
        self.submit_answer: tuple[int, dict[str, Any]] | None = None  # a forced answer to the next POST
        self.missing = False
        self.views: dict[str, dict[str, Any]] = {}  # a submission's whole view, as the test gives it

    def attach(self, page, serve_pages: bool) -> None:
        if serve_pages:
            page.route(PAGE_URL, self.page_route)
        page.route("**/api/assignments**", self.api_route)

    @staticmethod
    def page_route(route) -> None:
        teacher = "/teacher" in route.request.url
        route.fulfill(
            status=200,
            content_type="text/html; charset=utf-8",
            body=render_template("teacher.html" if teacher else "assignment.html"),
        )

    def json(self, route, status: int, body: Any) -> None:
        route.fulfill(status=status, content_type="application/json", body=json.dumps(body))

    def api_route(self, route) -> None:
        request = route.request
        body = request.post_data
        self.requests.append(
            {
                "method": request.method,
                "url": request.url,
                "headers": request.headers,
                "body": json.loads(body) if body else None,
            }
        )
        path = re.sub(r"^https?://[^/]+", "", request.url).split("?")[0]
        parts = path.strip("/").split("/")[2:]  # after api/assignments
        teacher = request.headers.get("authorization") == f"Bearer {self.token}"
        if self.missing:
            self.json(
                route, 404, {"error": f"No assignment {parts[0]} (it may have been deleted)", "where": None}
            )
        elif parts[1:] == ["export"] and teacher:
            route.fulfill(
                status=200,
                content_type="text/csv",
                body="ID number,Name,Total\ns1,Ada,1\n",
                headers={"Content-Disposition": "attachment; filename=blatt-3-moodle.csv"},
            )
        elif len(parts) == 1 and request.method == "PATCH" and teacher:
            self.assignment = {**self.assignment, "closed": json.loads(body)["closed"]}
            self.json(route, 200, self.assignment)
        elif len(parts) == 1 and request.method == "DELETE" and teacher:
            self.missing = True
            route.fulfill(status=204, body="")
        elif len(parts) == 1 and request.method == "GET":
            self.json(route, 200, self.assignment)
        elif parts[1:] == ["results"]:
            if not teacher:
                self.json(
                    route,
                    403,
                    {"error": f"This teacher link is not valid for assignment {parts[0]}", "where": None},
                )
            else:
                self.json(
                    route, 200, {"assignment": self.assignment, "rows": self.rows, "version": self.version}
                )
        elif parts[1:] == ["submissions"] and request.method == "POST":
            if self.submit_answer:
                status, answer = self.submit_answer
                self.submit_answer = None
                self.json(route, status, answer)
                return
            sid = f"sub{len(self.submissions) + 1}"
            sent = json.loads(body)
            self.submissions[sid] = sent
            self.json(
                route,
                202,
                {
                    "submission": sid,
                    "receipt": f"r-{sid}",
                    "status": "queued",
                    "ahead": 2,
                    "attempt": 1,
                    "attempts_left": 2,
                },
            )
        elif len(parts) == 3 and parts[1] == "submissions" and request.method == "GET":
            sid = parts[2]
            if request.headers.get("x-receipt") != f"r-{sid}" and not teacher:
                self.json(route, 404, {"error": "No such submission", "where": None})
                return
            if sid in self.views:
                self.json(route, 200, self.views[sid])
                return
            self.polls[sid] = self.polls.get(sid, 0) + 1
            graded = self.polls[sid] >= 2
            view = {
                "submission": sid,
                "task": self.submissions.get(sid, {}).get("task", "predict"),
                "attempt": 1,
                "received": "2026-11-28T05:00:00Z",
                "status": "graded" if graded else "queued",
                "ahead": 1,
                "hidden_until": None,
                "result": {"score": 4, "points": 5, "sentence": "4 of 5 expansions right.", "details": []}
                if graded
                else None,
            }
            self.json(route, 200, view)
        else:
            self.json(route, 404, {"error": "not mocked", "where": None})


@pytest.fixture(scope="module")
def mock_browser(browser):
    """A Chromium for pages the test serves itself: its local network checks off, so that a page
    fulfilled by ``page.route`` (no address of its own) may open its socket to the server on 127.0.0.1."""
    from tests.e2e.conftest import CHROMIUM_ARGS
    from tests.e2e.pages import CHROMIUM

    own = browser.browser_type.launch(
        executable_path=str(CHROMIUM), args=[*CHROMIUM_ARGS, "--disable-features=LocalNetworkAccessChecks"]
    )
    yield own
    own.close()


def new_tab(browser, console, url: str | None = None):
    """(context, tab) at laptop size, console errors collected."""
    context = browser.new_context(viewport=VIEWPORT, bypass_csp=True)
    tab = context.new_page()
    tab.set_default_timeout(60_000)
    tab.on("console", lambda m: m.type == "error" and console.errors.append(f"console.error: {m.text}"))
    tab.on("pageerror", lambda e: console.errors.append(f"pageerror: {e}"))
    if url:
        tab.goto(url)
    return context, tab


def ready(tab, value: str = "1") -> None:
    tab.wait_for_function("v => document.body.dataset.ready === v", arg=value)


def verdict_says(tab, kind: str, words: str) -> None:
    """Wait until a task's verdict line holds ``words``."""
    tab.wait_for_function(
        "([k, w]) => document.querySelector(`section[data-task=${k}] [data-testid=submit-verdict]`)"
        ".textContent.includes(w)",
        arg=[kind, words],
    )


def verdict_of(tab, kind: str) -> str:
    return (tab.text_content(f"section[data-task={kind}] [data-testid=submit-verdict]") or "").strip()


def order(tab) -> list[str]:
    """The table's identifiers in their order on the page."""
    return tab.eval_on_selector_all(
        "[data-testid=results-table] tbody tr", "rows => rows.map(r => r.dataset.student)"
    )


def socketio_event(name: str, data: dict[str, Any]) -> bytes:
    """A Socket.IO event packet in the msgpack parser's encoding (the page's client)."""
    import msgpack

    return msgpack.packb({"type": 2, "data": [name, data], "nsp": "/"})


def unpacked(message: bytes) -> dict[str, Any]:
    """A Socket.IO packet the page sent (msgpack parser)."""
    import msgpack

    return msgpack.unpackb(message)


# ---- the main page's dialog ------------------------------------------------------------------------


def test_the_dialog_starts_from_the_page_and_shows_the_two_links(page, server_url, console):
    page.click("[data-testid=open-gallery]")
    page.click('[data-testid=gallery] button:has-text("Lee\'s wavefront example")')
    status_is(page, "ready")
    page.select_option("[data-testid=algorithm]", "bfs")
    sent: list[dict[str, Any]] = []

    def created(route) -> None:
        sent.append(json.loads(route.request.post_data))
        route.fulfill(
            status=201,
            content_type="application/json",
            body=json.dumps(
                {
                    "id": "abcdefghijkl",
                    "class_url": "/a/abcdefghijkl",
                    "teacher_url": "/a/abcdefghijkl/teacher#s3cr3t",
                    "token": "s3cr3t",
                    "assignment": {},
                }
            ),
        )

    page.route("**/api/assignments", created)
    page.click("[data-testid=assign]")
    dialog = page.locator("[data-testid=assign-dialog]")
    dialog.wait_for(state="visible")
    for kind in ("predict", "code", "heuristic", "solution"):
        box = page.locator(f"[data-testid=assign-task-{kind}]")
        assert box.is_visible() and box.is_enabled(), kind  # a grid offers all four
    assert page.input_value("[data-testid=assign-title]")
    page.check("[data-testid=assign-task-code]")
    page.check("[data-testid=assign-task-solution]")
    page.check("[data-testid=assign-task-predict]")
    shot(page, "dialog")
    # No task: said in words; then with tasks, created.
    page.click("[data-testid=assign-create]")
    page.locator("[data-testid=assign-class-link]").wait_for(state="visible")
    body = sent[0]
    assert body["algorithm"] == "bfs" and body["puzzle"] == page.evaluate(
        "() => document.body.dataset.puzzleId"
    )
    assert [t["kind"] for t in body["tasks"]] == ["predict", "code", "solution"]
    assert all("score" not in t for t in body["tasks"])
    assert (
        body["attempts"] == 3
        and body["counts"] == "best"
        and body["reveal"] == "now"
        and body["deadline"] is None
    )
    # Both links carry the page's language (?lang=), before the teacher link's #key.
    assert page.input_value("[data-testid=assign-class-link]") == f"{server_url}/a/abcdefghijkl?lang=en"
    assert (
        page.input_value("[data-testid=assign-teacher-link]")
        == f"{server_url}/a/abcdefghijkl/teacher?lang=en#s3cr3t"
    )
    assert "only key" in (page.text_content("[data-testid=assign-links]") or "")
    shot(page, "dialog-links")


def test_the_dialog_says_the_servers_error_and_a_missing_task(page, console):
    page.route(
        "**/api/assignments",
        lambda route: route.fulfill(
            status=400,
            content_type="application/json",
            body=json.dumps({"error": "points must be more than 0", "where": "tasks[0].points"}),
        ),
    )
    page.click("[data-testid=assign]")
    for kind in ("predict", "code", "heuristic", "solution"):
        page.uncheck(f"[data-testid=assign-task-{kind}]")
    page.click("[data-testid=assign-create]")
    assert "at least one task" in (page.text_content("[data-testid=assign-error]") or "")
    page.check("[data-testid=assign-task-code]")
    page.click("[data-testid=assign-create]")
    page.wait_for_function(
        "() => document.querySelector('[data-testid=assign-error]').textContent.includes('points must')"
    )
    console.allow("400")


# ---- the student's page ----------------------------------------------------------------------------


@pytest.fixture
def lee(server_url) -> dict[str, Any]:
    return gallery_puzzle(server_url)


def test_the_student_page_shows_the_tasks_and_follows_a_submission_until_graded(
    mock_browser, server_url, console, lee
):
    api = MockApi(public(lee))
    context, tab = new_tab(mock_browser, console)
    api.attach(tab, serve_pages=True)
    tab.goto(f"{server_url}/a/abcdefghijkl")
    ready(tab)
    assert tab.eval_on_selector_all("section[data-task]", "s => s.map(x => x.dataset.task)") == [
        "predict",
        "code",
        "heuristic",
        "solution",
    ]
    for kind, inner in (
        ("code", "code-file"),
        ("heuristic", "lab-formula"),
        ("solution", "check-input"),
        ("predict", "predict-states"),
    ):
        assert tab.locator(f"section[data-task={kind}] [data-testid={inner}]").count() == 1, kind
        assert tab.locator(f"section[data-task={kind}] [data-testid=submit]").count() == 1
    assert "13 June 2031" in (tab.text_content("[data-testid=as-stored]") or "")
    assert "in " in (tab.text_content("[data-testid=as-deadline]") or "")  # "… (in 4 years)"
    tab.locator("[data-testid=canvas]").wait_for()
    # A click on a cell adds its state to Predict's list.
    box = tab.locator("[data-testid=canvas]").bounding_box()
    scale, ox, oy = tab.eval_on_selector(
        "[data-testid=canvas]", "c => [c.dataset.scale, c.dataset.originX, c.dataset.originY].map(Number)"
    )
    tab.mouse.click(box["x"] + ox + 1.5 * scale, box["y"] + oy + 1.5 * scale)
    assert tab.input_value("[data-testid=predict-states]").strip() == "(1, 1)"
    shot(tab, "student")
    # The Lab judges a formula on the assignment's board (its heat map there); Check replays a solution.
    lab = "section[data-task=heuristic]"
    tab.fill(f"{lab} [data-testid=lab-formula]", "dr + dc")
    tab.click(f"{lab} [data-testid=lab-judge]")
    tab.wait_for_function("s => document.querySelector(s + ' .as-lab').dataset.judged === 'dr + dc'", arg=lab)
    assert (tab.text_content(f"{lab} [data-testid=lab-headline]") or "").startswith("Admissible")
    tab.locator(lab).scroll_into_view_if_needed()
    shot(tab, "student-heuristic")
    check = "section[data-task=solution]"
    tab.fill(f"{check} [data-testid=check-input]", "RRDD")
    tab.click(f"{check} [data-testid=check-run]")
    tab.wait_for_function("s => document.querySelector(s + ' .as-lab').dataset.checked", arg=check)
    assert tab.text_content(f"{check} [data-testid=check-verdict]")

    # No name: said; then received, queued, graded.
    tab.click("section[data-task=predict] [data-testid=submit]")
    assert "name" in verdict_of(tab, "predict")
    tab.fill("[data-testid=student-name]", "Ada Lovelace")
    tab.fill("[data-testid=student-id]", "s1234567")
    tab.click("section[data-task=predict] [data-testid=submit]")
    tab.wait_for_function(
        "() => document.querySelector('section[data-task=predict]').dataset.state === 'graded'"
    )
    assert verdict_of(tab, "predict").startswith("4 / 5")
    sent = api.submissions["sub1"]
    assert sent == {
        "name": "Ada Lovelace",
        "student": "s1234567",
        "task": "predict",
        "answer": {"states": ["(1, 1)"]},
    }
    assert "2 of 3 attempts left" in (
        tab.text_content("section[data-task=predict] [data-testid=attempts-left]") or ""
    )
    # A reload shows the latest verdict again (the receipt kept in localStorage), and the identity.
    tab.reload()
    ready(tab)
    tab.wait_for_function(
        "() => document.querySelector('section[data-task=predict]').dataset.state === 'graded'"
    )
    assert tab.input_value("[data-testid=student-name]") == "Ada Lovelace"
    receipts = [r for r in api.requests if "/submissions/sub1" in r["url"]]
    assert all(r["headers"].get("x-receipt") == "r-sub1" for r in receipts)
    # Refusals in words.
    api.submit_answer = (403, {"error": "Submissions are closed.", "where": None})
    tab.fill("section[data-task=solution] [data-testid=check-input]", "RRDD")
    tab.click("section[data-task=solution] [data-testid=submit]")
    verdict_says(tab, "solution", "closed")
    api.submit_answer = (429, {"error": "Too many submissions: wait a minute.", "where": None})
    tab.click("section[data-task=solution] [data-testid=submit]")
    verdict_says(tab, "solution", "wait a minute")
    console.allow("403|429")
    context.close()
    assert not console.unexpected(), console.unexpected()


def test_a_missing_assignment_says_so(mock_browser, server_url, console, lee):
    api = MockApi(public(lee))
    api.missing = True
    context, tab = new_tab(mock_browser, console)
    api.attach(tab, serve_pages=True)
    tab.goto(f"{server_url}/a/zzzzzzzzzzzz")
    ready(tab, "missing")
    assert "No assignment zzzzzzzzzzzz" in (tab.text_content("[data-testid=as-missing]") or "")
    console.allow("404")
    context.close()


# ---- the teacher's page ----------------------------------------------------------------------------


def test_the_teacher_table_sorts_escapes_and_updates_live(mock_browser, server_url, console, lee):
    assignment = public(
        lee, tasks=[t for t in public(lee)["tasks"] if t["kind"] in ("code", "solution")], total_points=7
    )
    api = MockApi(assignment)
    api.rows = rows_of(("s1", "Ada Lovelace", 5, 2), ("s2", HOSTILE, 2.5, 0), ("s3", "Grace Hopper", 0, 2))
    context, tab = new_tab(mock_browser, console)
    api.attach(tab, serve_pages=True)
    sockets: list[Any] = []
    sent_by_page: list[Any] = []

    def through(ws) -> None:
        server = ws.connect_to_server()
        sockets.append(ws)

        def from_page(message) -> None:
            sent_by_page.append(message)
            server.send(message)

        ws.on_message(from_page)

    tab.route_web_socket(re.compile(r".*/socket\.io/.*"), through)
    tab.goto(f"{server_url}/a/abcdefghijkl/teacher#{api.token}")
    ready(tab)
    # Markup in a name is text: no element made of it, nothing run.
    hostile = tab.locator("tr[data-student=s2] td.as-name")
    assert hostile.text_content() == HOSTILE
    assert tab.locator("[data-testid=results-table] img").count() == 0
    assert tab.evaluate("() => document.body.dataset.pwned") is None
    # Scores as text in the task's cell, the total in its own.
    assert "5 / 5" in (tab.text_content("tr[data-student=s1] td[data-task=code]") or "")
    assert "2.5 / 5" in (tab.text_content("tr[data-student=s2] td[data-task=code]") or "")
    assert (tab.text_content("tr[data-student=s1] td[data-total]") or "").strip() == "7"
    # Sorting: by total, highest first; again, lowest first; aria-sort says which.
    tab.click("[data-testid=sort-total]")
    assert order(tab) == ["s1", "s2", "s3"]
    assert tab.get_attribute("th[data-key=total]", "aria-sort") == "descending"
    tab.click("[data-testid=sort-total]")
    assert order(tab) == ["s3", "s2", "s1"]
    assert tab.get_attribute("th[data-key=total]", "aria-sort") == "ascending"
    tab.click("[data-testid=sort-code]")
    assert order(tab) == ["s1", "s2", "s3"]
    shot(tab, "teacher")
    # The token went only in the Authorization header, never in a URL the page asked for.
    assert api.requests and all(api.token not in r["url"] for r in api.requests)
    assert all(
        r["headers"].get("authorization") == f"Bearer {api.token}"
        for r in api.requests
        if "/results" in r["url"]
    )
    # The socket watches the assignment with the token.
    tab.wait_for_function("() => true")
    watched = [unpacked(m)["data"] for m in sent_by_page if isinstance(m, bytes) and b"assignment_watch" in m]
    assert watched and watched[0] == ["assignment_watch", {"id": "abcdefghijkl", "token": api.token}]
    # Live: a fourth student arrives; the server's assignment_update makes the page fetch again, no reload.
    fetched = sum("/results" in r["url"] for r in api.requests)
    api.rows = [*api.rows, *rows_of(("s4", "Alan Turing", 5, 1))]
    api.version = 2
    tab.evaluate("() => { window.samePage = true; }")
    for _ in range(3):  # several updates close together: one fetch (debounced)
        sockets[0].send(
            socketio_event("assignment_update", {"id": "abcdefghijkl", "submission": "x", "status": "graded"})
        )
    tab.wait_for_selector("tr[data-student=s4]")
    assert tab.evaluate("() => window.samePage") is True
    assert order(tab) == ["s1", "s4", "s2", "s3"]  # the sort kept (code, highest first; ties by identifier)
    assert sum("/results" in r["url"] for r in api.requests) == fetched + 1
    context.close()
    assert not console.unexpected(), console.unexpected()


def test_a_wrong_teacher_token_shows_nothing_else(mock_browser, server_url, console, lee):
    api = MockApi(public(lee))
    api.rows = rows_of(("s1", "Ada Lovelace", 5, 2))
    context, tab = new_tab(mock_browser, console)
    api.attach(tab, serve_pages=True)
    tab.goto(f"{server_url}/a/abcdefghijkl/teacher#wrong")
    ready(tab, "refused")
    assert "This teacher link is not valid" in (tab.text_content("[data-testid=teacher-refused]") or "")
    assert tab.locator("[data-testid=results-table]").count() == 0
    assert "Ada" not in (tab.text_content("body") or "")
    console.allow("403")
    context.close()
    assert not console.unexpected(), console.unexpected()


def test_the_teacher_opens_a_submission_and_exports(mock_browser, server_url, console, lee):
    api = MockApi(public(lee))
    api.rows = [
        {
            "student": "s1",
            "name": "Ada",
            "total": 1,
            "tasks": {"predict": cell(1, 2, "1 of 2 right.", sid="p1")},
        }
    ]
    context, tab = new_tab(mock_browser, console)
    api.attach(tab, serve_pages=True)

    api.views["p1"] = {
        "submission": "p1",
        "task": "predict",
        "attempt": 1,
        "received": "2026-11-28T05:00:00Z",
        "status": "graded",
        "hidden_until": None,
        "name": "Ada",
        "student": "s1",
        "answer": {"states": ["(1, 1)", HOSTILE]},
        "result": {
            "score": 1,
            "points": 2,
            "sentence": "1 of 2 right.",
            "details": [
                {"i": 1, "yours": "(1, 1)", "truth": "(1, 1)", "right": True},
                {"i": 2, "yours": HOSTILE, "truth": "(1, 2)", "right": False},
            ],
        },
    }
    tab.goto(f"{server_url}/a/abcdefghijkl/teacher#{api.token}")
    ready(tab)
    tab.click("tr[data-student=s1] td[data-task=predict] button")
    tab.wait_for_selector("[data-testid=predict-table]")
    assert HOSTILE in (tab.text_content("[data-testid=predict-table]") or "")
    assert tab.locator("[data-testid=submission-view] img").count() == 0
    with tab.expect_download() as download:
        tab.click("[data-testid=export-csv]")
    assert download.value.suggested_filename == "blatt-3-moodle.csv"
    shot(tab, "teacher-submission")
    context.close()
    assert not console.unexpected(), console.unexpected()


# ---- the acceptance, against the real endpoints -----------------------------------------------------


@pytest.fixture
def endpoints(server_url) -> str:
    if not pages_served(server_url):
        pytest.skip("the server has no /api/assignments yet (the server's side is not merged)")
    return server_url


def make_assignment(page, maze: Path) -> tuple[str, str]:
    """On the main page: maze3, BFS, tasks code, heuristic and solution; the class and teacher links."""
    upload(page, maze)
    page.select_option("[data-testid=algorithm]", "bfs")
    page.click("[data-testid=assign]")
    for kind in ("code", "heuristic", "solution"):
        page.check(f"[data-testid=assign-task-{kind}]")
    page.uncheck("[data-testid=assign-task-predict]")
    page.fill("[data-testid=assign-attempts]", "5")
    page.click("[data-testid=assign-create]")
    page.locator("[data-testid=assign-class-link]").wait_for(state="visible")
    return page.input_value("[data-testid=assign-class-link]"), page.input_value(
        "[data-testid=assign-teacher-link]"
    )


def student_submits(browser, console, url: str, name: str, ident: str, answers: dict[str, str]) -> Any:
    """A student in a browser context of their own: name, identifier, each answer submitted and graded."""
    context, tab = new_tab(browser, console, url)
    ready(tab)
    tab.fill("[data-testid=student-name]", name)
    tab.fill("[data-testid=student-id]", ident)
    for kind, answer in answers.items():
        section = f"section[data-task={kind}]"
        if kind == "code":
            source = (PROGRAMS / answer).read_text()
            tab.set_input_files(f"{section} [data-testid=code-file]", str(PROGRAMS / answer))
            tab.wait_for_function(
                "t => document.querySelector('[data-testid=code-editor]').value === t", arg=source
            )
        elif kind == "heuristic":
            tab.fill(f"{section} [data-testid=lab-formula]", answer)
        else:
            tab.fill(f"{section} [data-testid=check-input]", answer)
        tab.click(f"{section} [data-testid=submit]")
        tab.wait_for_function(
            "s => ['graded', 'failed', 'hidden', 'refused']"
            ".includes(document.querySelector(s).dataset.state)",
            arg=section,
            timeout=180_000,
        )
    return context


def test_acceptance_three_students_a_live_table_and_the_csv(endpoints, page, browser, console, maze3):
    from tests.e2e.pages import move_string, solve_json

    class_url, teacher_url = make_assignment(page, maze3)
    teacher_context, teacher = new_tab(browser, console, teacher_url)
    ready(teacher)
    path = solve_json(maze3, "--algorithm", "bfs")["path"]
    right = {"code": "bfs.py", "heuristic": "dr + dc", "solution": move_string(path)}
    wrong = {"code": "bfs_stack.py", "heuristic": "10 * (dr + dc)", "solution": "RRRR"}
    hostile = {"code": "endless.py", "heuristic": "__import__('os')", "solution": HOSTILE}
    students = [
        ("s-right", "Ada Lovelace", right),
        ("s-wrong", "Bob", wrong),
        ("s-hostile", HOSTILE, hostile),
    ]
    contexts = [
        student_submits(browser, console, class_url, name, ident, answers)
        for ident, name, answers in students
    ]
    # The teacher's table shows all three, with no reload, once nothing waits for the grader.
    teacher.evaluate("() => { window.samePage = true; }")
    for ident, _, _ in students:
        teacher.wait_for_selector(f"tr[data-student={ident}]", timeout=180_000)
    teacher.wait_for_function(
        "() => ![...document.querySelectorAll('[data-testid=results-table] td[data-status]')]"
        ".some(td => ['queued', 'grading'].includes(td.dataset.status))",
        timeout=180_000,
    )
    assert teacher.evaluate("() => window.samePage") is True
    assert "5 / 5" in (teacher.text_content("tr[data-student=s-right] td[data-task=code]") or "")
    assert (teacher.text_content("tr[data-student=s-right] td[data-total]") or "").strip() == "10"
    assert (teacher.text_content("tr[data-student=s-hostile] td[data-total]") or "").strip() == "0"
    assert teacher.locator("tr[data-student=s-hostile] td.as-name").text_content() == HOSTILE
    assert teacher.locator("[data-testid=results-table] img").count() == 0
    totals = {
        ident: float((teacher.text_content(f"tr[data-student={ident}] td[data-total]") or "0").strip())
        for ident, _, _ in students
    }
    # The CSV parses back to the same figures.
    with teacher.expect_download() as download:
        teacher.click("[data-testid=export-csv]")
    ARTIFACTS.mkdir(exist_ok=True)
    saved = ARTIFACTS / "assign-moodle.csv"
    download.value.save_as(saved)
    rows = list(csv.DictReader(io.StringIO(saved.read_text(encoding="utf-8-sig"))))
    by_id = {
        next(v for v in row.values() if v in totals): row
        for row in rows
        if any(v in totals for v in row.values())
    }
    assert set(by_id) == set(totals)
    for ident, total in totals.items():
        total_cell = next(v for k, v in by_id[ident].items() if "total" in k.lower())
        assert float(total_cell or 0) == total
    shot(teacher, "acceptance")
    # A submission opened: the code as text, replayed on the board; the formula judged again.
    teacher.click("tr[data-student=s-right] td[data-task=code] button")
    teacher.wait_for_selector("[data-testid=submission-code]")
    assert "def search" in (teacher.text_content("[data-testid=submission-code]") or "")
    teacher.click("[data-testid=replay]")
    teacher.wait_for_function(
        "() => !document.querySelector('[data-testid=replay-status]').textContent.startsWith('Asking')"
    )
    assert (teacher.text_content("[data-testid=replay-status]") or "") == "Playing on the board."
    teacher.click("tr[data-student=s-right] td[data-task=heuristic] button")
    teacher.wait_for_function(
        "() => document.querySelector('[data-testid=submission-view] .as-lab')?.dataset.judged === 'dr + dc'"
    )
    shot(teacher, "acceptance-heuristic")
    # A tampered request (a score added) is refused, naming the field, and changes nothing.
    assignment_id = class_url.split("?")[0].rstrip("/").rsplit("/", 1)[1]
    tampered = {
        "name": "Ada Lovelace",
        "student": "s-right",
        "task": "solution",
        "answer": {"solution": "RRRR"},
        "score": 0,
    }
    request = urllib.request.Request(
        f"{endpoints}/api/assignments/{assignment_id}/submissions",
        data=json.dumps(tampered).encode(),
        method="POST",
        headers={"Content-Type": "application/json"},
    )
    with pytest.raises(urllib.error.HTTPError) as refused:
        urllib.request.urlopen(request, timeout=30)
    assert refused.value.code == 400 and "score" in refused.value.read().decode()
    # A wrong teacher token shows nothing.
    wrong_context, wrong_tab = new_tab(browser, console, teacher_url.split("#")[0] + "#not-the-token")
    ready(wrong_tab, "refused")
    assert wrong_tab.locator("[data-testid=results-table]").count() == 0
    wrong_context.close()
    for context in contexts:
        context.close()
    teacher_context.close()
    console.allow("40[0-9]")


@pytest.mark.skipif(
    not (ROOT / "static" / "vendor" / "pyodide" / "pyodide.mjs").exists(),
    reason="static/vendor/pyodide is absent (scripts/setup.sh fetches it)",
)
def test_your_code_runs_and_plays_on_the_assignment_board(mock_browser, server_url, console, lee):
    api = MockApi(public(lee, tasks=[t for t in public(lee)["tasks"] if t["kind"] == "code"], total_points=5))
    context, tab = new_tab(mock_browser, console)
    api.attach(tab, serve_pages=True)
    tab.goto(f"{server_url}/a/abcdefghijkl")
    ready(tab)
    code = "section[data-task=code]"
    source = (PROGRAMS / "bfs.py").read_text()
    tab.set_input_files(f"{code} [data-testid=code-file]", str(PROGRAMS / "bfs.py"))
    tab.wait_for_function("t => document.querySelector('[data-testid=code-editor]').value === t", arg=source)
    tab.click(f"{code} [data-testid=code-run]")
    tab.wait_for_function(
        "s => document.querySelector(s + ' .as-code').dataset.verdict", arg=code, timeout=180_000
    )
    # Judged against the assignment's algorithm, then played on its board as the algorithm "code".
    tab.wait_for_function(
        "() => /\\d+ \\/ [1-9]/.test(document.querySelector('[data-testid=as-position]').textContent)"
    )
    context.close()
    assert not console.unexpected(), console.unexpected()


def test_the_teacher_closes_reopens_and_deletes(mock_browser, server_url, console, lee):
    api = MockApi(public(lee))
    api.rows = rows_of(("s1", "Ada Lovelace", 5, 2))
    context, tab = new_tab(mock_browser, console)
    api.attach(tab, serve_pages=True)
    tab.goto(f"{server_url}/a/abcdefghijkl/teacher#{api.token}")
    ready(tab)
    tab.click("[data-testid=results-close]")
    tab.wait_for_function(
        "() => document.querySelector('[data-testid=results-close]').dataset.closed === 'true'"
    )
    assert tab.text_content("[data-testid=results-close]") == "Reopen submissions"
    assert [r["body"] for r in api.requests if r["method"] == "PATCH"] == [{"closed": True}]
    tab.click("[data-testid=results-close]")
    tab.wait_for_function(
        "() => document.querySelector('[data-testid=results-close]').dataset.closed === 'false'"
    )
    tab.once("dialog", lambda dialog: dialog.accept())
    tab.click("[data-testid=results-delete]")
    tab.wait_for_selector("[data-testid=teacher-deleted]")
    assert [r["method"] for r in api.requests].count("DELETE") == 1
    assert tab.locator("[data-testid=results-table]").count() == 0
    context.close()
    assert not console.unexpected(), console.unexpected()
