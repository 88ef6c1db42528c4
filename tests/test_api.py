"""The JSON API: uploads, gallery, solving, and bad input that never breaks the server."""

from __future__ import annotations

import io

import pytest
from PIL import Image

from tests.helpers import make_app
from tests.helpers import post_file as upload


@pytest.fixture
def client():
    return make_app(max_upload_bytes=2_000_000, max_pixels=1_000_000).test_client()


def png_bytes(image: Image.Image) -> bytes:
    buffer = io.BytesIO()
    image.save(buffer, "PNG")
    return buffer.getvalue()


def corridor_image(openings_top: tuple[int, ...] = (1,), openings_bottom: tuple[int, ...] = (1,),
                   width: int = 9, height: int = 7) -> Image.Image:
    """A black frame around a white room, with openings in the top and bottom rows."""
    image = Image.new("L", (width, height), 0)
    for y in range(1, height - 1):
        for x in range(1, width - 1):
            image.putpixel((x, y), 255)
    for x in openings_top:
        image.putpixel((x, 0), 255)
    for x in openings_bottom:
        image.putpixel((x, height - 1), 255)
    return image


def assert_still_serving(client) -> None:
    response = upload(client, png_bytes(corridor_image()), "ok.png")
    assert response.status_code == 201
    solved = client.post(f"/api/puzzles/{response.json['id']}/solve", json={"algorithm": "bfs"})
    assert solved.status_code == 200 and solved.json["found"]


def test_upload_and_solve_an_image(client) -> None:
    response = upload(client, png_bytes(corridor_image()), "room.png")
    assert response.status_code == 201
    info = response.json
    assert (info["width"], info["height"], info["family"]) == (9, 7, "grid")
    assert info["starts"] == [[0, 1]] and info["goals"] == [[6, 1]]
    cells = client.get(f"/api/puzzles/{info['id']}/cells")
    assert cells.status_code == 200 and len(cells.data) == 63 and cells.data[0] == 0 and cells.data[1] == 1
    for algorithm in ("bfs", "dfs", "dijkstra", "greedy", "astar", "bidirectional"):
        result = client.post(f"/api/puzzles/{info['id']}/solve", json={"algorithm": algorithm}).json
        assert result["found"] and result["path"][0] == [0, 1] and result["path"][-1] == [6, 1], algorithm
        if result["optimal_guaranteed"]:
            assert result["cost"] == 6
    png = client.get(f"/api/puzzles/{info['id']}/solution.png?algorithm=astar")
    assert png.status_code == 200 and png.data.startswith(b"\x89PNG")


def test_a_text_file_named_png_is_rejected_clearly(client) -> None:
    response = upload(client, b"#####\n#S.G#\n#####\n", "maze.png")
    assert response.status_code == 400
    assert response.json["error"].startswith("maze.png: not an image")
    assert_still_serving(client)


def test_a_truncated_png_is_rejected_clearly(client) -> None:
    data = png_bytes(corridor_image(width=60, height=40))
    response = upload(client, data[: len(data) // 2], "cut.png")
    assert response.status_code == 400
    assert "truncated" in response.json["error"] or "damaged" in response.json["error"]
    assert_still_serving(client)


def test_an_image_without_free_pixels_is_rejected(client) -> None:
    response = upload(client, png_bytes(Image.new("L", (20, 10), 0)), "black.png")
    assert response.status_code == 400 and "free" in response.json["error"]
    assert_still_serving(client)


def test_an_image_whose_goal_cannot_be_reached_reports_no_path(client) -> None:
    image = corridor_image()
    for x in range(9):
        image.putpixel((x, 3), 0)  # a wall across the room
    info = upload(client, png_bytes(image), "split.png").json
    result = client.post(f"/api/puzzles/{info['id']}/solve", json={"algorithm": "bfs"}).json
    assert result["found"] is False and result["cost"] is None and result["path"] == []


def test_two_candidate_starts_need_the_user_to_pick(client) -> None:
    response = upload(client, png_bytes(corridor_image(openings_top=(1, 5))), "two.png")
    assert response.status_code == 201
    info = response.json
    assert info["starts"] == [] and "2 openings" in info["endpoint_problem"]
    refused = client.post(f"/api/puzzles/{info['id']}/solve", json={"algorithm": "bfs"})
    assert refused.status_code == 400 and "pick the start" in refused.json["error"]
    picked = client.post(f"/api/puzzles/{info['id']}/solve", json={"algorithm": "bfs", "start": [0, 5]})
    assert picked.status_code == 200 and picked.json["path"][0] == [0, 5] and picked.json["cost"] == 10
    assert_still_serving(client)


def test_limits_are_reported(client) -> None:
    big = upload(client, png_bytes(Image.new("L", (2000, 1000), 255)), "huge.png")
    assert big.status_code == 400 and "1,000,000" in big.json["error"]
    too_large = upload(client, b"x" * 3_000_000, "big.txt")
    assert too_large.status_code == 413 and "limit" in too_large.json["error"]
    assert_still_serving(client)


def test_bad_requests_name_the_problem(client) -> None:
    info = upload(client, png_bytes(corridor_image()), "room.png").json
    pid = info["id"]
    cases = [
        ({"algorithm": "teleport"}, "unknown algorithm"),
        ({"algorithm": "astar", "heuristic": "vibes"}, "heuristic"),
        ({"algorithm": "astar", "weight": 0}, "weight"),
        ({"algorithm": "bfs", "start": [100, 100]}, "outside"),
        ({"algorithm": "bfs", "goal": [0, 0]}, "wall"),
        ({"algorithm": "bfs", "colour": "red"}, "unknown option"),
    ]
    for body, words in cases:
        response = client.post(f"/api/puzzles/{pid}/solve", json=body)
        assert response.status_code == 400 and words in response.json["error"], body
    assert client.get("/api/puzzles/doesnotexist").status_code == 404
    assert client.post("/api/puzzles", data={}).status_code == 400


def test_text_maze_with_weights(client) -> None:
    plain = upload(client, b"#######\n#S...G#\n#######\n", "plain.txt").json
    assert plain["weighted"] is False
    weighted = upload(client, b"#######\n#S9..G#\n#.....#\n#######\n", "w2.txt").json
    assert weighted["weighted"] is True
    bfs = client.post(f"/api/puzzles/{weighted['id']}/solve", json={"algorithm": "bfs"}).json
    dijkstra = client.post(f"/api/puzzles/{weighted['id']}/solve", json={"algorithm": "dijkstra"}).json
    assert bfs["optimal_guaranteed"] is False and dijkstra["optimal_guaranteed"] is True
    assert dijkstra["cost"] == 6 and bfs["cost"] == 12  # straight through the 9, or around it


def test_gallery_lists_and_opens_bundled_mazes(client) -> None:
    entries = client.get("/api/gallery").json
    assert len(entries) >= 4
    for entry in entries:
        response = client.post("/api/puzzles", json={"gallery": entry["name"]})
        assert response.status_code == 201, entry
        info = response.json
        assert (info["width"], info["height"]) == (entry["width"], entry["height"]), entry
        result = client.post(f"/api/puzzles/{info['id']}/solve", json={"algorithm": "astar"}).json
        assert result["found"], entry
    assert client.post("/api/puzzles", json={"gallery": "nope"}).status_code == 404


def test_page_and_algorithms(client) -> None:
    page = client.get("/")
    assert page.status_code == 200 and b'id="board"' in page.data  # the views put their canvas there
    algorithms = client.get("/api/algorithms").json
    grid = [a["name"] for a in algorithms if "grid" in a["families"]]
    assert grid == ["bfs", "dfs", "dijkstra", "greedy", "astar", "bidirectional", "jps", "wall_left",
                    "wall_right"]
    labyrinth = [a["name"] for a in algorithms if "labyrinth" in a["families"]]
    assert "seed-greedy" in labyrinth and "idastar" in labyrinth and "bidirectional" not in labyrinth


def test_a_non_optimal_answer_is_compared_with_the_optimum(client) -> None:
    info = client.post("/api/puzzles", json={"gallery": "weighted-swamp"}).json
    bfs = client.post(f"/api/puzzles/{info['id']}/solve", json={"algorithm": "bfs"}).json
    assert bfs["optimal_guaranteed"] is False and bfs["cost"] > bfs["optimum"]  # BFS ignores the weights
    dijkstra = client.post(f"/api/puzzles/{info['id']}/solve", json={"algorithm": "dijkstra"}).json
    assert dijkstra["optimal_guaranteed"] and "optimum" not in dijkstra
    assert bfs["optimum"] == dijkstra["cost"]
