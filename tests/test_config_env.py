"""Settings from the environment (``MAZE_<FIELD>``): how a deployment raises a limit for a class."""

from __future__ import annotations

from pathlib import Path

import pytest

from server.config import Config

pytest_plugins = ["tests.redis_server"]


def test_fields_are_read_by_their_type():
    config = Config.from_env({
        "MAZE_MAX_CONCURRENT_RUNS": "8", "MAZE_CLIENTS_PER_IP": "1_000", "MAZE_MAX_SECONDS": "30.5",
        "MAZE_MAZES_DIR": "/srv/mazes", "MAZE_SOCKET_ORIGINS": "https://a.example, https://b.example",
        "MAZE_E2E_URL": "http://127.0.0.1:1", "PATH": "/usr/bin",
    })
    assert config.max_concurrent_runs == 8
    assert config.clients_per_ip == 1000
    assert config.max_seconds == 30.5
    assert config.mazes_dir == Path("/srv/mazes")
    assert config.socket_origins == ["https://a.example", "https://b.example"]


def test_the_cli_wins_over_the_environment():
    assert Config.from_env({"MAZE_MAX_PIXELS": "10"}, max_pixels=20).max_pixels == 20
    assert Config.from_env({"MAZE_MAX_PIXELS": "10"}, max_pixels=None).max_pixels == 10


@pytest.mark.parametrize(("env", "words"), [
    ({"MAZE_MAX_RUNS": "8"}, "MAZE_MAX_RUNS is not a setting"),
    ({"MAZE_MAX_SECONDS": "soon"}, "MAZE_MAX_SECONDS='soon' is not a valid float"),
    ({"MAZE_MAX_CONCURRENT_RUNS": "4.5"}, "is not a valid int"),
    ({"MAZE_TESTING": "1"}, "MAZE_TESTING is not a setting"),
])
def test_a_wrong_name_or_value_is_named(env, words):
    with pytest.raises(ValueError, match=words):
        Config.from_env(env)


def test_behind_a_trusted_proxy_the_browsers_address_is_the_clients(tmp_path):
    from server.app import create_app

    def address(trusted: int) -> str:
        app = create_app(Config(testing=True, serializer="default", trusted_proxies=trusted))

        @app.get("/whoami")
        def whoami():
            from flask import request

            return request.remote_addr or ""

        client = app.test_client()
        return client.get("/whoami", headers={"X-Forwarded-For": "203.0.113.7"},
                          environ_base={"REMOTE_ADDR": "127.0.0.1"}).get_data(as_text=True)

    assert address(0) == "127.0.0.1"  # no proxy: a forged header changes nothing
    assert address(1) == "203.0.113.7"


def test_processes_on_one_redis_share_one_session_secret(redis_url):
    from server.redis_link import connect, shared_secret

    first, second = connect(redis_url), connect(redis_url)
    assert shared_secret(first, "a" * 64) == "a" * 64
    assert shared_secret(second, "b" * 64) == "a" * 64
