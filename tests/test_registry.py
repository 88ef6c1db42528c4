"""The lazy registry (``server/puzzles/registry.py``, ``family_spec.py``): built-in families imported when
first needed, detection that skips the families a file's spec rules out and still picks what sniffing
every family picks, and the mapping every caller iterates as before."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from server.puzzles import registry
from server.puzzles.errors import PuzzleError
from server.puzzles.family_spec import FamilySpec, may_be_text
from tests import fuzz_strategies as fz
from tests.conftest import SHARED_CASES
from tests.helpers import imported_after
from tests.toy_family import TOY

ROOT = Path(__file__).resolve().parent.parent
BUILT_IN = ("grid", "labyrinth", "step", "zenji", "sliding")
SPECS = {name: __import__(f"server.puzzles.{name}", fromlist=["SPEC"]).SPEC for name in BUILT_IN}
FAMILIES = registry.families()
FILES = st.one_of(fz.byte_files(), fz.grid_text_files(), fz.csv_files(), fz.labyrinth_json_files(),
                  fz.step_text_files(), fz.step_json_files(), fz.zenji_text_files(), fz.zenji_json_files(),
                  fz.sliding_text_files(), fz.sliding_json_files())


def sample_files() -> list[tuple[bytes, str]]:
    """Every puzzle file of the project and the shared cases, and each family's saves of its puzzles."""
    roots = [ROOT / "mazes", ROOT / "tests", SHARED_CASES]
    files = [(p.read_bytes(), p.name) for root in roots if root.is_dir() for p in sorted(root.rglob("*"))
             if p.is_file() and p.stat().st_size < 30_000_000]
    for family in FAMILIES:
        if family.maker is None:
            continue
        for kind in family.maker.generators:
            made = family.maker.generate(kind.name, kind.parse({"seed": "3"}))  # the default size
            files += [(family.saver.save(made.puzzle, fmt), f"made.{fmt}") for fmt in family.saver.formats
                      if _saves(family, made.puzzle, fmt)]
    return files


def _saves(family, puzzle, fmt: str) -> bool:
    try:
        family.saver.save(puzzle, fmt)
    except PuzzleError:
        return False
    return True


def eager_pick(filename: str, data: bytes) -> str | None:
    """What detection picked when it sniffed every family (None: no family reads the file)."""
    best, family = max(((f.sniff(filename, data), f) for f in FAMILIES), key=lambda pair: pair[0])
    return family.name if best > 0 else None


def lazy_pick(filename: str, data: bytes) -> str | None:
    try:
        return registry.detect_family(filename, data).name
    except PuzzleError:
        return None


def assert_specs_hold(filename: str, data: bytes) -> None:
    """Each spec's ``may_claim`` is true wherever its family's sniff scores, and detection agrees."""
    for family in FAMILIES:
        if family.sniff(filename, data) > 0:
            assert SPECS[family.name].may_claim(filename, data), (family.name, filename, data[:80])
    if data:
        assert lazy_pick(filename, data) == eager_pick(filename, data), (filename, data[:80])


def test_every_sample_file_is_detected_as_by_sniffing_every_family() -> None:
    files = sample_files()
    assert len(files) > 100
    for data, name in files:
        assert_specs_hold(name, data)


@settings(max_examples=300, deadline=None, suppress_health_check=list(HealthCheck))
@given(case=FILES)
def test_any_file_is_detected_as_by_sniffing_every_family(case: tuple[bytes, str]) -> None:
    data, name = case
    assert_specs_hold(name, data)


def test_text_as_the_text_families_read_it() -> None:
    assert may_be_text(b"7 2 4\n") and may_be_text("é".encode() * 3000)  # a character cut at 4096
    assert not may_be_text(b"\x89PNG\r\n\x1a\n") and not may_be_text(b"ab\xffcd" + b"x" * 10)
    assert may_be_text(b"ab\xff")  # a byte in the last three: a character the sample may have cut


def test_the_mapping_lists_names_without_importing_and_families_in_order() -> None:
    assert list(registry.FAMILIES)[:5] == list(BUILT_IN)
    assert "grid" in registry.FAMILIES and "sokoban" not in registry.FAMILIES
    assert [f.name for f in registry.families()][:5] == list(BUILT_IN)
    with pytest.raises(KeyError):
        registry.FAMILIES["sokoban"]
    with pytest.raises(PuzzleError, match="not supported yet; choose one of: grid, labyrinth, step, zenji"):
        registry.get_family("sokoban")
    assert all(isinstance(spec, FamilySpec) and spec.name == name for name, spec in SPECS.items())


def test_register_refuses_a_second_family_of_a_name_and_unregister_forgets() -> None:
    registry.register(TOY)
    try:
        assert registry.get_family(TOY.name) is TOY and TOY.name in registry.FAMILIES
        assert registry.register(TOY) is TOY  # the same family again: fine
        with pytest.raises(ValueError, match="already registered"):
            registry.register(type(TOY)())
    finally:
        registry.unregister(TOY.name)
    assert TOY.name not in registry.FAMILIES


def test_a_file_imports_the_families_that_may_claim_it(shared_cases: Path) -> None:
    png = shared_cases / "images/lee/maze3.png"
    seen = imported_after(
        f"from server.puzzles import registry\n"
        f"assert registry.detect_family('maze3.png', open({str(png)!r}, 'rb').read()).name == 'grid'")
    assert seen == {"families": ["grid"], "numba": False}
    seen = imported_after("from server.puzzles import registry\n"
                          "maze = b'#####\\n#S.G#\\n#####\\n'\n"
                          "assert registry.detect_family('m.txt', maze).name == 'grid'")
    assert seen["families"] == ["grid"]
    seen = imported_after("from server.puzzles import registry\n"
                          "assert registry.get_family('sliding').name == 'sliding'\n"
                          "assert len(registry.FAMILIES) == 5 and list(registry.FAMILIES)[0] == 'grid'")
    assert seen == {"families": ["sliding"], "numba": False}
    seen = imported_after("from server.puzzles import registry\nregistry.families()")
    assert seen["families"] == sorted(BUILT_IN)


def test_no_family_reads_it_lists_every_family() -> None:
    seen = imported_after(
        "from server.puzzles import registry\n"
        "try:\n    registry.detect_family('x.bin', b'\\x00\\x01')\nexcept Exception as err:\n"
        "    assert 'Expected one of: Grid maze' in str(err) and 'Sliding' in str(err), err")
    assert seen["families"] == sorted(BUILT_IN)


def test_family_of_a_puzzle_made_without_the_registry() -> None:
    seen = imported_after(
        "import numpy as np\n"
        "from server.puzzles.grid.model import GridMaze\n"
        "from server.puzzles.registry import family_of\n"
        "assert family_of(GridMaze(np.ones((2, 2), np.uint8), [0], [3])).name == 'grid'")
    assert seen == {"families": ["grid"], "numba": False}
    with pytest.raises(TypeError, match="no registered family parses str puzzles"):
        registry.family_of("a maze")
