"""Uploads with progress (issue 22, point 3): the progress registry (memory, and a real Redis shared by
two registries as two server processes would share it), the image parser's phases (its decode-progress
path reads the same cells as the plain one), the API's poll and cancel, an upload id refused, and the
upload's memory taken from the work budget (a 503 naming the limit when it cannot be had)."""

from __future__ import annotations

import io
import threading
import time
from pathlib import Path

import numpy as np
import pytest
from PIL import Image

from server import uploads
from server.puzzles.errors import PuzzleError
from server.puzzles.grid.image import memory_estimate, parse_grid_image
from server.services import services
from server.uploads import Cancelled, UploadProgress, check_upload_id
from tests.conftest import SHARED_CASES
from tests.helpers import make_app

pytest_plugins = ["tests.redis_server"]

IMAGES = sorted((SHARED_CASES / "images").rglob("*.png")) if (SHARED_CASES / "images").is_dir() else []


def png(image: Image.Image) -> bytes:
    buffer = io.BytesIO()
    image.save(buffer, "PNG")
    return buffer.getvalue()


def maze_png(width: int = 600, height: int = 400) -> bytes:
    """Vertical corridors joined along the top row (a wall frame, openings top left and bottom left)."""
    cells = np.zeros((height, width), np.uint8)
    cells[1:-1, 1:-1] = 255
    cells[2:-1, 2::4] = 0
    cells[0, 1] = cells[-1, 1] = 255
    return png(Image.fromarray(cells, "L"))


def post(client, data: bytes, name: str = "m.png", upload_id: str | None = None):
    headers = {} if upload_id is None else {"X-Upload-Id": upload_id}
    return client.post(
        "/api/puzzles", data={"file": (io.BytesIO(data), name)}, content_type="multipart/form-data",
        headers=headers,
    )


def wait_for(check, timeout: float = 10.0):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        found = check()
        if found:
            return found
        time.sleep(0.02)
    raise AssertionError("timed out")


# ---- the registry ------------------------------------------------------------------------------------
def test_upload_ids_are_short_and_plain() -> None:
    assert check_upload_id("u-1_AbC") == "u-1_AbC"
    assert check_upload_id(None) is None and check_upload_id("") is None
    for bad in ("a" * 41, "a b", "a/b", "ä", "x;y", "../x"):
        with pytest.raises(PuzzleError, match="X-Upload-Id"):
            check_upload_id(bad)


def test_the_registry_in_memory_reports_cancels_and_forgets(monkeypatch) -> None:
    registry = UploadProgress()
    tracker = registry.tracker("up1")
    assert registry.status("up1") is None
    tracker("decode", 0.4)
    assert registry.status("up1") == {"phase": "decode", "fraction": 0.4, "message": "Decoding the image"}
    tracker("lattice", None)
    lattice = {"phase": "lattice", "fraction": None, "message": "Looking for a lattice"}
    assert registry.status("up1") == lattice
    registry.tracker(None)("decode", 0.5)  # a request without an id reports nowhere
    assert len(registry) == 1
    # A cancel is heard at the next report; the end is still reported.
    assert registry.cancel("up1")["phase"] == "lattice"
    with pytest.raises(Cancelled, match="cancelled"):
        tracker("cells", 0.9)
    tracker.fail("m.png, upload: the upload was cancelled")
    assert registry.status("up1")["phase"] == "error"
    # Entries go a minute after their last report, and there are at most MAX_ENTRIES of them.
    clock = [time.monotonic()]
    monkeypatch.setattr(uploads.time, "monotonic", lambda: clock[0])
    registry.tracker("up2")("cells", 0.1)
    clock[0] += uploads.PROGRESS_TTL + 1
    assert registry.status("up2") is None and len(registry) == 0
    monkeypatch.setattr(uploads, "MAX_ENTRIES", 3)
    for i in range(5):
        registry.tracker(f"n{i}")("decode", 0.0)
    assert len(registry) == 3 and registry.status("n0") is None and registry.status("n4") is not None


def test_the_registry_through_redis_is_shared_by_processes(redis_url) -> None:
    import redis

    here, there = UploadProgress(redis_url), UploadProgress(redis_url)  # two processes' registries
    tracker = here.tracker("shared-1")
    tracker("decode", 0.25)
    assert there.status("shared-1") == {"phase": "decode", "fraction": 0.25, "message": "Decoding the image"}
    ttl = redis.Redis.from_url(redis_url).pttl(uploads.PREFIX + "shared-1")
    assert 0 < ttl <= uploads.PROGRESS_TTL * 1000
    tracker("cells", 0.5)  # a new phase is published at once
    assert there.status("shared-1")["phase"] == "cells"
    # A cancel on the other process stops the upload at its next published report.
    there.cancel("shared-1")
    with pytest.raises(Cancelled):
        tracker("lattice", None)
    tracker.fail("cancelled")
    assert there.status("shared-1")["phase"] == "error"
    assert there.status("never-heard-of") is None
    there.cancel("never-heard-of")  # no key made for an unknown id
    assert not redis.Redis.from_url(redis_url).exists(uploads.PREFIX + "never-heard-of")


# ---- the image parser's phases -------------------------------------------------------------------------
@pytest.mark.skipif(not IMAGES, reason="the shared cases are absent")
@pytest.mark.parametrize("path", IMAGES, ids=lambda p: f"{p.parent.name}/{p.name}")
def test_reading_with_progress_gives_the_same_cells(path: Path) -> None:
    data = path.read_bytes()
    plain = parse_grid_image(data, path.stem, max_pixels=100_000_000)
    heard: list[tuple[str, float | None]] = []
    asked: list[int] = []
    watched = parse_grid_image(
        data, path.stem, max_pixels=100_000_000, progress=lambda p, f: heard.append((p, f)),
        memory=asked.append,
    )
    assert np.array_equal(plain.cells, watched.cells)
    assert list(plain.starts) == list(watched.starts) and list(plain.goals) == list(watched.goals)
    assert plain.notes == watched.notes and plain.lattice == watched.lattice
    phases = [p for p, _ in heard]
    assert phases[0] == "decode" and phases[-1] == "lattice" and "cells" in phases
    assert phases == sorted(phases, key=["decode", "cells", "lattice"].index)  # in order, each once
    for phase in ("decode", "cells"):
        fractions = [f for p, f in heard if p == phase]
        assert fractions == sorted(fractions) and fractions[0] == 0.0 and fractions[-1] == 1.0, phase
    with Image.open(path) as im:
        assert asked == [memory_estimate(im.mode, im.width * im.height, len(data))]


def test_a_report_may_stop_the_read_in_words() -> None:
    data = maze_png()

    def stop(phase: str, fraction: float | None) -> None:
        if phase == "decode" and fraction and fraction > 0:
            raise Cancelled

    with pytest.raises(Cancelled, match="cancelled"):
        parse_grid_image(data, progress=stop)


def test_the_memory_estimate_counts_a_few_bytes_a_pixel() -> None:
    assert memory_estimate("P", 225_000_000) == 225_000_000 * 2 + 4_000_000 * 4
    assert memory_estimate("RGB", 1_000_000, 10) == 1_000_000 * 5 + 1_000_000 * 40 + 10
    assert memory_estimate("I;16", 100) == 100 * 3 + 100 * 8


# ---- the API -------------------------------------------------------------------------------------------
@pytest.fixture
def app():
    return make_app(max_pixels=5_000_000, solve_wait=5.0, trace_budget_bytes=20_000_000)


def test_an_upload_with_an_id_is_pollable_until_done(app) -> None:
    client = app.test_client()
    assert client.get("/api/uploads/abc123").json["phase"] == "unknown"
    answer = post(client, maze_png(), "m.png", "abc123")
    assert answer.status_code == 201, answer.json
    assert client.get("/api/uploads/abc123").json == {"phase": "done", "fraction": 1.0, "message": "Done"}
    # A failed upload is polled as an error in the POST's words.
    answer = post(client, b"\x89PNG\r\n\x1a\n broken", "bad.png", "bad-1")
    assert answer.status_code == 400
    status = client.get("/api/uploads/bad-1").json
    assert status["phase"] == "error" and status["message"] == answer.json["error"]


def test_a_bad_upload_id_is_refused_in_words(app) -> None:
    client = app.test_client()
    answer = post(client, maze_png(), "m.png", "not an id!")
    assert answer.status_code == 400 and "X-Upload-Id" in answer.json["error"]
    answer = post(client, maze_png(), "m.png", "x" * 41)
    assert answer.status_code == 400 and "X-Upload-Id" in answer.json["error"]
    for path in ("/api/uploads/" + "y" * 41, "/api/uploads/a.b", "/api/uploads/%C3%A4"):
        got = client.get(path)
        assert got.status_code == 400 and "X-Upload-Id" in got.json["error"], path
        assert client.delete(path).status_code == 400


def _upload_in_thread(app, data: bytes, upload_id: str) -> tuple[threading.Thread, list]:
    answers: list = []
    client = app.test_client()
    thread = threading.Thread(target=lambda: answers.append(post(client, data, "m.png", upload_id)))
    thread.start()
    return thread, answers


def test_the_upload_waits_for_its_memory_and_says_so(app) -> None:
    budget = services(app).budget
    held = budget.reserve(20_000_000)  # other work holds the whole budget
    thread, answers = _upload_in_thread(app, maze_png(), "waiting-1")
    client = app.test_client()
    status = wait_for(lambda: (s := client.get("/api/uploads/waiting-1").json)["phase"] == "received"
                      and "memory" in s["message"] and s)
    assert "Waiting for server memory to receive this upload" in status["message"]
    assert "of the 20 MB the server's work may hold at once" in status["message"]
    budget.release(held)
    thread.join(10)
    assert answers[0].status_code == 201
    assert budget.snapshot()["trace_bytes"] == 0  # the upload's memory is given back


def test_no_memory_in_time_is_a_503_naming_the_limit() -> None:
    app = make_app(max_pixels=5_000_000, solve_wait=0.3, trace_budget_bytes=20_000_000)
    budget = services(app).budget
    held = budget.reserve(20_000_000)
    answer = post(app.test_client(), maze_png(), "m.png", "busy-1")
    assert answer.status_code == 503
    assert "waiting for server memory to receive this upload" in answer.json["error"]
    assert "20 MB the server's work may hold at once" in answer.json["error"]
    assert app.test_client().get("/api/uploads/busy-1").json["phase"] == "error"
    budget.release(held)
    assert budget.snapshot()["trace_bytes"] == 0


def test_an_upload_cancelled_by_the_page_stops_in_words(app) -> None:
    budget = services(app).budget
    held = budget.reserve(20_000_000)
    thread, answers = _upload_in_thread(app, maze_png(), "cancel-1")
    client = app.test_client()
    wait_for(lambda: client.get("/api/uploads/cancel-1").json["phase"] == "received")
    assert client.delete("/api/uploads/cancel-1").status_code == 200
    budget.release(held)
    thread.join(10)
    assert answers[0].status_code == 400 and "the upload was cancelled" in answers[0].json["error"]
    assert client.get("/api/uploads/cancel-1").json["phase"] == "error"
    assert budget.snapshot()["trace_bytes"] == 0
