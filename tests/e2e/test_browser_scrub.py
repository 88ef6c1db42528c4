"""Scrubbing lands on the same board whichever way it gets there: forwards, records taken back (undo),
a keyframe, or a replay from the start (static/js/playback/player.js). The board is compared pixel for pixel
(a hash of the canvas), zoomed in (numbers in the cells) and zoomed out (the halved copies)."""

from __future__ import annotations

import random

from tests.e2e.pages import (
    BROWSER_TEST,
    canvas_hash,
    choose_gallery,
    next_frame,
    position,
    run_to_end,
)

pytestmark = BROWSER_TEST

SCRUB = "[data-testid=scrub]"


def show(page, how: str, target: int) -> tuple[int, str]:
    """Move the playhead (scrub to `target`, or one step back/forward onto it); (canvas hash, route)."""
    if how == "scrub":
        page.fill(SCRUB, str(target))
    else:
        page.click(f"[data-testid={how}]")
    next_frame(page)
    next_frame(page)
    assert position(page)[0] == target, (how, target, position(page))
    return canvas_hash(page), page.get_attribute(SCRUB, "data-route")


def check_every_way(page, total: int, positions: list[int]) -> set[str]:
    """Each position's board, reached in several ways, is the same; returns the routes seen."""
    routes: set[str] = set()
    reference: dict[int, int] = {}
    show(page, "scrub", 0)
    for p in positions:  # forwards, in order
        reference[p], route = show(page, "scrub", p)
        routes.add(route)
    # (A record can change nothing visible, e.g. the start cell's path record under its marker.)
    assert len(set(reference.values())) >= len(reference) - 2, "the board does not follow the playhead"
    show(page, "scrub", total)
    for p in reversed(positions):  # backwards from the end
        seen, route = show(page, "scrub", p)
        routes.add(route)
        assert seen == reference[p], f"step {p} reached backwards ({route}) differs"
    shuffled = positions[:]
    random.Random(5).shuffle(shuffled)
    for p in shuffled:  # jumps either way
        seen, route = show(page, "scrub", p)
        routes.add(route)
        assert seen == reference[p], f"step {p} reached by a jump ({route}) differs"
    for p in positions:  # one step back onto it, and one step forward onto it
        if p < total:
            show(page, "scrub", p + 1)
            seen, route = show(page, "step-back", p)
            routes.add(route)
            assert seen == reference[p], f"step {p} reached by a step back ({route}) differs"
        if p > 0:
            show(page, "scrub", p - 1)
            seen, route = show(page, "step", p)
            routes.add(route)
            assert seen == reference[p], f"step {p} reached by a step forward ({route}) differs"
    return routes


def test_scrubbing_lands_on_identical_boards_zoomed_in(page):
    choose_gallery(page, "seed-lee-example")
    total = run_to_end(page, "astar")
    assert int(page.get_attribute(SCRUB, "data-keyframes")) > 0, "no keyframes were kept"
    positions = sorted({1, 2, 31, 32, 33, 100, total // 3, total // 2, total - 40, total - 2, total - 1,
                        total})
    routes = check_every_way(page, total, positions)
    assert {"keyframe", "undo", "forward"} <= routes, routes


def test_scrubbing_lands_on_identical_boards_zoomed_out(page):
    choose_gallery(page, "perfect-large")
    total = run_to_end(page, "bfs")
    for _ in range(2):
        page.click("#zoom-out")  # cells of a third of a pixel: the halved copies are drawn
    next_frame(page)
    assert float(page.get_attribute("[data-testid=canvas]", "data-scale")) < 0.5
    rng = random.Random(11)
    jumps = (rng.randrange(total) for _ in range(5))
    positions = sorted({1, 500, total // 2, total - 100, total - 1, total, *jumps})
    routes = check_every_way(page, total, positions)
    assert {"keyframe", "undo", "forward"} <= routes, routes
