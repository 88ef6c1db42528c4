"""The puzzle archive behind the in-memory store (server/archive.py, server/store.py): uploads,
generated and edited puzzles outlive the server process, on disk or in a Redis several servers share;
the caps in bytes and age; damaged entries read as missing; Redis going away never fails a request."""

from __future__ import annotations

import os
import threading
import time
from pathlib import Path

import pytest

from server.archive import PREFIX, SIZES, TOTAL, USED, DiskArchive, RedisArchive, Source
from server.services import services
from tests.helpers import make_app, post_file, upload

pytest_plugins = ["tests.redis_server"]

DAY = 86400.0


def text_maze(n: int) -> bytes:
    """A small text grid, different for each ``n``."""
    return f"#####\n#S.G#\n#...#\n#####\n{'#' * (n + 1)}\n".encode()


def source(n: int, size: int = 0) -> Source:
    return Source(text_maze(n) + b"\n" * size, "grid", f"m{n}.txt", {})


@pytest.fixture(autouse=True)
def no_message_queue_after():
    """An app made with ``redis_url`` leaves Flask-SocketIO's one ``socketio`` object a Redis client
    manager, which the later modules' socket test clients refuse: drop it after each test."""
    from server.app import socketio

    yield
    socketio.server_options.pop("client_manager", None)
    socketio.server_options.pop("message_queue", None)


@pytest.fixture
def maze3(shared_cases: Path) -> bytes:
    return (shared_cases / "images" / "lee" / "maze3.png").read_bytes()


def same_puzzle(first, second, pid: str) -> None:
    """Both apps answer ``pid`` with the same info and the same cells."""
    a, b = first.test_client(), second.test_client()
    info_a, info_b = a.get(f"/api/puzzles/{pid}"), b.get(f"/api/puzzles/{pid}")
    assert info_a.status_code == 200 and info_b.status_code == 200, info_b.get_json()
    assert info_a.get_json() == info_b.get_json()
    assert a.get(f"/api/puzzles/{pid}/cells").data == b.get(f"/api/puzzles/{pid}/cells").data


# ---- on disk --------------------------------------------------------------------------------------
def test_an_upload_outlives_the_server(tmp_path: Path, maze3: bytes) -> None:
    first = make_app(store_dir=tmp_path)
    info = upload(first, maze3, "maze3.png")
    assert list(tmp_path.glob(f"*/{info['id']}"))  # on disk, under its id
    second = make_app(store_dir=tmp_path)  # a restart: nothing in memory
    assert len(services(second).store) == 0
    same_puzzle(first, second, info["id"])
    assert second.test_client().get(f"/api/puzzles/{info['id']}").get_json()["name"] == "maze3"
    assert len(services(second).store) == 1  # parsed once, then kept in memory
    again = upload(second, maze3, "maze3.png")
    assert again["id"] == info["id"]


def test_an_upload_with_load_options_reads_back_the_same(tmp_path: Path) -> None:
    from server.puzzles.registry import get_family

    step = get_family("step")
    kind = step.maker.generators[0]
    made = step.maker.generate(kind.name, kind.check({"rows": 6, "cols": 6, "seed": 2}))
    data = step.saver.save(made.puzzle, "txt")
    first = make_app(store_dir=tmp_path)
    answer = post_file(first.test_client(), data, "steps.txt", family="step", cycle="1,2")
    assert answer.status_code == 201, answer.get_json()
    plain = upload(first, data, "steps.txt", family="step")
    assert plain["id"] != answer.get_json()["id"]  # the load options are part of the id
    second = make_app(store_dir=tmp_path)
    same_puzzle(first, second, answer.get_json()["id"])
    assert second.test_client().get(f"/api/puzzles/{answer.get_json()['id']}").get_json()["cycle"] == [1, 2]


def test_generated_and_edited_puzzles_outlive_the_server(tmp_path: Path) -> None:
    first = make_app(store_dir=tmp_path)
    client = first.test_client()
    made = client.post("/api/generate", json={"kind": "perfect", "rows": 6, "cols": 7, "seed": 4})
    assert made.status_code == 201, made.get_json()
    pid = made.get_json()["id"]
    paint = {"op": "paint", "cells": [0], "value": 1}  # open the top-left corner
    edited = client.post(f"/api/puzzles/{pid}/edit", json={"edits": [paint]})
    assert edited.status_code == 201, edited.get_json()
    second = make_app(store_dir=tmp_path)
    for key, name in ((pid, made.get_json()["name"]), (edited.get_json()["id"], edited.get_json()["name"])):
        back = second.test_client().get(f"/api/puzzles/{key}")
        assert back.status_code == 200 and back.get_json()["name"] == name
        cells = f"/api/puzzles/{key}/cells"
        assert second.test_client().get(cells).data == client.get(cells).data


def test_the_per_client_cap_drops_from_memory_only(tmp_path: Path) -> None:
    app = make_app(store_dir=tmp_path, max_puzzles_per_client=2)
    http = app.test_client()
    http.get("/")  # the page gives the browser its client id: a request without one is its address's
    ids = []
    for n in range(3):
        answer = post_file(http, text_maze(n), f"m{n}.txt")
        assert answer.status_code == 201
        ids.append(answer.get_json()["id"])
    assert len(services(app).store) == 2  # the oldest left memory…
    assert http.get(f"/api/puzzles/{ids[0]}").status_code == 200  # …but its share link still works


def test_a_gallery_puzzle_is_archived_so_another_process_finds_its_id(tmp_path: Path) -> None:
    # With several processes the page's socket may be on another process than its HTTP request.
    first, second = make_app(store_dir=tmp_path), make_app(store_dir=tmp_path)
    answer = first.test_client().post("/api/puzzles", json={"gallery": "seed-lee-example"})
    assert answer.status_code == 201, answer.get_json()
    pid = answer.get_json()["id"]
    assert [p for p in tmp_path.rglob("*") if p.is_file()]
    assert second.test_client().get(f"/api/puzzles/{pid}").status_code == 200


def _aged(archive: DiskArchive, key: str, seconds_ago: float) -> None:
    stamp = time.time() - seconds_ago
    os.utime(archive.path(key), (stamp, stamp))


def test_the_byte_cap_drops_the_least_recently_used(tmp_path: Path) -> None:
    items = [source(n, 3000) for n in range(4)]
    archive = DiskArchive(tmp_path, max_bytes=10_000, max_age=30 * DAY)
    for age, item in zip((300, 200, 100), items, strict=False):
        archive.put(item.id, item)
        _aged(archive, item.id, age)
    assert archive.get(items[0].id) is not None  # read: the first is now the most recently used
    archive.put(items[3].id, items[3])  # 4 x ~3 KB > 10 KB
    kept = [archive.get(item.id) is not None for item in items]
    assert kept == [True, False, True, True]
    assert sum(p.stat().st_size for p in tmp_path.rglob("*") if p.is_file()) <= 10_000


def test_a_file_past_the_cap_on_its_own_is_not_archived(tmp_path: Path) -> None:
    archive = DiskArchive(tmp_path, max_bytes=1000, max_age=DAY)
    big = source(1, 5000)
    archive.put(big.id, big)
    assert archive.get(big.id) is None


def test_the_age_cap_drops_old_puzzles(tmp_path: Path) -> None:
    archive = DiskArchive(tmp_path, max_bytes=10**6, max_age=DAY)
    old, older, fresh = source(1), source(2), source(3)
    for item in (old, older, fresh):
        archive.put(item.id, item)
    _aged(archive, old.id, 2 * DAY)
    _aged(archive, older.id, 3 * DAY)
    assert archive.get(old.id) is None and not archive.path(old.id).exists()  # a read of an expired one
    DiskArchive(tmp_path, max_bytes=10**6, max_age=DAY)  # a start sweeps the folder
    assert not archive.path(older.id).exists()
    assert archive.get(fresh.id) == fresh


def test_a_damaged_file_is_a_miss_and_removed(tmp_path: Path, maze3: bytes) -> None:
    first = make_app(store_dir=tmp_path)
    pid = upload(first, maze3, "maze3.png")["id"]
    [path] = tmp_path.glob(f"*/{pid}")
    whole = path.read_bytes()
    for damage in (whole[: len(whole) // 2], whole[:-1] + bytes([whole[-1] ^ 1]), b"", b"garbage\n{}\n"):
        path.write_bytes(damage)
        answer = make_app(store_dir=tmp_path).test_client().get(f"/api/puzzles/{pid}")
        assert answer.status_code == 404, damage[:20]
        assert not path.exists()
    assert first.test_client().get(f"/api/puzzles/{pid}").status_code == 200  # still in the first's memory


def test_ids_that_are_not_puzzle_ids_never_reach_the_disk(tmp_path: Path) -> None:
    app = make_app(store_dir=tmp_path)
    for pid in ("..", "%2e%2e%2fetc", "0" * 64, "ABCDEF0123456789ABCD"):
        assert app.test_client().get(f"/api/puzzles/{pid}").status_code == 404


def test_concurrent_puts_of_the_same_puzzle_are_safe(tmp_path: Path) -> None:
    archive = DiskArchive(tmp_path, max_bytes=10**7, max_age=DAY)
    item = source(7, 200_000)
    errors: list[BaseException] = []
    start = threading.Barrier(8)

    def put(n: int) -> None:
        try:
            start.wait()
            for _ in range(5):
                archive.put(item.id, item)
                if n % 3 == 0:  # now and then the file goes (a sweep) while others write it
                    archive.drop(item.id)
                got = archive.get(item.id)
                assert got is None or got == item
        except BaseException as err:  # reported below
            errors.append(err)

    threads = [threading.Thread(target=put, args=(n,)) for n in range(8)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert not errors
    archive.put(item.id, item)
    assert archive.get(item.id) == item
    assert [p.name for p in tmp_path.rglob("*") if p.is_file()] == [item.id]  # no temporary files left


# ---- in Redis -------------------------------------------------------------------------------------
def test_two_servers_on_one_redis_share_an_upload(redis_url: str, tmp_path: Path, maze3: bytes) -> None:
    first = make_app(redis_url=redis_url)
    second = make_app(redis_url=redis_url, store_dir=tmp_path)  # Redis wins over a folder
    info = upload(first, maze3, "maze3.png")
    same_puzzle(first, second, info["id"])
    assert not list(tmp_path.iterdir())
    client = services(first).store.archive.client
    assert 0 < client.ttl(PREFIX + info["id"]) <= 30 * DAY
    assert int(client.get(TOTAL)) == int(client.hget(SIZES, info["id"])) > len(maze3)


def test_redis_ttl_is_refreshed_on_read(redis_url: str) -> None:
    app = make_app(redis_url=redis_url, store_max_age_days=1)
    pid = upload(app, text_maze(1), "m1.txt")["id"]
    client = services(app).store.archive.client
    assert 0 < client.ttl(PREFIX + pid) <= DAY
    client.expire(PREFIX + pid, 60)
    assert make_app(redis_url=redis_url).test_client().get(f"/api/puzzles/{pid}").status_code == 200
    assert client.ttl(PREFIX + pid) > DAY - 60


def test_redis_memory_cap_drops_the_least_recently_used(redis_url: str) -> None:
    import redis

    client = redis.Redis.from_url(redis_url)
    archive = RedisArchive(client, max_bytes=10_000, max_age=DAY)
    items = [source(n, 3000) for n in range(4)]
    for item in items[:3]:
        archive.put(item.id, item)
        time.sleep(0.01)
    assert archive.get(items[0].id) == items[0]  # used: now the newest
    archive.put(items[3].id, items[3])
    kept = [archive.get(item.id) is not None for item in items]
    assert kept == [True, False, True, True]
    assert int(client.get(TOTAL)) <= 10_000
    assert client.zcard(USED) == 3 and not client.exists(PREFIX + items[1].id)


def test_an_expired_or_damaged_redis_entry_is_a_miss(redis_url: str) -> None:
    import redis

    client = redis.Redis.from_url(redis_url)
    archive = RedisArchive(client, max_bytes=10**6, max_age=DAY)
    gone, damaged = source(1), source(2)
    for item in (gone, damaged):
        archive.put(item.id, item)
    client.delete(PREFIX + gone.id)  # as if expired or evicted
    assert archive.get(gone.id) is None and client.zscore(USED, gone.id) is None
    client.hset(PREFIX + damaged.id, "meta", b"{not json")
    assert archive.get(damaged.id) is None and not client.exists(PREFIX + damaged.id)
    assert int(client.get(TOTAL)) == 0


def test_redis_going_away_never_fails_a_request(tmp_path: Path, redis_server, maze3: bytes) -> None:
    from tests.redis_server import RedisServer

    private = RedisServer(tmp_path)  # the session's server stays up for the other tests
    private.start()
    try:
        app = make_app(redis_url=private.url)
        http = app.test_client()
        before = upload(app, text_maze(1), "m1.txt")["id"]
        private.stop()
        answer = post_file(http, maze3, "maze3.png")
        assert answer.status_code == 201, answer.get_json()  # kept in memory only
        pid = answer.get_json()["id"]
        assert http.get(f"/api/puzzles/{pid}").status_code == 200
        assert http.get(f"/api/puzzles/{before}").status_code == 200
        assert http.get(f"/api/puzzles/{'0' * 20}").status_code == 404  # a miss, not a 500
        made = http.post("/api/generate", json={"kind": "perfect", "rows": 5, "cols": 5, "seed": 1})
        assert made.status_code == 201
    finally:
        private.stop()
