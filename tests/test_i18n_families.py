"""The five families speak the reader's language: a malformed file is refused in German when the reader
reads German (and in today's English otherwise), the metadata the page shows are catalog keys that
render to text in both languages, and every gallery entry has its title and description in both."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from server.i18n import LANGUAGES, catalog, t, using
from server.puzzles import registry
from server.puzzles.errors import PuzzleError

ROOT = Path(__file__).resolve().parent.parent
RAW_KEY = re.compile(r"^[a-z_]+(\.[a-z0-9_]+)+$")
FAMILIES = ("grid", "labyrinth", "step", "zenji", "sliding")

# A malformed file of each family, a German word its refusal must hold, and the English it says today.
MALFORMED = {
    "grid": (b"#####\n#S.?#\n#..G#\n#####\n", "m.txt", "Zeichen", "unknown character"),
    "labyrinth": (b"1;2;3\n4;5\n", "l.csv", "Zeile", "line"),
    "step": (b'{"maze": 7}', "s.json", "erwartet", "expected"),
    "zenji": (b"3223 2010\n2010\n", "z.txt", "Spielsteine", "tiles"),
    "sliding": (b"1 2 3 4 5 6 7 8 8\n", "p.txt", "zweimal", "appears twice"),
}


def refusal(family: str, lang: str) -> PuzzleError:
    data, name, _, _ = MALFORMED[family]
    with using(lang), pytest.raises(PuzzleError) as err:
        registry.load_puzzle(data, name, family)
    return err.value


@pytest.mark.parametrize("family", FAMILIES)
def test_a_malformed_file_is_refused_in_the_readers_language(family: str) -> None:
    _, _, german_word, english = MALFORMED[family]
    english_error, german_error = refusal(family, "en"), refusal(family, "de")
    assert english in str(english_error), str(english_error)
    assert german_word in str(german_error), str(german_error)
    assert str(german_error) != str(english_error)
    assert german_error.message != english_error.message
    assert not RAW_KEY.match(german_error.message) and not RAW_KEY.match(german_error.where or "x")


def shown_texts(described: dict) -> list[str]:
    """The fields of ``describe_json`` the page shows, rendered with ``t`` (whatever the serialiser does)."""
    texts = [described["title"], described["expects"], described["solution_notation"]]
    for option in described["options"]:
        texts += [option["label"], option["help"]]
        texts += [choice["label"] for choice in option.get("choices", [])]
    for kind in described["generators"]:
        texts += [kind.get("label", ""), kind.get("help", "")]
        for option in kind.get("options", []):
            texts += [option["label"], option["help"]]
    texts += [feature["meaning"] for feature in described["features"]]
    return [t(text) for text in texts if text]


@pytest.mark.parametrize("lang", LANGUAGES)
@pytest.mark.parametrize("family", FAMILIES)
def test_the_metadata_the_page_shows_render_to_text(family: str, lang: str) -> None:
    with using(lang):
        texts = shown_texts(registry.get_family(family).describe_json())
    raw = [text for text in texts if RAW_KEY.match(text)]
    assert not raw, f"{family}/{lang}: keys without a template: {raw}"
    assert all(text.strip() for text in texts)


@pytest.mark.parametrize("family", FAMILIES)
def test_the_title_and_expects_differ_in_german(family: str) -> None:
    with using("en"):
        described = registry.get_family(family).describe_json()
        english = [described["title"], described["expects"]]
    with using("de"):
        described = registry.get_family(family).describe_json()
        german = [described["title"], described["expects"]]
    assert english[0] != german[0] and english[1] != german[1]


def test_every_gallery_entry_has_its_title_and_description_in_both_languages() -> None:
    entries = json.loads((ROOT / "mazes" / "gallery.json").read_text(encoding="utf-8"))
    for lang in LANGUAGES:
        texts = catalog(lang)
        for entry in entries:
            for field in ("title", "description"):
                key = f"gallery.{entry['name']}.{field}"
                assert texts.get(key), f"{lang} lacks {key}"
    english = catalog("en")
    for entry in entries:  # English is today's text
        assert english[f"gallery.{entry['name']}.title"] == entry["title"]
        assert english[f"gallery.{entry['name']}.description"] == entry["description"]
