"""Explain mode (static/js/explain/): the algorithm's code beside the board with the line the step at the
playhead executed, the state being expanded and the frontier's next states, rebuilt from the trace.
What it lists as next to expand is what the page then expands; it follows the playhead both ways."""

from __future__ import annotations

import itertools

import pytest

from tests.e2e.pages import ARTIFACTS, BROWSER_TEST, choose_gallery, next_frame, position, run_to_end

pytestmark = BROWSER_TEST

PANEL = "[data-testid=explain-panel]"


def panel(page) -> dict:
    """What the panel shows: its data (line, kind, current, next) and every word of it."""
    return page.evaluate(
        """sel => {
          const p = document.querySelector(sel);
          return { ...p.dataset, text: p.innerText, now: p.querySelector('.line.now')?.dataset.key || '' };
        }""",
        PANEL,
    )


def scrub(page, to: int) -> None:
    page.fill("[data-testid=scrub]", str(to))
    next_frame(page)
    next_frame(page)
    assert position(page)[0] == to


def step(page, testid: str = "step") -> dict:
    page.click(f"[data-testid={testid}]")
    next_frame(page)
    return panel(page)


WALK = """async ([from, to]) => {
  const scrub = document.querySelector('[data-testid=scrub]');
  const panel = document.querySelector('[data-testid=explain-panel]');
  const frame = () => new Promise((r) => requestAnimationFrame(r));
  const RIGHT = { key: 'ArrowRight', bubbles: true };
  const out = [];
  scrub.value = String(from);
  scrub.dispatchEvent(new Event('input', { bubbles: true }));
  await frame();
  await frame();
  for (let p = from; p <= to; p++) {
    // → steps at once (the player seeks and the panel follows in the key's handler).
    if (p > from) document.body.dispatchEvent(new KeyboardEvent('keydown', RIGHT));
    out.push({ ...panel.dataset, stale: panel.querySelectorAll('tr.stale').length,
               now: panel.querySelector('.line.now')?.dataset.key || '',
               said: panel.querySelector('[data-testid=explain-now]').textContent });
  }
  return out;
}"""


def check_next_is_expanded(page, start: int, steps: int) -> tuple[int, set[str], set[str]]:
    """Walk the playhead forward from `start`, one record at a time: at every expansion the state
    expanded is the first one the panel listed the step before. Returns (expansions checked, lines
    highlighted at expansions, lines highlighted at generations)."""
    shown = page.evaluate(WALK, [start, start + steps])
    checked = 0
    expand_lines: set[str] = set()
    generate_lines: set[str] = set()
    for before, after in itertools.pairwise(shown):
        assert int(after["position"]) == int(before["position"]) + 1
        assert after["line"] == after["now"], "the highlighted line is not the step's"
        if after["kind"] == "close":
            listed = before["next"].split(",") if before["next"] else []
            assert listed, f"nothing listed before the expansion at step {after['position']}"
            assert after["current"] == listed[0], (
                f"step {after['position']}: expanded {after['current']}, the panel listed {listed} first"
            )
            checked += 1
            expand_lines.add(after["line"])
        elif after["kind"] in ("open", "update"):
            generate_lines.add(after["line"])
    return checked, expand_lines, generate_lines


def test_astar_next_to_expand_is_what_the_page_expands_and_the_panel_follows_both_ways(page):
    choose_gallery(page, "seed-lee-example")
    total = run_to_end(page, "astar")
    page.click("[data-testid=explain]")
    assert page.get_attribute("[data-testid=explain]", "aria-pressed") == "true"
    assert page.locator(PANEL).is_visible()
    code = page.text_content("[data-testid=explain-code]")
    for name in ("frontier", "came_from", "cost_so_far", "heappop", "closed", "stale"):
        assert name in code, name

    checked = 0
    expand_lines: set[str] = set()
    generate_lines: set[str] = set()
    for start, steps in ((0, 40), (total // 2, 40), (total - 60, 50)):
        n, expand, generate = check_next_is_expanded(page, start, steps)
        checked += n
        expand_lines |= expand
        generate_lines |= generate
    assert checked >= 20, checked
    # An expansion and a generation highlight different lines of the code.
    assert expand_lines and generate_lines, (expand_lines, generate_lines)
    assert not (expand_lines & generate_lines), (expand_lines, generate_lines)

    # Stepping back restores the earlier panel, word for word; so does a jump back.
    scrub(page, total // 3)
    earlier = panel(page)
    assert "Next to expand" in earlier["text"] and earlier["next"]
    for _ in range(5):
        step(page)
    assert panel(page)["text"] != earlier["text"]
    for _ in range(5):
        back = step(page, "step-back")
    assert back == earlier
    scrub(page, total)
    scrub(page, total // 3)
    assert panel(page) == earlier

    # At the end: the path traced back, the search over.
    scrub(page, total)
    end = panel(page)
    assert end["line"] == "path" and "The search is over" in end["text"]


@pytest.mark.parametrize(
    ("puzzle", "algorithm"),
    [("seed-lee-example", "bfs"), ("seed-lee-example", "dfs"), ("weighted-swamp", "dijkstra"),
     ("weighted-swamp", "astar"), ("rooms", "greedy")],
)
def test_the_next_to_expand_matches_for_each_algorithm(page, puzzle, algorithm):
    """Every expansion of the whole run is the state listed first just before it."""
    choose_gallery(page, puzzle)
    total = run_to_end(page, algorithm)
    page.keyboard.press("e")  # the key toggles explain mode too
    assert page.locator(PANEL).is_visible()
    checked, expand_lines, generate_lines = check_next_is_expanded(page, 0, total)
    assert checked >= 20, checked
    assert not (expand_lines & generate_lines)
    code = page.text_content("[data-testid=explain-code]")
    expected = {"bfs": "popleft", "dfs": "frontier.pop()"}.get(algorithm, "heappop")
    assert expected in code


@pytest.mark.parametrize("algorithm", ["dijkstra", "astar"])
def test_a_cheaper_path_leaves_a_stale_heap_entry_that_is_skipped(page, algorithm):
    """With diagonal moves (cost √2) the search finds cheaper ways to states on the frontier: the old
    heap entries are listed as stale (lazy deletion), an expansion that popped them first says so, and
    the order stays exact (g summed in float64 as the server does, not the trace's float32)."""
    choose_gallery(page, "rooms")
    page.check("[data-testid=option-diagonal]")
    total = run_to_end(page, algorithm)
    page.click("[data-testid=explain]")
    checked, _, _ = check_next_is_expanded(page, 0, total)
    assert checked >= 50
    shown = page.evaluate(WALK, [0, total])
    updates = [s for s in shown if s["kind"] == "update"]
    assert updates, "the run has no cheaper paths to show"
    assert all(s["stale"] > 0 or s["line"] == "push" for s in updates)
    assert any(s["stale"] > 0 for s in shown), "no stale entry was ever listed"
    assert all("cheaper way" in s["said"] and "stale" in s["said"] for s in updates)
    skips = [s for s in shown if s["kind"] == "close" and int(s["skipped"]) > 0]
    assert skips, "no expansion popped a stale entry first"
    assert all("stale" in s["said"] and "skipped" in s["said"] for s in skips)


def test_iterative_deepening_shows_its_code_and_the_state_it_stands_on(page):
    choose_gallery(page, "step-seed-003")
    run_to_end(page, "idastar")
    page.click("[data-testid=explain]")
    scrub(page, 40)
    shown = panel(page)
    assert shown["line"] in {"open", "close", "open-start"}
    assert "stands on" in shown["text"] and "no frontier" in shown["text"]
    assert "phase" in shown["text"]  # the step view names its states (cell, phase)


def test_a_step_maze_astar_lists_its_next_states_with_h(page):
    choose_gallery(page, "step-seed-003")
    total = run_to_end(page, "astar")
    page.click("[data-testid=explain]")
    checked, _, _ = check_next_is_expanded(page, 0, min(total, 60))
    assert checked >= 5
    scrub(page, 20)
    assert "h" in page.locator("[data-testid=explain-next] th").all_text_contents()


def test_bidirectional_shows_its_code_and_the_state_expanded(page):
    choose_gallery(page, "seed-lee-example")
    total = run_to_end(page, "bidirectional")
    page.click("[data-testid=explain]")
    scrub(page, total // 2)
    shown = panel(page)
    assert shown["line"] in {"pop", "push"} and "Being expanded" in shown["text"]
    assert "backward.chain" in page.text_content("[data-testid=explain-code]")


def test_explain_beside_the_board_in_large_text_and_presentation(browser, server_url, console):
    """The panel is readable at 1366 × 768 and 1920 × 1080, with large text and in presentation mode."""
    ARTIFACTS.mkdir(exist_ok=True)
    for width, height in ((1366, 768), (1920, 1080)):
        context = browser.new_context(viewport={"width": width, "height": height}, bypass_csp=True)
        tab = context.new_page()
        tab.set_default_timeout(120_000)
        tab.on("pageerror", lambda e: console.errors.append(f"pageerror: {e}"))
        tab.goto(server_url)
        tab.wait_for_function("document.querySelector('[data-testid=status]').textContent === 'ready'")
        choose_gallery(tab, "seed-lee-example")
        run_to_end(tab, "astar")
        tab.click("[data-testid=explain]")
        scrub(tab, 61)
        tab.screenshot(path=str(ARTIFACTS / f"explain-astar-{width}.png"))
        board = tab.locator("[data-testid=canvas]").bounding_box()
        box = tab.locator(PANEL).bounding_box()
        assert box["x"] >= board["x"] + board["width"] - 1, "the panel overlaps the board"
        assert board["width"] > 250 and box["width"] > 280
        tab.click("[data-testid=large-text]")
        tab.click("[data-testid=present]")
        next_frame(tab)
        next_frame(tab)
        board = tab.locator("[data-testid=canvas]").bounding_box()
        box = tab.locator(PANEL).bounding_box()
        assert tab.locator(PANEL).is_visible() and board["width"] > 300
        assert box["x"] >= board["x"] + board["width"] - 1
        # The highlighted line is in sight within the code box.
        line = tab.locator("[data-testid=explain-code] .line.now").bounding_box()
        code = tab.locator("[data-testid=explain-code]").bounding_box()
        assert code["y"] - 1 <= line["y"] and line["y"] + line["height"] <= code["y"] + code["height"] + 1
        tab.screenshot(path=str(ARTIFACTS / f"explain-astar-present-large-{width}.png"))
        tab.keyboard.press("e")  # off again: the board takes the room back
        next_frame(tab)
        next_frame(tab)
        assert not tab.locator(PANEL).is_visible()
        wider = tab.locator("[data-testid=canvas]").bounding_box()
        assert wider["width"] > board["width"]
        context.close()
