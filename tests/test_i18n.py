"""prefsolve.i18n: the language chosen from the environment, the active language, the catalogues."""

import gettext
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from prefsolve import i18n
from prefsolve.errors import PrefsolveError
from prefsolve.i18n import (
    _,
    get_language,
    language_from_environment,
    language_of,
    ngettext,
    pgettext,
    set_language,
    translations,
    use_language,
)

#: The catalogues' sources in the checkout: an installed wheel ships only the compiled .mo.
SOURCES = Path(__file__).resolve().parents[1] / "src" / "prefsolve" / "locale"


@pytest.mark.parametrize("value, lang", [
    ("ru", "ru"), ("ru_RU.UTF-8", "ru"), ("ru_UA.KOI8-U", "ru"), ("ru-RU", "ru"), ("RU", "ru"),
    ("en_US.UTF-8", "en"), ("en", "en"), ("C", None), ("POSIX", None), ("C.UTF-8", None), ("uk_UA.UTF-8", None),
    ("de_DE@euro", None), ("", None),
])
def test_a_locale_name_names_a_language_prefsolve_speaks_or_none(value, lang):
    assert language_of(value) == lang


@pytest.mark.parametrize("environ, lang", [
    ({}, "en"),
    ({"LANG": "ru_RU.UTF-8"}, "ru"),
    ({"LANG": "de_DE.UTF-8"}, "en"),                                   # not Russian: English
    ({"LC_MESSAGES": "ru_RU.UTF-8", "LANG": "en_US.UTF-8"}, "ru"),      # LC_MESSAGES before LANG
    ({"LC_ALL": "en_US.UTF-8", "LC_MESSAGES": "ru_RU.UTF-8"}, "en"),    # LC_ALL before LC_MESSAGES
    ({"LANGUAGE": "ru", "LC_ALL": "en_US.UTF-8"}, "ru"),               # LANGUAGE before LC_ALL
    ({"LANGUAGE": "uk:ru:en", "LANG": "en_US.UTF-8"}, "ru"),           # LANGUAGE is a list: the first we speak
    ({"LANGUAGE": "de:fr", "LANG": "ru_RU.UTF-8"}, "en"),              # the first variable set decides
    ({"LANGUAGE": "", "LANG": "ru_RU.UTF-8"}, "ru"),                   # an empty variable is not set
    ({"PREFSOLVE_LANG": "ru", "LANGUAGE": "en", "LC_ALL": "en_US.UTF-8"}, "ru"),   # prefsolve's own first
    ({"PREFSOLVE_LANG": "en", "LC_ALL": "ru_RU.UTF-8"}, "en"),
    ({"PREFSOLVE_LANG": "fr", "LANG": "ru_RU.UTF-8"}, "en"),
])
def test_the_environment_chooses_in_the_standard_order(environ, lang):
    assert language_from_environment(environ) == lang


def test_the_api_speaks_english_until_the_program_sets_the_language(monkeypatch):
    monkeypatch.setenv("LANG", "ru_RU.UTF-8")     # the environment is the command line's, not the API's
    assert get_language() == "en"
    assert ngettext("{n} trick", "{n} tricks", 5) == "5 tricks"
    with use_language("ru"):
        assert get_language() == "ru"
        assert [ngettext("{n} trick", "{n} tricks", n) for n in (1, 2, 5, 11, 21, 22)] == [
            "1 взятка", "2 взятки", "5 взяток", "11 взяток", "21 взятка", "22 взятки"]
        with use_language("en"):
            assert _("Seat {seat}", seat=1) == "Seat 1"
        assert _("Seat {seat}", seat=1) == "Место 1"
    assert get_language() == "en"
    set_language("ru")
    try:
        assert _("pass") == "пас" and pgettext("the book", "seed") == "книга"
    finally:
        set_language("en")
    with pytest.raises(PrefsolveError, match="unknown language 'de': expected one of en, ru"):
        set_language("de")


def test_a_message_without_a_translation_is_its_english_text_and_braces_stay_without_fields():
    with use_language("ru"):
        assert _("no such message {x}") == "no such message {x}"
        assert _("no such message {x}", x=1) == "no such message 1"


def _catalogue_at(monkeypatch, folder: Path) -> None:
    """translations() reads its files from ``folder`` (laid out as locale/)."""
    monkeypatch.setattr(i18n, "_catalogue_file",
                        lambda lang, domain, suffix: folder / lang / "LC_MESSAGES" / (domain + suffix))
    translations.cache_clear()


@pytest.fixture
def locale_copy(tmp_path, monkeypatch):
    folder = tmp_path / "locale"
    (folder / "ru" / "LC_MESSAGES").mkdir(parents=True)
    _catalogue_at(monkeypatch, folder)
    yield folder
    translations.cache_clear()


def test_without_a_compiled_catalogue_the_po_is_compiled_on_the_fly(locale_copy):
    pytest.importorskip("babel", reason='Babel compiles the .po (pip install ".[test]")')
    shutil.copy(SOURCES / "ru" / "LC_MESSAGES" / "prefsolve.po", locale_copy / "ru" / "LC_MESSAGES")
    with use_language("ru"):
        assert _("Seat {seat}", seat=2) == "Место 2"


def test_without_any_catalogue_the_text_is_english(locale_copy):
    with use_language("ru"):
        assert _("Seat {seat}", seat=2) == "Seat 2"
        assert ngettext("{n} trick", "{n} tricks", 5) == "5 tricks"


def test_a_compiled_catalogue_is_read_by_gettext_alone(locale_copy, monkeypatch):
    babel = pytest.importorskip("babel.messages.mofile", reason='Babel compiles the .po (pip install ".[test]")')
    from babel.messages.pofile import read_po

    with open(SOURCES / "ru" / "LC_MESSAGES" / "prefsolve.po", "rb") as f:
        catalog = read_po(f, locale="ru")
    with open(locale_copy / "ru" / "LC_MESSAGES" / "prefsolve.mo", "wb") as f:
        babel.write_mo(f, catalog)
    for name in [m for m in sys.modules if m == "babel" or m.startswith("babel.")]:
        monkeypatch.setitem(sys.modules, name, None)      # Babel cannot be imported now
    found = translations("ru")
    assert type(found) is gettext.GNUTranslations
    with use_language("ru"):
        assert _("Seat {seat}", seat=0) == "Место 0"


def test_the_board_catalogue_is_the_pages_messages_only():
    pytest.importorskip("babel", reason='Babel compiles the .po (pip install ".[test]")')
    ru = i18n.catalogue("ru")
    assert ru["prefsolve board"] == "доска prefsolve"
    assert "unknown player {name} (players: {players})" not in ru    # the package's messages: another catalogue
    assert i18n.catalogue("en") == {}


def test_the_catalogues_tool_compiles_in_place_for_a_checkout(tmp_path):
    pytest.importorskip("babel", reason='Babel compiles the .po (pip install ".[test]")')
    root = Path(__file__).resolve().parents[1]
    if not (root / "tools" / "catalogues.py").exists():
        pytest.skip("no tools/ folder beside the tests")
    code = ("import sys, pathlib; sys.path.insert(0, sys.argv[1]); import catalogues\n"
            "for mo in catalogues.compile_catalogues(pathlib.Path(sys.argv[2])): print(mo.name)\n")
    r = subprocess.run([sys.executable, "-c", code, str(root / "tools"), str(tmp_path)],
                       capture_output=True, text=True, timeout=120)
    assert r.returncode == 0, r.stderr
    assert sorted(r.stdout.split()) == ["board.mo", "prefsolve.mo"]
    with open(tmp_path / "ru" / "LC_MESSAGES" / "prefsolve.mo", "rb") as f:
        assert gettext.GNUTranslations(f).gettext("Seat {seat}") == "Место {seat}"
