"""Several server processes on one Redis (server/clients.py, rate_limits.py, leases.py, exporting.py,
gif_store.py): two apps on the same Redis stand for two processes behind a proxy. A client's and an
address's rates are reached across both together, the caps on work at once (runs, GIF exports) count
across both, a GIF export started on one is polled, downloaded and cancelled on the other, the GIF
store's caps hold across both (a finished export seen so only once stored), a dead process's lease
expires, and with Redis gone requests still answer, each process counting alone."""

from __future__ import annotations

import io
import time
from contextlib import ExitStack
from typing import Any

import pytest
import redis
from flask import Flask
from PIL import Image

from server.clients import SharedRedis
from server.config import Config
from server.gif_store import Finished, LocalGifStore, RedisGifStore, gif_store_for
from server.leases import LocalLeases, RedisLeases, leases_for
from server.puzzles.errors import PuzzleError
from server.rate_limits import LocalRateLimits, RedisRateLimits, rate_limits_for
from server.services import services
from server.solving import check_run
from tests.helpers import LIVE, make_app, open_maze, post_file

pytest_plugins = ["tests.redis_server"]

SECRET = "shared-limits-test-" + "k" * 40  # every process of a deployment signs sessions alike
FINAL = ("done", "error", "cancelled")


@pytest.fixture(autouse=True)
def no_message_queue_after() -> Any:
    """An app made with ``redis_url`` leaves Flask-SocketIO's one ``socketio`` object a Redis client
    manager, which later modules' socket test clients refuse: drop it after each test."""
    from server.app import socketio

    yield
    socketio.server_options.pop("client_manager", None)
    socketio.server_options.pop("message_queue", None)


def two_apps(url: str, **overrides: Any) -> tuple[Flask, Flask]:
    return tuple(make_app(redis_url=url, secret_key=SECRET, **overrides) for _ in range(2))  # type: ignore[return-value]


def same_client(first: Flask, second: Flask) -> tuple[Any, Any]:
    """Test clients of both apps with one session cookie: one browser whose requests reach both."""
    a = first.test_client()
    assert a.get("/").status_code == 200  # the page gives the browser its client id
    b = second.test_client()
    b.set_cookie("session", a.get_cookie("session").value)
    return a, b


def client_of(app: Flask, http: Any) -> str:
    """The client id in ``http``'s session cookie (as ``clients.client_id`` names it)."""
    serializer = app.session_interface.get_signing_serializer(app)
    return "c:" + serializer.loads(http.get_cookie("session").value)["client"]


def maze_text(n: int) -> bytes:
    return f"#####\n#S.G#\n#...#\n#####\n{'#' * (n + 1)}\n".encode()


def gallery(*clients: Any, name: str = "seed-lee-example") -> str:
    """Open a gallery maze on each client's process (the same id everywhere: a content hash)."""
    ids = set()
    for client in clients:
        response = client.post("/api/puzzles", json={"gallery": name})
        assert response.status_code == 201, response.get_json()
        ids.add(response.get_json()["id"])
    (pid,) = ids
    return pid


def export(client: Any, pid: str, algorithm: str = "bfs") -> Any:
    return client.post(f"/api/puzzles/{pid}/animation", json={"algorithm": algorithm})


def wait_final(client: Any, job: str, timeout: float = 60.0) -> dict:
    deadline = time.monotonic() + timeout
    while True:
        status = client.get(f"/api/animations/{job}")
        assert status.status_code == 200, status.get_json()
        body = status.get_json()
        if body["state"] in FINAL:
            return body
        assert time.monotonic() < deadline, f"the export did not finish: {body}"
        time.sleep(0.05)


def holding_workers(stack: ExitStack, *apps: Flask) -> None:
    """Take every compute slot of ``apps``: their exports wait queued until the stack closes."""
    for app in apps:
        budget = services(app).budget
        for _ in range(budget.max_computing):
            stack.enter_context(budget.computing())


def redis_ms(url: str) -> int:
    seconds, micros = redis.Redis.from_url(url).time()
    return seconds * 1000 + micros // 1000


# ---- rates -----------------------------------------------------------------------------------------
def test_a_clients_upload_rate_is_reached_across_processes(redis_url: str) -> None:
    first, second = two_apps(redis_url, uploads_per_minute=3)
    a, b = same_client(first, second)
    assert post_file(a, maze_text(1), "m1.txt").status_code == 201
    assert post_file(b, maze_text(2), "m2.txt").status_code == 201
    assert post_file(a, maze_text(3), "m3.txt").status_code == 201
    for http in (b, a):
        refused = post_file(http, maze_text(4), "m4.txt")
        assert refused.status_code == 429
        assert "at most 3 a minute for this client" in refused.get_json()["error"]
    keys = redis.Redis.from_url(redis_url).keys("maze:rate:upload:*")
    assert {k.decode().split(":")[3] for k in keys} == {"c", "addr"}
    # Another browser is not held back by this one.
    assert post_file(second.test_client(), maze_text(5), "m5.txt").status_code == 201


def test_an_address_rate_is_reached_across_processes(redis_url: str) -> None:
    first, second = two_apps(redis_url, uploads_per_minute=2, clients_per_ip=2)  # 4 a minute per address
    def browser(app: Flask) -> Any:  # a browser of its own (the page gave it its id), on the same address
        http = app.test_client()
        http.get("/")
        return http

    for app in (first, second):
        http = browser(app)
        for n in range(2):
            assert post_file(http, maze_text(n), f"m{n}.txt").status_code == 201
    for app in (first, second):
        refused = post_file(browser(app), maze_text(9), "m9.txt")
        assert refused.status_code == 429
        assert "at most 4 a minute for this address" in refused.get_json()["error"]


# ---- caps on work at once --------------------------------------------------------------------------
def test_gif_export_caps_count_across_processes(redis_url: str) -> None:
    first, second = two_apps(
        redis_url, max_animations_per_client=1, max_animation_jobs=2, animations_per_minute=100,
    )
    a, b = same_client(first, second)
    pid = gallery(a, b)
    other = second.test_client()
    with ExitStack() as stack:
        holding_workers(stack, first, second)
        jobs = [export(a, pid).get_json()["job"]]
        refused = export(b, pid)  # the same browser on the other process
        assert refused.status_code == 429 and "at most 1 GIF export" in refused.get_json()["error"]
        started = export(other, pid)
        assert started.status_code == 202, started.get_json()
        jobs.append(started.get_json()["job"])
        busy = export(first.test_client(), pid)  # a third browser: both processes' jobs count
        assert busy.status_code == 503 and "busy" in busy.get_json()["error"]
    for job in jobs:
        assert wait_final(b, job)["state"] == "done"
    shared = redis.Redis.from_url(redis_url)
    assert shared.zcard("maze:lease:gif-all") == 0  # released when the jobs ended
    assert export(b, pid).status_code == 202


def test_a_live_lease_is_renewed_and_a_dead_processs_lease_expires(redis_url: str) -> None:
    first, second = two_apps(
        redis_url, max_animations_per_client=1, animations_per_minute=100, redis_lease_seconds=1.0,
    )
    a, b = same_client(first, second)
    pid = gallery(a, b)
    with ExitStack() as stack:
        holding_workers(stack, first)
        job = export(a, pid).get_json()["job"]
        time.sleep(2.0)  # twice the lease's length: the owner renews it
        refused = export(b, pid)
        assert refused.status_code == 429 and "at most 1 GIF export" in refused.get_json()["error"]
        assert b.get(f"/api/animations/{job}").get_json()["state"] == "queued"
    assert wait_final(b, job)["state"] == "done"

    # A process that died holding a lease (nothing renews or releases it): it caps the client until
    # the lease's time is up, then no more.
    shared = redis.Redis.from_url(redis_url)
    dead = {"gif:of-a-dead-process": redis_ms(redis_url) + 1200}
    shared.zadd(f"maze:lease:gif:{client_of(first, a)}", dead)
    refused = export(b, pid)
    assert refused.status_code == 429
    time.sleep(1.4)
    started = export(b, pid)
    assert started.status_code == 202, started.get_json()
    assert wait_final(a, started.get_json()["job"])["state"] == "done"


def test_runs_at_once_count_across_processes(redis_url: str) -> None:
    # The apps' runs are started directly: Flask-SocketIO's test client refuses a message queue, and
    # with Redis the app sends its socket messages through it.
    managers = [services(app).runs for app in two_apps(redis_url, max_runs_per_client=1, **LIVE)]
    maze = open_maze(300, 300)
    options = check_run(maze, "dfs", None)
    sent: list[str] = []

    def start(on: int, sid: str, slot: str, run: str) -> Any:
        return managers[on].start(sid, slot, run, maze, "dfs", options, lambda e, _p: sent.append(e), "c:one")

    first = start(0, "sid-a", "one", "r1")  # streams, then waits for acknowledgements
    with pytest.raises(PuzzleError, match="at most 1 runs at once"):
        start(1, "sid-b", "two", "r2")  # the same browser's socket on the other process
    assert start(0, "sid-a", "one", "r1b")  # a new run in the slot it holds replaces the old one
    managers[0].cancel("sid-a", "r1b")
    first.thread.join(5)
    deadline = time.monotonic() + 5
    while True:  # the slot's lease goes within a second of its run
        try:
            second = start(1, "sid-b", "two", "r2")
            break
        except PuzzleError:
            assert time.monotonic() < deadline
            time.sleep(0.1)
    managers[1].cancel("sid-b", "r2")
    second.thread.join(5)


# ---- GIF export jobs -------------------------------------------------------------------------------
def test_a_gif_export_started_on_one_process_is_polled_and_downloaded_on_another(redis_url: str) -> None:
    first, second = two_apps(redis_url, animations_per_minute=100)
    a, b = same_client(first, second)  # one browser whose requests reach both processes
    pid = gallery(a)
    started = export(a, pid)
    assert started.status_code == 202, started.get_json()
    job = started.get_json()["job"]
    assert b.get(f"/api/animations/{job}").status_code == 200  # pollable elsewhere at once
    done = wait_final(b, job)
    assert done["state"] == "done" and done["url"] == f"/api/animations/{job}.gif"
    on_b, on_a = b.get(done["url"]), a.get(done["url"])
    assert on_b.status_code == 200 and on_b.mimetype == "image/gif"
    assert on_b.data == on_a.data and len(on_b.data) == done["bytes"]
    assert done["filename"] in on_b.headers["Content-Disposition"]
    assert Image.open(io.BytesIO(on_b.data)).n_frames == done["frames"]
    ttl = redis.Redis.from_url(redis_url).pttl(f"maze:gif:{job}")
    assert 0 < ttl <= services(first).config.animation_ttl * 1000
    assert b.get("/api/animations/nothing-like-it").status_code == 404
    other = second.test_client()  # another browser: the job is not its (tests/test_job_owners.py)
    other.get("/")
    assert other.get(f"/api/animations/{job}").status_code == 404


def test_a_gif_export_is_cancelled_from_another_process(redis_url: str) -> None:
    first, second = two_apps(redis_url, animations_per_minute=100)
    a, b = same_client(first, second)
    pid = gallery(a)
    with ExitStack() as stack:
        holding_workers(stack, first)
        job = export(a, pid).get_json()["job"]
        response = b.delete(f"/api/animations/{job}")
        assert response.status_code == 200 and response.get_json()["job"] == job
        done = wait_final(b, job, timeout=10)
    assert done["state"] == "cancelled"
    assert b.get(f"/api/animations/{job}.gif").status_code == 409


def test_the_gif_store_caps_hold_across_processes(redis_url: str) -> None:
    first, second = two_apps(redis_url, animation_store_count=2, animations_per_minute=100)
    a, b = same_client(first, second)  # one browser's exports, made and fetched on either process
    clients = [a, b, a]
    pid = gallery(*clients)
    jobs = []
    for http, algorithm in zip(clients, ("bfs", "dfs", "astar"), strict=True):
        job = export(http, pid, algorithm).get_json()["job"]
        assert wait_final(http, job)["state"] == "done"
        jobs.append(job)
    for http in clients[:2]:
        assert http.get(f"/api/animations/{jobs[0]}").status_code == 404  # the oldest made room
        assert all(http.get(f"/api/animations/{job}.gif").status_code == 200 for job in jobs[1:])
    assert redis.Redis.from_url(redis_url).zcard("maze:gif-store") == 2


def test_a_gif_export_is_seen_finished_only_once_stored_with_the_oldest_gone(redis_url, monkeypatch) -> None:
    """Once failed under load: a job was final in its process's memory before its storing (which evicts
    the oldest) reached Redis, so a poll in between still got the GIF it was about to evict. A slow
    store stands for the loaded machine."""
    first, second = two_apps(redis_url, animation_store_count=1, animations_per_minute=100)
    a, b = same_client(first, second)
    pid = gallery(a, b)
    store = services(first).animations.store
    keep = store.keep
    monkeypatch.setattr(store, "keep", lambda done: (time.sleep(0.5), keep(done)))
    older = export(b, pid, "dfs").get_json()["job"]
    assert wait_final(b, older)["state"] == "done"
    job = export(a, pid).get_json()["job"]
    assert wait_final(a, job)["state"] == "done"
    for http in (a, b):  # at once, on either process: the one it made room for is gone
        assert http.get(f"/api/animations/{older}.gif").status_code == 404
        assert http.get(f"/api/animations/{job}.gif").status_code == 200


def test_the_newest_gif_stays_when_another_finished_in_the_same_millisecond(redis_url: str) -> None:
    store = RedisGifStore(Config(testing=True, redis_url=redis_url, animation_store_count=1),
                          SharedRedis(redis_url))
    shared = redis.Redis.from_url(redis_url)
    shared.zadd("maze:gif-store", {"zz-same-ms": redis_ms(redis_url) + 1000})  # not before this one
    store.keep(Finished("aa-newest", "c:one", {"job": "aa-newest", "state": "done"}, b"GIF89a"))
    assert store.status("aa-newest", ["c:one"]) == {"job": "aa-newest", "state": "done"}
    assert shared.zrange("maze:gif-store", 0, -1) == [b"aa-newest"]


def test_each_count_chooses_its_kind_once(redis_url: str) -> None:
    alone, shared = Config(testing=True), Config(testing=True, redis_url=redis_url)
    assert isinstance(rate_limits_for(alone), LocalRateLimits)
    assert isinstance(rate_limits_for(shared), RedisRateLimits)
    assert isinstance(leases_for(alone), LocalLeases) and isinstance(leases_for(shared), RedisLeases)
    assert isinstance(gif_store_for(alone), LocalGifStore)
    assert isinstance(gif_store_for(shared), RedisGifStore)


# ---- Redis going away ------------------------------------------------------------------------------
def test_with_redis_gone_requests_answer_and_each_process_counts_alone(tmp_path, monkeypatch, caplog) -> None:
    from tests.redis_server import RedisServer  # imported here: pytest loads the module as a plugin

    monkeypatch.setattr(SharedRedis, "RETRY_SECONDS", 0.2)
    server = RedisServer(tmp_path)
    server.start()
    try:
        first, second = two_apps(
            server.url, uploads_per_minute=4, animations_per_minute=100, max_animations_per_client=1,
        )
        a, b = same_client(first, second)
        pid = gallery(a, b)  # an upload on each: counted in Redis (and by each process)
        server.stop()

        # Caps on work at once: each process counts its own exports.
        with ExitStack() as stack:
            holding_workers(stack, first, second)
            jobs = [export(a, pid).get_json()["job"]]
            assert export(a, pid).status_code == 429
            started = export(b, pid)
            assert started.status_code == 202, started.get_json()
            jobs.append(started.get_json()["job"])
        assert wait_final(a, jobs[0])["state"] == wait_final(b, jobs[1])["state"] == "done"

        began = time.monotonic()
        for n in range(3):
            assert post_file(a, maze_text(n), f"m{n}.txt").status_code == 201
        assert post_file(a, maze_text(3), "m3.txt").status_code == 429  # this process's own count: 4
        for n in range(3):  # the other process counts alone: its own 4 a minute, 1 taken
            assert post_file(b, maze_text(10 + n), f"n{n}.txt").status_code == 201
        refused = post_file(b, maze_text(13), "n3.txt")
        assert refused.status_code == 429 and "at most 4 a minute" in refused.get_json()["error"]
        assert time.monotonic() - began < 5  # no request waited on Redis for long
        warnings = [r for r in caplog.records if r.name == "server.clients" and "answer" in r.message]
        assert len(warnings) == 1  # once a minute, however many requests fell back

        # A GIF export still renders and is kept where it ran; elsewhere a poll says Redis is away.
        started = export(a, pid)
        assert started.status_code == 202, started.get_json()
        job = started.get_json()["job"]
        assert wait_final(a, job)["state"] == "done"
        assert a.get(f"/api/animations/{job}.gif").status_code == 200
        away = b.get(f"/api/animations/{job}")
        assert away.status_code == 503 and "Redis" in away.get_json()["error"]

        # Redis is back: counting is shared again.
        server.start()
        time.sleep(0.3)
        fresh_a, fresh_b = same_client(first, second)
        for n in range(4):
            http = fresh_a if n % 2 else fresh_b
            assert post_file(http, maze_text(20 + n), f"f{n}.txt").status_code == 201
        assert post_file(fresh_a, maze_text(30), "f.txt").status_code == 429
    finally:
        server.stop()
