"""Student mode on the server: the rules a student's search runs over, the verdict, the run uploaded in
parts and its replay as the hidden algorithm ``code`` (docs/STUDENT.md, docs/PROTOCOL.md "Student mode").

The student programs run here through the page's own harness (static/js/code/harness.py) in a child
CPython without numpy (``server.grading.run_program``, as ``run.py grade`` runs them), over the rules
the API serves, exactly as the page's worker runs them in Pyodide.
"""

from __future__ import annotations

import importlib.util
import json
import re
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from server.grading import run_program
from server.puzzles.registry import FAMILIES
from server.services import services
from server.solving import solve
from tests.helpers import ROOT, browser, make_app, upload

PROGRAMS = ROOT / "tests" / "code_programs"
MAZES = ROOT / "mazes"


def _harness() -> Any:
    spec = importlib.util.spec_from_file_location("harness", ROOT / "static" / "js" / "code" / "harness.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


HARNESS = _harness()  # its packing only: the rules run in a child process (they take the name server)


@pytest.fixture(scope="module")
def app():
    return make_app()


def _load(app, path: Path) -> dict[str, Any]:
    return upload(app, path.read_bytes(), path.name)


def _rules(app, info: dict, options: dict | None = None) -> dict[str, Any]:
    answer = browser(app).post(f"/api/puzzles/{info['id']}/code/rules", json={"options": options or {}})
    assert answer.status_code == 200, answer.get_json()
    return answer.get_json()


def _execute(code: str, rules: dict[str, Any], steps: int | None = None) -> dict[str, Any]:
    ran, printed = run_program(code, json.dumps(rules), 120, steps or rules["steps"]["default"])
    assert ran["error"] is None, (ran["error"], printed[-2000:])
    return ran


def _judge(app, info: dict, ran: dict[str, Any], algorithm: str, options: dict | None = None,
           parts: int = 1) -> dict[str, Any]:
    """The run uploaded in ``parts`` parts of packed ids, then judged by its id."""
    client = browser(app)
    text = HARNESS.pack_ids(ran["expanded"])
    size = -(-len(text) // parts) or 1
    run = None
    for k in range(parts):
        sent = client.post(f"/api/puzzles/{info['id']}/code/runs", json={
            "run": run, "part": k, "parts": parts, "text": text[k * size:(k + 1) * size]})
        assert sent.status_code == 200, sent.get_json()
        run = sent.get_json()["run"]
    answer = client.post(f"/api/puzzles/{info['id']}/code/verdict", json={
        "options": options or {}, "algorithm": algorithm, "run": run, "count": len(ran["expanded"]),
        "path": ran["path"], "illegal": ran["illegal"], "stopped": ran["stopped"]})
    assert answer.status_code == 200, answer.get_json()
    return answer.get_json()


def _run(app, info: dict, program: str, algorithm: str, options: dict | None = None) -> dict[str, Any]:
    """The program run over the served rules, then judged: (rules, the run, the verdict)."""
    rules = _rules(app, info, options)
    ran = _execute((PROGRAMS / program).read_text(), rules)
    return {"rules": rules, "run": ran, "verdict": _judge(app, info, ran, algorithm, options)}


def _replayed(app, info: dict, code: str) -> dict[str, Any]:
    with app.app_context():
        puzzle = services().store.get(info["id"])
    return solve(puzzle, "code", {"code": code}, record_trace=True).json


def test_bfs_on_maze3_matches_and_replays_with_cost_52(app, shared_cases: Path) -> None:
    maze3 = shared_cases / "images" / "lee" / "maze3.png"
    info = _load(app, maze3)
    done = _run(app, info, "bfs.py", "bfs")
    verdict = done["verdict"]
    assert verdict["verdict"] == "matches", verdict["messages"]
    assert verdict["path"] == {**verdict["path"], "legal": True, "cost": 52, "optimum": 52, "optimal": True}
    assert verdict["messages"][0].startswith("Your search matches BFS's order of expansions")
    # The rules: the grid family's own module and the maze's data, no explicit graph.
    rules = done["rules"]
    assert rules["kind"] == "rules" and rules["module"] == "server.puzzles.grid.problem"
    assert rules["state_form"] == "(row, col)" and "server/puzzles/grid/problem.py" in rules["modules"]
    # The replay: the hidden algorithm code names the run kept on the server, an ordinary run whose
    # expansions are the student's.
    assert verdict["code"].startswith("run:") and verdict["animated"] == len(done["run"]["expanded"])
    replayed = _replayed(app, info, verdict["code"])
    assert replayed["found"] and replayed["cost"] == 52
    assert replayed["expanded"] == len(done["run"]["expanded"])


def test_a_stack_instead_of_a_queue_differs_and_names_the_states(app, shared_cases: Path) -> None:
    info = _load(app, shared_cases / "images" / "lee" / "maze3.png")
    verdict = _run(app, info, "bfs_stack.py", "bfs")["verdict"]
    assert verdict["verdict"] == "differs"
    order = verdict["order"]
    assert order["at"] >= 2 and not order["matches"] and not order["tie"]
    head = verdict["messages"][0]
    assert head.startswith(f"Your search differs at expansion {order['at']} from BFS: yours expanded (")
    assert order["yours_shown"] in head and order["ours_shown"] in head
    assert "oldest state on the frontier" in head
    assert "was on the frontier" in head  # a stack breaks BFS's rule, not only its tie-break


def test_another_tie_break_is_called_valid(app, shared_cases: Path) -> None:
    """DFS's order compared with BFS's differs; but a BFS that takes the successors in reverse keeps each
    depth together: at the first difference both states have the same depth, a valid tie-break."""
    info = _load(app, shared_cases / "images" / "lee" / "maze3.png")
    reversed_bfs = (PROGRAMS / "bfs.py").read_text().replace(
        "for nxt, _cost in problem.successors(state):",
        "for nxt, _cost in reversed(problem.successors(state)):")
    ran = _execute(reversed_bfs, _rules(app, info))
    verdict = _judge(app, info, ran, "bfs")
    assert verdict["verdict"] == "valid" and verdict["order"]["tie"], verdict["messages"]
    assert verdict["messages"][0].startswith("A valid BFS order with another tie-break than ours")
    at = verdict["order"]["at"]
    assert f"differs at expansion {at} from BFS: yours expanded (" in verdict["messages"][0]


@pytest.mark.parametrize(("file", "program", "algorithm", "size"), [
    ("zenji-downhill-6x6.json", "astar.py", "astar", 3),
    ("step-seed-003.txt", "bfs.py", "bfs", 3),
    ("sliding-aima-3-28.txt", "astar.py", "astar", 9),
    ("labyrinth-course-5x5.json", "ucs.py", "dijkstra", 4),
])
def test_each_family_state_form_works(app, file: str, program: str, algorithm: str, size: int) -> None:
    """A*, BFS or uniform cost written by a student matches the server's on a board of each family, and
    its run replays as an ordinary run that finds the same path."""
    info = _load(app, MAZES / file)
    done = _run(app, info, program, algorithm)
    verdict = done["verdict"]
    assert verdict["verdict"] == "matches", verdict["messages"]
    assert verdict["path"]["optimal"]
    assert done["rules"]["kind"] == "rules"
    assert len(verdict["order"]["yours_state"] or [0] * size) == size
    replayed = _replayed(app, info, verdict["code"])
    assert replayed["found"] and replayed["expanded"] == len(done["run"]["expanded"])


@pytest.mark.parametrize("name", sorted(FAMILIES))
def test_every_family_gives_distinct_student_states(app, name: str) -> None:
    gallery = json.loads((MAZES / "gallery.json").read_text())
    entry = next(e for e in gallery if e["family"] == name)
    info = _load(app, MAZES / entry["file"])
    space = browser(app).post(f"/api/puzzles/{info['id']}/code/space", json={"options": {}}).get_json()
    forms = [json.dumps(s) for s in space["states"]]
    assert len(set(forms)) == len(forms) == space["count"] > 1
    assert len(space["offsets"]) == space["walked"] + 1 and space["start"] == [0]


def test_an_illegal_path_and_bad_requests_are_named(app, shared_cases: Path) -> None:
    info = _load(app, shared_cases / "images" / "lee" / "maze3.png")
    client = browser(app)
    rules = _rules(app, info)
    # A path the page found to be no path of this puzzle: the page's words are the verdict's.
    ran = _execute("def search(problem):\n    return [problem.start, (0, 0)]\n", rules)
    assert ran["illegal"] and "is not a move of this puzzle" in ran["illegal"]
    answer = _judge(app, info, ran, "bfs")
    assert answer["verdict"] == "illegal" and "move 1:" in answer["path"]["problem"]
    assert "is not a move of this puzzle" in answer["messages"][0]
    # A path of moves that ends off the goal: the server's words.
    ran = _execute("def search(problem):\n    s = problem.successors(problem.start)[0][0]\n"
                   "    return [problem.start, s]\n", rules)
    answer = _judge(app, info, ran, "bfs")
    assert answer["verdict"] == "illegal" and "not at a goal" in answer["messages"][0]
    bad = client.post(f"/api/puzzles/{info['id']}/code/verdict", json={
        "options": {}, "algorithm": "bfs", "expanded": [10**9], "path": None})
    assert bad.status_code == 400 and "field 'expanded'" in bad.get_json()["error"]
    wrong = client.post(f"/api/puzzles/{info['id']}/code/verdict", json={
        "options": {}, "algorithm": "quantum", "expanded": [], "path": None})
    assert wrong.status_code == 400 and "field 'algorithm'" in wrong.get_json()["error"]
    assert client.post("/api/puzzles/nope/code/rules", json={}).status_code == 404
    garbled = solve_error(app, info["id"], "1,2")
    assert "';'" in garbled
    assert "were reached by then" in solve_error(app, info["id"], "0,5000;")
    assert "not kept on this server" in solve_error(app, info["id"], "run:" + "0" * 20)


def test_a_run_travels_in_parts_and_each_part_is_checked(app, shared_cases: Path) -> None:
    """The packed ids go up in parts (each under the socket's and the body's limits), are judged by the
    run's id, and the socket's run names that id: the same verdict as in one part."""
    info = _load(app, shared_cases / "images" / "lee" / "maze3.png")
    ran = _execute((PROGRAMS / "bfs.py").read_text(), _rules(app, info))
    whole, parted = _judge(app, info, ran, "bfs"), _judge(app, info, ran, "bfs", parts=3)
    assert parted["verdict"] == whole["verdict"] == "matches" and parted["messages"] == whole["messages"]
    assert _replayed(app, info, parted["code"])["expanded"] == len(ran["expanded"])
    client = browser(app)
    text = HARNESS.pack_ids(ran["expanded"])
    first = client.post(f"/api/puzzles/{info['id']}/code/runs", json={
        "run": None, "part": 0, "parts": 2, "text": text[:10]}).get_json()["run"]
    skipped = client.post(f"/api/puzzles/{info['id']}/code/runs", json={
        "run": first, "part": 2, "parts": 2, "text": text[10:]})
    assert skipped.status_code == 400 and "field 'part'" in skipped.get_json()["error"]
    early = client.post(f"/api/puzzles/{info['id']}/code/verdict", json={
        "algorithm": "bfs", "run": first, "count": len(ran["expanded"])})
    assert early.status_code == 400 and "1 of its 2 parts" in early.get_json()["error"]
    other = browser(app).post(f"/api/puzzles/{info['id']}/code/runs", json={
        "run": first, "part": 1, "parts": 2, "text": text[10:]})
    assert other.status_code == 400 and "not kept" in other.get_json()["error"]  # another client's run


def test_an_order_that_is_another_algorithms_says_which(app) -> None:
    """The 8-puzzle's default algorithm is IDA*; a correct A* differs from it and is told it is A*'s."""
    info = _load(app, MAZES / "sliding-aima-3-28.txt")
    assert FAMILIES["sliding"].default_algorithm == "idastar"
    verdict = _run(app, info, "astar.py", "idastar")["verdict"]
    assert verdict["verdict"] == "differs" and verdict["order"]["others"] == ["A*"]
    head = verdict["messages"][0]
    assert head.startswith("Your search differs at expansion ") and "from IDA*" in head
    assert verdict["messages"][0].endswith("; your order is A*'s (matches).")
    # The states in the family's one notation (Family.state_text), as the lab, Check and the page write them.
    assert re.search(r"yours expanded [\d_]( [\d_]){2}( / [\d_]( [\d_]){2}){2}, IDA\* expands ",
                     verdict["messages"][0]), verdict["messages"][0]


def test_the_step_limit_follows_the_puzzle(app) -> None:
    """Enough calls of successors for BFS over every state of an 8-puzzle (181,440), and the most a
    student may choose, from the config."""
    config = services(app).config
    eight = _rules(app, _load(app, MAZES / "sliding-aima-3-28.txt"))["steps"]
    assert eight == {"default": 181_440, "max": config.code_max_steps}
    maze = _rules(app, _load(app, MAZES / "seed-lee-example.txt"))["steps"]
    assert maze["default"] == config.code_steps


def solve_error(app, pid: str, code: str) -> str:
    answer = browser(app).post(f"/api/puzzles/{pid}/solve", json={"algorithm": "code", "code": code})
    assert answer.status_code == 400
    return answer.get_json()["error"]


def test_the_code_algorithm_is_in_no_menu() -> None:
    for family in FAMILIES.values():
        assert "code" not in family.algorithms
        assert any(o.name == "code" and o.control == "view" for o in family.options)


def test_the_grade_command_judges_a_folder_of_programs(shared_cases: Path) -> None:
    import subprocess
    import sys

    maze3 = shared_cases / "images" / "lee" / "maze3.png"
    programs = [PROGRAMS / name for name in ("bfs.py", "bfs_stack.py", "crash.py", "endless.py")]
    done = subprocess.run([sys.executable, "run.py", "grade", str(maze3), *map(str, programs), "-a", "bfs",
                           "--seconds", "2", "--json"], cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    verdicts = {Path(v["program"]).name: v for v in map(json.loads, done.stdout.splitlines())}
    assert verdicts["bfs.py"]["verdict"] == "matches" and verdicts["bfs.py"]["path"]["cost"] == 52
    assert verdicts["bfs_stack.py"]["verdict"] == "differs" and verdicts["bfs_stack.py"]["order"]["at"] == 2
    assert verdicts["crash.py"]["verdict"] == "error" and verdicts["crash.py"]["error"]["line"] == 7
    endless = verdicts["endless.py"]
    assert endless["verdict"] == "stopped" and "time limit: 2 s" in endless["messages"][0]


_SCALARS = st.none() | st.booleans() | st.integers(-5, 10**12) | st.floats() | st.text(max_size=8)
_ANY_JSON = st.recursive(
    _SCALARS,
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=6), inner, max_size=4),
    max_leaves=12)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(body=st.fixed_dictionaries({}, optional={
    "options": _ANY_JSON | st.fixed_dictionaries({}, optional={"diagonal": _ANY_JSON,
                                                               "heuristic": _ANY_JSON}),
    "algorithm": st.sampled_from(["bfs", "astar", "dfs", "code", "idastar"]) | _ANY_JSON,
    "expanded": st.lists(st.integers(-2, 400), max_size=30) | _ANY_JSON,
    "path": st.lists(st.integers(-2, 400), max_size=10) | _ANY_JSON,
    "stopped": _ANY_JSON, "illegal": _ANY_JSON, "run": _ANY_JSON, "count": _ANY_JSON,
    "part": _ANY_JSON, "parts": _ANY_JSON, "text": _ANY_JSON}))
def test_any_verdict_body_is_answered_without_a_server_error(app, body: dict) -> None:
    """Whatever a page (or anyone) posts, the answer is a verdict or a 4xx naming the field."""
    pid = _LEE_ID.setdefault("id", _load(app, MAZES / "seed-lee-example.txt")["id"])
    client = browser(app)
    for route in ("verdict", "space", "rules", "runs"):
        answer = client.post(f"/api/puzzles/{pid}/code/{route}", json=body)
        assert answer.status_code in (200, 400), (route, answer.status_code, answer.get_json())
        if answer.status_code == 400:
            assert answer.get_json()["error"]


_LEE_ID: dict[str, str] = {}


def test_a_dfs_pushing_successors_in_their_order_is_a_valid_dfs(app, shared_cases: Path) -> None:
    """The server's DFS expands the first successor first; a textbook DFS that pushes them in order
    expands the last first: another tie-break of a depth-first order, so 'valid'. BFS's order is not."""
    info = _load(app, shared_cases / "images" / "lee" / "maze3.png")
    rules = _rules(app, info)
    natural = (PROGRAMS / "dfs.py").read_text().replace("reversed(problem.successors(state))",
                                                        "problem.successors(state)")
    assert "reversed(problem.successors" not in natural
    verdicts = {}
    for name, code in (("natural", natural), ("bfs", (PROGRAMS / "bfs.py").read_text())):
        verdicts[name] = _judge(app, info, _execute(code, rules), "dfs")
    assert verdicts["bfs"]["verdict"] == "differs" and "not depth-first" in verdicts["bfs"]["messages"][0]
    assert verdicts["natural"]["verdict"] == "valid", verdicts["natural"]["messages"]


def test_problem_heuristic_is_the_one_the_run_chose(app) -> None:
    info = _load(app, MAZES / "zenji-downhill-6x6.json")
    default = _rules(app, info)
    chosen = _rules(app, info, {"heuristic": "distance"})
    assert default["heuristic"] == FAMILIES["zenji"].heuristics[0] and chosen["heuristic"] == "distance"
    ran = _execute((PROGRAMS / "astar.py").read_text(), chosen)
    verdict = _judge(app, info, ran, "astar", {"heuristic": "distance"})
    assert verdict["verdict"] == "matches", verdict["messages"]
    other = _judge(app, info, ran, "astar")  # judged against A* with the default: not the same order
    assert other["verdict"] != "matches"


def test_a_heuristic_the_page_cannot_compute_is_said_before_the_program_runs(app) -> None:
    """The sliding puzzles' pdb stays on the server: the program is told, and gets the default."""
    info = _load(app, MAZES / "sliding-korf-79.txt")
    rules = _rules(app, info, {"heuristic": "pdb"})
    if rules["heuristic"] != "pdb":
        pytest.skip("the pattern databases are not available on this server")
    code = "def search(problem):\n    print(sorted(problem.heuristics))\n    return None\n"
    ran, printed = run_program(code, json.dumps(rules), 60, 10)
    assert ran["error"] is None
    assert printed.startswith("Note: the heuristic 'pdb' is not computed in this page, so problem.heuristic "
                              "is 'manhattan' here; the server's search uses 'pdb'.\n")
    assert "'pdb'" not in printed.splitlines()[1]
