"""The server answers in its reader's language (issue 32): errors, refusals, labels and verdicts are
German for a German reader (Accept-Language, the ``lang`` cookie, ``?lang=``, a socket message's
``lang``), and English, as before, for a reader who names no language."""

from __future__ import annotations

import io

import pytest

from server import socketio
from server.i18n import t_in, using
from tests.assignment_helpers import maze3_id
from tests.helpers import live_app, make_app, open_maze, post_file

GERMAN = {"Accept-Language": "de-DE,de;q=0.9,en;q=0.5"}
NOT_A_PUZZLE = b"\x00\x01\x02 this is no puzzle of any family \xff"


def german_client(app, how: str):
    """A test client that asks for German ``how``: by header, cookie or query (``?lang=de``)."""
    client = app.test_client()
    if how == "cookie":
        client.set_cookie("lang", "de")
    client.get("/", headers=GERMAN if how == "header" else {})
    return client


def ask(client, how: str, method: str, url: str, **kwargs):
    headers = GERMAN if how == "header" else {}
    if how == "query":
        url += ("&" if "?" in url else "?") + "lang=de"
    return getattr(client, method)(url, headers=headers, **kwargs)


@pytest.fixture
def app():
    return make_app()


@pytest.mark.parametrize("how", ["header", "cookie", "query"])
def test_a_bad_upload_is_refused_in_german(app, how: str) -> None:
    client = german_client(app, how)
    form = {"file": (io.BytesIO(NOT_A_PUZZLE), "x.bin")}
    answer = ask(client, how, "post", "/api/puzzles", data=form, content_type="multipart/form-data")
    assert answer.status_code == 400
    error = answer.get_json()["error"]
    assert "keine Puzzle-Familie liest diese Datei" in error, error
    english = post_file(app.test_client(), NOT_A_PUZZLE, "x.bin").get_json()["error"]
    assert "no puzzle family reads this file" in english


@pytest.mark.parametrize("how", ["header", "cookie", "query"])
def test_algorithms_and_families_are_labelled_in_german(app, how: str) -> None:
    client = german_client(app, how)
    algorithms = {a["name"]: a for a in ask(client, how, "get", "/api/algorithms").get_json()}
    assert algorithms["bfs"]["label"] == "BFS (Breitensuche, Lee)"
    assert algorithms["dfs"]["label"] == "DFS (Tiefensuche)"
    assert algorithms["dijkstra"]["label"] == "Dijkstra (uniforme Kostensuche)"
    assert "Nicht optimal" in algorithms["dfs"]["summary"]
    families = ask(client, how, "get", "/api/families").get_json()
    options = [o for f in families for o in f["options"]]
    assert any(o["label"] == "Heuristik" for o in options)
    assert any(o["label"] == "Gewicht" for o in options)
    english = {a["name"]: a for a in app.test_client().get("/api/algorithms").get_json()}
    assert english["bfs"]["label"] == "Breadth-first (Lee's wavefront)"
    assert english["dfs"]["summary"] == "Follows one corridor as deep as it goes, then backs up. Not optimal."


def test_the_gallery_falls_back_to_its_own_text(app) -> None:
    entries = german_client(app, "cookie").get("/api/gallery").get_json()
    assert entries and all(e["title"] for e in entries)
    with using("de"):
        for entry in entries:
            key = f"gallery.{entry['name']}.title"
            if t_in("de", key) != key:
                assert entry["title"] == t_in("de", key)


def test_a_rate_limit_is_refused_in_german() -> None:
    app = make_app(uploads_per_minute=1)
    client = german_client(app, "header")
    maze = b"#####\n#S.G#\n#####\n"
    first = client.post("/api/puzzles", headers=GERMAN, data={"file": (io.BytesIO(maze), "m.txt")})
    assert first.status_code == 201, first.get_json()
    refused = client.post("/api/puzzles", headers=GERMAN, data={"file": (io.BytesIO(maze), "m.txt")})
    assert refused.status_code == 429
    error = refused.get_json()["error"]
    assert "zu viele Uploads: höchstens 1 pro Minute für diesen Client" in error, error
    english = app.test_client()
    english.get("/")
    english.post("/api/puzzles", data={"file": (io.BytesIO(maze), "m.txt")})
    again = english.post("/api/puzzles", data={"file": (io.BytesIO(maze), "m.txt")})
    assert "too many uploads: at most 1 a minute for this client" in again.get_json()["error"]


def test_a_too_large_upload_is_refused_in_german() -> None:
    app = make_app(max_upload_bytes=1024 * 1024)
    client = german_client(app, "cookie")
    big = {"file": (io.BytesIO(b"#" * (2 * 1024 * 1024)), "big.txt")}
    refused = client.post("/api/puzzles", data=big, content_type="multipart/form-data")
    assert refused.status_code == 413
    assert refused.get_json()["error"] == "der Upload ist größer als die Grenze von 1 MB"
    english = app.test_client().post("/api/puzzles", data={"file": (io.BytesIO(b"#" * (2 << 20)), "b.txt")},
                                     content_type="multipart/form-data")
    assert english.get_json()["error"] == "the upload is larger than the limit of 1 MB"


def test_http_errors_speak_german(app) -> None:
    missing = app.test_client().get("/api/no-such-thing?lang=de")
    assert missing.status_code == 404
    assert missing.get_json()["error"].startswith("Die angefragte URL wurde auf dem Server nicht gefunden")
    wrong = app.test_client().delete("/api/algorithms", headers=GERMAN)
    assert wrong.status_code == 405
    assert wrong.get_json()["error"] == "Die Methode ist für die angefragte URL nicht erlaubt."
    english = app.test_client().get("/api/no-such-thing")
    assert english.get_json()["error"].startswith("The requested URL was not found on the server")


def test_a_socket_run_start_with_a_bad_field_is_answered_in_german() -> None:
    app = live_app({"small": open_maze(6, 9)})
    client = socketio.test_client(app)
    german = client.emit("run_start", {"lang": "de", "run": "r1", "puzzle": "small", "algorithm": ""},
                         callback=True)
    assert german == {"ok": False, "error": "Feld 'algorithm': es fehlt der Name des Algorithmus "
                                            "(ein nicht leerer Text; erhalten: str)"}
    unknown = client.emit("run_start", {"lang": "de", "run": "r2", "puzzle": "nope", "algorithm": "bfs"},
                          callback=True)
    assert unknown["error"].startswith("Feld 'puzzle': unbekannte Puzzle-ID")
    english = client.emit("run_start", {"run": "r3", "puzzle": "small", "algorithm": ""}, callback=True)
    assert english["error"] == "field 'algorithm': missing algorithm name (a non-empty string; got str)"
    client.disconnect()


def test_a_dfs_result_on_maze3_says_in_german_that_it_is_not_optimal(tmp_path) -> None:
    app = make_app()
    pid = maze3_id(app)
    german = app.test_client().post(f"/api/puzzles/{pid}/solve?lang=de", json={"algorithm": "dfs"})
    result = german.get_json()
    assert result["found"] and result["optimum"] == 52 and result["cost"] > 52
    assert result["optimality"] == "nicht optimal: das Optimum ist 52"
    english = app.test_client().post(f"/api/puzzles/{pid}/solve", json={"algorithm": "dfs"}).get_json()
    assert english["optimality"] == "not optimal: the optimum is 52"


def test_without_a_language_the_english_wording_is_unchanged(app) -> None:
    client = app.test_client()
    answer = post_file(client, b"", "empty.txt")
    assert answer.get_json()["error"] == "empty.txt: the file is empty"
    german = post_file(german_client(app, "cookie"), b"", "empty.txt")
    assert german.get_json()["error"] == "empty.txt: die Datei ist leer"


def test_the_language_ends_with_its_request_and_its_socket_event(app) -> None:
    from server.i18n import language

    german_client(app, "header").get("/api/algorithms", headers=GERMAN)
    assert language() == "en"  # the thread writes English again outside the request
    client = socketio.test_client(live_app({"small": open_maze(3, 3)}))
    client.emit("run_start", {"lang": "de", "run": "r", "puzzle": "nope", "algorithm": "bfs"}, callback=True)
    assert language() == "en"
    client.disconnect()
