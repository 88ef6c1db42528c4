"""Share and export on the server: share-link parameters checked against the options schema, and
animated GIFs of a search (server/exporting.py, gif_encoding.py, gif_store.py, web/exports.py,
puzzles/animation.py): the GIF decodes, frames and size stay within the caps, bad requests are
refused naming the field, a family without animation gets a clear 400, and the per-client, server
and store caps hold."""

from __future__ import annotations

import io
import re
import time
from contextlib import ExitStack
from pathlib import Path

import numpy as np
import pytest
from PIL import Image

from server.config import Config
from server.gif_encoding import file_stem, gif_durations
from server.puzzles.animation import PATH_I, CellBoard, frame_positions, frame_size, search_frames
from server.puzzles.registry import FAMILIES
from server.search.events import CLOSE, OPEN, PATH
from server.search.trace import Trace
from server.services import services
from server.web.exports import PAGE_PARAMETERS
from tests.helpers import make_app

FINAL = ("done", "error", "cancelled")
PATH_RGB = (0xD5, 0x5E, 0x00)


@pytest.fixture
def app():
    return make_app()


@pytest.fixture
def client(app):
    return app.test_client()


def gallery(client, name: str) -> str:
    response = client.post("/api/puzzles", json={"gallery": name})
    assert response.status_code == 201, response.get_json()
    return response.get_json()["id"]


def start(client, pid: str, body) -> dict:
    response = client.post(f"/api/puzzles/{pid}/animation", json=body)
    assert response.status_code == 202, response.get_json()
    job = response.get_json()
    assert response.headers["Location"] == f"/api/animations/{job['job']}"
    return job


def wait(client, job: str, timeout: float = 120.0) -> dict:
    deadline = time.monotonic() + timeout
    while True:
        status = client.get(f"/api/animations/{job}")
        assert status.status_code == 200, status.get_json()
        body = status.get_json()
        if body["state"] in FINAL:
            return body
        assert time.monotonic() < deadline, f"the export did not finish: {body}"
        time.sleep(0.05)


def gif_of(client, pid: str, body) -> tuple[dict, Image.Image, bytes]:
    done = wait(client, start(client, pid, body)["job"])
    assert done["state"] == "done", done
    response = client.get(done["url"])
    assert response.status_code == 200 and response.mimetype == "image/gif"
    return done, Image.open(io.BytesIO(response.data)), response.data


def frames_of(image: Image.Image) -> list[Image.Image]:
    out = []
    for index in range(image.n_frames):
        image.seek(index)
        out.append(image.convert("RGB"))
    return out


def has_colour(image: Image.Image, rgb: tuple[int, int, int]) -> bool:
    pixels = np.asarray(image.convert("RGB")).reshape(-1, 3)
    return bool((pixels == np.array(rgb, np.uint8)).all(axis=1).any())


# ---- the GIF -------------------------------------------------------------------------------------
def test_a_grid_search_becomes_a_looping_gif_that_ends_on_the_path(client) -> None:
    pid = gallery(client, "seed-lee-example")
    done, image, data = gif_of(client, pid, {"algorithm": "astar", "heuristic": "manhattan"})
    assert image.format == "GIF" and image.info.get("loop") == 0
    assert 2 <= image.n_frames <= 120 and done["frames"] <= 120
    assert max(image.size) <= 640 and image.size == (done["width"], done["height"])
    assert done["filename"] == "seed-lee-example-astar.gif" and done["bytes"] == len(data)
    frames = frames_of(image)
    first, last = np.asarray(frames[0]), np.asarray(frames[-1])
    path_pixels = lambda a: int((a.reshape(-1, 3) == np.array(PATH_RGB, np.uint8)).all(axis=1).sum())  # noqa: E731
    assert path_pixels(last) > 20 * path_pixels(first) + 100  # the path is drawn at the end, not at the start
    total = 0
    for index in range(image.n_frames):
        image.seek(index)
        total += image.info["duration"]
    assert 6000 <= total <= 12000, total  # about 8 s
    response = client.get(done["url"])
    assert 'filename=seed-lee-example-astar.gif' in response.headers["Content-Disposition"]


def test_frames_and_size_stay_within_the_configured_caps() -> None:
    client = make_app(animation_max_frames=12, animation_max_side=100).test_client()
    pid = gallery(client, "perfect-large")  # 999 x 999 cells: sampled down
    done, image, _ = gif_of(client, pid, {"algorithm": "bfs"})
    assert image.n_frames <= 12 and done["frames"] <= 12
    assert max(image.size) <= 100 and image.size == (100, 100)


def test_a_step_maze_animates_too(client) -> None:
    pid = gallery(client, "step-seed-003")
    _, image, _ = gif_of(client, pid, {"algorithm": "bfs"})
    assert image.n_frames >= 2 and max(image.size) <= 640


def test_a_family_without_animation_is_told_so(client) -> None:
    families = {f["name"]: f for f in client.get("/api/families").get_json()}
    assert families["grid"]["animation"] and families["step"]["animation"]
    assert not families["labyrinth"]["animation"] and not families["zenji"]["animation"]
    for name in ("labyrinth-course-5x5", "zenji-seed-001"):
        pid = gallery(client, name)
        response = client.post(f"/api/puzzles/{pid}/animation", json={"algorithm": "astar"})
        assert response.status_code == 400
        error = response.get_json()["error"]
        assert "not drawn" in error and "grid mazes" in error


@pytest.mark.parametrize(
    ("body", "field"),
    [
        (None, "body"),
        ([1, 2], "body"),
        ("astar", "body"),
        ({}, "field 'algorithm'"),
        ({"algorithm": 3}, "field 'algorithm'"),
        ({"algorithm": "x" * 65}, "field 'algorithm'"),
        ({"algorithm": "nope"}, "option 'algorithm'"),
        ({"algorithm": "idastar"}, "option 'algorithm'"),  # not a grid algorithm
        ({"algorithm": "astar", "weight": "2"}, "option 'weight'"),
        ({"algorithm": "astar", "weight": 1e9}, "option 'weight'"),
        ({"algorithm": "astar", "heuristic": "guess"}, "option 'heuristic'"),
        ({"algorithm": "astar", "colour": "red"}, "'colour'"),
        ({"algorithm": "astar", "start": [1]}, "option 'start'"),
    ],
)
def test_bad_requests_are_refused_naming_the_field(client, body, field) -> None:
    pid = gallery(client, "seed-lee-example")
    response = client.post(f"/api/puzzles/{pid}/animation", json=body)
    assert response.status_code == 400, response.get_json()
    assert field in response.get_json()["error"]


def test_malformed_bodies_and_unknown_ids_never_give_a_500(client) -> None:
    pid = gallery(client, "seed-lee-example")
    bodies = [(b"{", "application/json"), (b"[" * 100_000, "application/json"), (b"x", "text/plain")]
    for data, kind in bodies:
        response = client.post(f"/api/puzzles/{pid}/animation", data=data, content_type=kind)
        assert response.status_code == 400 and "body" in response.get_json()["error"]
    assert client.post("/api/puzzles/nope/animation", json={"algorithm": "bfs"}).status_code == 404
    for path in ("/api/animations/nope", "/api/animations/nope.gif", "/api/animations/" + "x" * 300):
        response = client.get(path)
        assert response.status_code == 404 and "no GIF export" in response.get_json()["error"]
    assert client.delete("/api/animations/nope").status_code == 404


def test_a_waiting_export_can_be_cancelled_and_its_gif_is_not_ready(app, client) -> None:
    budget = services(app).budget
    pid = gallery(client, "seed-lee-example")
    with ExitStack() as stack:  # every compute slot busy: the export waits its turn
        for _ in range(budget.max_computing):
            stack.enter_context(budget.computing())
        job = start(client, pid, {"algorithm": "bfs"})["job"]
        time.sleep(0.2)
        status = client.get(f"/api/animations/{job}").get_json()
        assert status["state"] == "queued" and "waiting for a free worker" in status["message"]
        response = client.get(f"/api/animations/{job}.gif")
        assert response.status_code == 409 and "not ready" in response.get_json()["error"]
        assert client.delete(f"/api/animations/{job}").status_code == 200
        assert wait(client, job)["state"] == "cancelled"
    health = client.get("/api/health").get_json()
    assert health["trace_bytes"] == 0 and health["computing"] == 0 and health["animations"] == 0


def test_per_client_and_server_caps_hold() -> None:
    app = make_app(max_animations_per_client=1, max_animation_jobs=2, animations_per_minute=3)
    budget = services(app).budget
    first, second, third = app.test_client(), app.test_client(), app.test_client()
    pid = gallery(first, "seed-lee-example")
    with ExitStack() as stack:
        for _ in range(budget.max_computing):
            stack.enter_context(budget.computing())
        jobs = [start(first, pid, {"algorithm": "bfs"})["job"]]
        response = first.post(f"/api/puzzles/{pid}/animation", json={"algorithm": "bfs"})
        assert response.status_code == 429 and "at most 1 GIF export" in response.get_json()["error"]
        jobs.append(start(second, pid, {"algorithm": "bfs"})["job"])
        response = third.post(f"/api/puzzles/{pid}/animation", json={"algorithm": "bfs"})
        assert response.status_code == 503 and "busy" in response.get_json()["error"]
    for job in jobs:
        assert wait(first, job)["state"] == "done"
    # The rate: at most 3 a minute for a client (refused ones above counted too).
    url = f"/api/puzzles/{pid}/animation"
    codes = [first.post(url, json={"algorithm": "bfs"}).status_code for _ in range(3)]
    assert codes[-1] == 429


def test_the_store_keeps_few_gifs_for_a_while() -> None:
    client = make_app(animation_store_count=2, animations_per_minute=100).test_client()
    pid = gallery(client, "seed-lee-example")
    jobs = []
    for algorithm in ("bfs", "dfs", "astar"):
        job = start(client, pid, {"algorithm": algorithm})["job"]
        assert wait(client, job)["state"] == "done"
        jobs.append(job)
    assert client.get(f"/api/animations/{jobs[0]}").status_code == 404  # the oldest made room
    assert all(client.get(f"/api/animations/{job}.gif").status_code == 200 for job in jobs[1:])

    client = make_app(animation_ttl=0.3).test_client()
    pid = gallery(client, "seed-lee-example")
    job = start(client, pid, {"algorithm": "bfs"})["job"]
    assert wait(client, job)["state"] == "done"
    time.sleep(0.5)
    response = client.get(f"/api/animations/{job}.gif")
    assert response.status_code == 404 and "render it again" in response.get_json()["error"]


def test_a_gif_past_the_byte_limit_is_refused() -> None:
    client = make_app(animation_max_bytes=2_000).test_client()
    pid = gallery(client, "seed-lee-example")
    done = wait(client, start(client, pid, {"algorithm": "bfs"})["job"])
    assert done["state"] == "error" and "more than the limit" in done["error"]
    assert client.get(f"/api/animations/{done['job']}.gif").status_code == 409


def test_a_search_error_ends_the_export_with_its_message(client) -> None:
    text = b"#####\n#...#\n#####\n"  # no start and no goal
    response = client.post(
        "/api/puzzles", data={"file": (io.BytesIO(text), "blank.txt")}, content_type="multipart/form-data",
    )
    pid = response.get_json()["id"]
    done = wait(client, start(client, pid, {"algorithm": "bfs"})["job"])
    assert done["state"] == "error" and "start" in done["error"]


# ---- share links ---------------------------------------------------------------------------------
def test_share_link_parameters_are_typed_by_the_schema(client) -> None:
    pid = gallery(client, "seed-lee-example")
    query = "algorithm=astar&heuristic=octile&weight=1.5&diagonal=true&start=3,1&gallery=x&at=120"
    answer = client.get(f"/api/puzzles/{pid}/run-options?{query}")
    assert answer.status_code == 200
    assert answer.get_json() == {
        "algorithm": "astar",
        "options": {"heuristic": "octile", "weight": 1.5, "diagonal": True, "start": [3, 1]},
    }
    assert client.get(f"/api/puzzles/{pid}/run-options").get_json() == {"algorithm": None, "options": {}}


@pytest.mark.parametrize(
    ("query", "parameter", "words"),
    [
        ("algorithm=zz", "algorithm", "not offered"),
        ("algorithm=", "algorithm", "algorithm name"),
        ("weight=abc", "weight", "cannot read"),
        ("weight=1000", "weight", "outside 1..100"),
        ("heuristic=guess", "heuristic", "not one of"),
        ("diagonal=maybe", "diagonal", "true or false"),
        ("start=1", "start", "[row, col]"),
        ("colour=red", "colour", "not an option of the grid family"),
        ("weight=1&weight=2", "weight", "more than once"),
    ],
)
def test_bad_share_link_parameters_are_named(client, query, parameter, words) -> None:
    pid = gallery(client, "seed-lee-example")
    response = client.get(f"/api/puzzles/{pid}/run-options?{query}")
    assert response.status_code == 400
    error = response.get_json()["error"]
    assert error.startswith(f"parameter '{parameter}': ") and words in error


def test_a_share_link_to_an_expired_upload_is_a_404(client) -> None:
    response = client.get("/api/puzzles/0123456789abcdef0123/run-options?algorithm=bfs")
    assert response.status_code == 404 and "expired" in response.get_json()["error"]


# ---- the pieces ----------------------------------------------------------------------------------
def test_frame_positions_start_empty_end_complete_and_give_the_path_its_frames() -> None:
    n, path = 1000, 40
    kinds = np.array([OPEN] * (n - path) + [PATH] * path, np.uint8)
    trace = Trace(kinds, np.zeros(n, np.int32), np.zeros(n, np.float32))
    positions = frame_positions(trace, 120)
    assert positions[0] == 0 and positions[-1] == n and len(positions) <= 120
    assert positions == sorted(set(positions))
    assert sum(1 for p in positions if p > n - path) >= 10  # about one frame in eight shows the path
    tiny = Trace(np.array([OPEN], np.uint8), np.zeros(1, np.int32), np.zeros(1, np.float32))
    assert frame_positions(tiny, 120) == [0, 1]


def test_the_last_record_of_a_cell_decides_its_colour() -> None:
    # One chunk opens, closes and opens cell 0 again, and closes cell 1 then marks it on the path.
    kinds = np.array([OPEN, CLOSE, OPEN, CLOSE, PATH], np.uint8)
    trace = Trace(kinds, np.array([0, 0, 0, 1, 1], np.int32), np.array([0, 0, 5, 2, 2], np.float32))
    board = CellBoard(np.ones((1, 2), np.uint8), np.full((10, 3), 255, np.uint8))
    last = search_frames(board, trace, 2, 2)[-1]
    assert np.asarray(last).reshape(-1).tolist() == [10, PATH_I]  # the frontier's index, then the path's


def test_frame_sizes_and_durations() -> None:
    assert frame_size(25, 33, 640) == (475, 627, 19.0)
    assert frame_size(5, 5, 640)[2] == 32  # small boards stop at 32 px a cell
    assert frame_size(999, 500, 640)[:2] == (640, 320)
    config = Config()
    for frames in (15, 60, 120):
        total = sum(gif_durations(frames, config))
        assert 6000 <= total <= 12000 and len(gif_durations(frames, config)) == frames
    assert all(d >= 20 for d in gif_durations(1000, config))
    assert file_stem("my maze (2).png", "astar") == "my_maze_2_.png-astar"
    assert file_stem("", "../..") == "export"


def test_no_family_option_takes_a_page_parameters_name() -> None:
    """The page's own parameters of a link (and of the address bar) are never read as run options: no
    family's option may take one of their names, and the page's list is the server's."""
    source = (Path(__file__).resolve().parents[1] / "static" / "js" / "share" / "link.js").read_text()
    page_list = re.search(r"const PAGE_PARAMETERS = \[([^\]]*)\]", source)
    assert page_list is not None, "link.js no longer lists PAGE_PARAMETERS"
    assert tuple(re.findall(r'"([^"]+)"', page_list.group(1))) == PAGE_PARAMETERS
    for family in FAMILIES.values():
        clash = {o.name for o in family.options} & set(PAGE_PARAMETERS)
        assert not clash, f"the {family.name} family's options {sorted(clash)} are page parameters of a link"
