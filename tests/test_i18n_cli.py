"""The command line in Russian: --lang on every command, the language from the
environment, the players' words in the output, the same JSON in both languages,
Russian errors and help, and the consoles that cannot show Cyrillic."""

import json
import os
import re
import subprocess
import sys
from pathlib import Path

import click
import pytest
from click.testing import CliRunner

import prefsolve
from prefsolve.cli import main
from prefsolve.i18n import get_language

ROOT = Path(__file__).resolve().parents[1]
DEAL = "A.KT9.KT97.K7 JT97.A7.8.Q98 KQ.J8.AQJ.AJT 8.Q.-.-"
#: The folder of the package under test, for child processes.
TESTED = str(Path(prefsolve.__file__).resolve().parent.parent)
#: An environment that names no language, so that only --lang or the variables a test sets decide.
NEUTRAL = {"PREFSOLVE_LANG": "", "LANGUAGE": "", "LC_ALL": "", "LC_MESSAGES": "", "LANG": "C.UTF-8"}


def run(*args, env=None, input=None):
    return CliRunner().invoke(main, list(args), env={**NEUTRAL, **(env or {})}, input=input, prog_name="prefsolve")


def commands():
    return sorted(main.commands.items())


def test_every_command_and_the_group_take_lang():
    assert any(p.opts == ["--lang"] for p in main.params)
    missing = [name for name, cmd in commands() if not any(p.opts == ["--lang"] for p in cmd.params)]
    assert missing == []


@pytest.mark.parametrize("name", [name for name, _cmd in commands()])
def test_every_commands_help_is_russian(name):
    en, ru = run(name, "--help"), run(name, "--help", "--lang", "ru")   # --lang after --help counts too
    assert en.exit_code == ru.exit_code == 0
    assert ru.output.startswith(f"Использование: prefsolve {name} ") and "\nПараметры:\n" in ru.output
    assert "--lang [en|ru]" in ru.output and "Язык вывода: ru или en" in ru.output
    assert "Показать эту справку и выйти." in ru.output
    # The command's own help is translated: its first line differs, and so does every option's help.
    first = lambda text: text.split("\n\n")[1].strip()   # noqa: E731
    assert first(ru.output) != first(en.output) and any("а" <= ch <= "я" for ch in first(ru.output))
    assert "Show this message and exit." not in ru.output and "Usage:" not in ru.output


def test_the_groups_help_lists_the_commands_in_russian():
    r = run("--lang", "ru", "--help")
    assert r.exit_code == 0 and "\nКоманды:\n" in r.output
    assert "Решить один контракт" in r.output and "Взятки каждого разыгрывающего" in r.output


@pytest.mark.parametrize("env, russian", [
    ({"LANG": "ru_RU.UTF-8"}, True),
    ({"LC_ALL": "ru_RU.UTF-8", "LANG": "en_US.UTF-8"}, True),
    ({"LANGUAGE": "ru:en", "LANG": "en_US.UTF-8"}, True),
    ({"PREFSOLVE_LANG": "ru"}, True),
    ({"PREFSOLVE_LANG": "en", "LANG": "ru_RU.UTF-8"}, False),
    ({"LANG": "de_DE.UTF-8"}, False),
])
def test_the_language_comes_from_the_environment(env, russian):
    r = run("table", env=env)
    assert r.exit_code == 0
    assert ("Разыгрывающий" in r.output) is russian and ("Declarer" in r.output) is not russian


def test_lang_overrides_the_environment_and_the_api_is_english_afterwards():
    assert "Declarer" in run("table", "--lang", "en", env={"LANG": "ru_RU.UTF-8"}).output
    assert "Разыгрывающий" in run("--lang", "ru", "table").output     # on the group, for its command
    assert get_language() == "en"       # a run of the command line leaves the process's language as it was


def test_table_solve_and_allpass_speak_the_players_words():
    table = run("table", "--lang", "ru").output
    for word in ("Разыгрывающий", "Мизер", "БК", "Прикуп ♠8 ♣Д", "Место 0 (первая рука)", "лучший снос"):
        assert word in table, word
    assert "♠ В1097" in table and "2 ♣К♥К" in table        # the Russian rank letters
    solve = run("solve", "--declarer", "2", "--strain", "бк", "--lang", "ru").output
    assert solve.splitlines()[-1] == "Разыгрывает место 2, БК, заходит место 0: 4 взятки, снос ♠8 ♣8"
    misere = run("solve", "--declarer", "0", "--strain", "мизер", "--lang", "ru").output
    assert misere.splitlines()[-1] == ("Разыгрывает место 0, Мизер, заходит место 0: 2 взятки у разыгрывающего, "
                                       "снос ♣К ♥К")
    allpass = run("allpass", DEAL, "--lang", "ru").output
    assert "\nРаспасы, прикуп заходит в 1-ю и 2-ю взятки: открыты ♠8, затем ♣Д\n" in allpass
    assert "Место 1 ограничивается" in allpass and "взяло место" in allpass


def test_auction_speaks_of_hands_pass_whist_and_misere():
    r = run("auction", "раз два пас пас", "--contract", "7D", "--whist", "вист пас", "--lang", "ru")
    assert r.exit_code == 0
    assert r.output.splitlines() == [
        "допустимо: торговлю выиграло место 1 (вторая рука); наименьший заказ: 6 треф",
        "заказ 7 бубен: допустим",
        "слова вистующих на 7 бубен (вист, пас): допустимо; один вистующий (место 2), играет открыто",
    ]
    assert run("auction", "пас пас пас", "--lang", "ru").output.strip() == "допустимо: все пасовали (распасы)"
    r = run("auction", "мизер пас пас", "--contract", "мизер", "--lang", "ru")
    assert r.output.splitlines() == ["допустимо: торговлю выиграло место 0 (первая рука); наименьший заказ: мизер",
                                     "заказ мизер: допустим"]
    r = run("auction", "раз", "--lang", "ru")
    assert r.output.strip() == "пока допустимо; торговля не закончена, следующим говорит место 1 (вторая рука)"
    r = run("auction", "раз пас пас", "--whist", "пас полвиста пас", "--lang", "ru")
    assert r.output.splitlines()[-1].endswith("допустимо; полвиста в силе: без розыгрыша")


def test_score_prints_pool_mountain_and_whists():
    r = run("score", str(ROOT / "examples" / "sochi.json"), "--lang", "ru")
    assert r.exit_code == 0
    lines = r.output.splitlines()
    assert lines[0].startswith("правила: sochi; пуля до ")
    assert lines[1].split()[:3] == ["игрок", "пуля", "гора"]
    assert "(висты: что игрок строки записал на каждого другого игрока)" in lines and "расчёт в вистах:" in lines


def test_play_and_its_interactive_board_speak_russian():
    r = run("play", DEAL, "--declarer", "1", "--strain", "H", "--lang", "ru")
    assert r.output.startswith("Разыгрывающий (место 1) берёт прикуп ♠8 ♣Д и сносит ")
    assert "Разыгрывает место 1, козыри ♥, заходит место 0" in r.output and "Взято взяток: место 0: 0" in r.output
    assert "Ход места 0; всего взяток разыгрывающего после каждой карты (месту 0 нужно меньше, * — лучший ход):" \
        in r.output
    r = run("play", DEAL, "--declarer", "1", "--strain", "H", "-i", "--lang", "ru",
            input="пТ\nотмена\nлучший\nпомощь\nхх\nвыход\n")
    assert r.exit_code == 0
    out = r.output
    assert "'отмена' возвращает последнюю карту" in out and "Карта ♠Т возвращена." in out
    assert "Оптимальная линия (всего" in out and "место 0> " in out
    assert "Ошибка: " in r.stderr       # хх is no card: the error in Russian, the commands again


def test_the_analyses_speak_russian():
    r = run("whist", "A.KT9.KT97.K7", "--seat", "2", "--declarer", "0", "--contract", "6H", "--samples", "20",
            "--seed", "1", "--jobs", "1", "--lang", "ru")
    assert r.exit_code == 0, r.output
    out = r.stdout      # the progress bar's label is on stderr
    assert "место 2 (второй вистующий) против 6 червей места 0, 20 раскладов, правила sochi" in out
    assert "P(защита берёт свои 4)" in out and "\nслово " in out
    words = {line.split()[0] for line in out.splitlines()[3:6]}
    assert words == {"вист", "пас", "полвиста"}
    r = run("analyze", "A.KT9.KT97.K7", "--samples", "10", "--seed", "1", "--jobs", "1", "--auction", "",
            "--lang", "ru")
    assert r.exit_code == 0, r.output
    assert "контракт" in r.stdout and "P(сыграет)" in r.stdout and "ожидаемые висты" in r.stdout
    assert "\n6 пик " in r.stdout and "\nмизер " in r.stdout and r.stdout.endswith("(зерно 1)\n")
    assert r.stderr.startswith("анализ")
    r = run("advise", "JT97.A7.8.Q98", "--seat", "1", "--contract", "6NT", "--declarer", "2", "--played", "SA",
            "--samples", "5", "--seed", "1", "--lang", "ru")
    assert r.exit_code == 0, r.output
    assert r.stdout.startswith("Ход места 1 (вистующий) в контракте 6 бк, 5 раскладов, сыграно карт: 1")
    assert "\nходите " in r.stdout


def test_conditions_of_the_auction_are_in_russian_in_the_text_and_english_in_the_json():
    args = ["whist", "A.KT9.KT97.K7", "--seat", "1", "--declarer", "0", "--contract", "7H", "--samples", "5",
            "--seed", "1", "--auction", "7H pass pass"]
    ru = run(*args, "--lang", "ru").stdout
    assert "\n(дано: место 0 заявило 7 червей: оценка ≥ 6; место 2 спасовало, когда был открыт 7 бк: оценка < 8; " in ru
    assert "; место 0 заказало 7 червей: оценка в ♥ ≥ 5; " in ru and "(расклады, отвечающие условиям: " in ru
    doc = json.loads(run(*args, "--json", "--lang", "ru").stdout)
    assert doc["conditions"][0] == "seat 0 bid 7♥: estimate ≥ 6"


@pytest.mark.parametrize("args", [
    ["deal", "--seed", "3", "--count", "2"],
    ["table", DEAL],
    ["solve", DEAL, "--declarer", "2", "--strain", "NT", "--line"],
    ["play", DEAL, "--declarer", "1", "--strain", "H", "--played", "SA", "--line"],
    ["allpass", DEAL, "--seat", "1"],
    ["auction", "раз два пас три пас", "--contract", "7D", "--whist", "вист пас"],
    ["score", str(ROOT / "examples" / "sochi.json")],
    ["analyze", "A.KT9.KT97.K7", "--seat", "1", "--samples", "6", "--seed", "2", "--jobs", "1", "--auction", "6S"],
    ["analyze-talon", "AKJ98.AQ.K8.A87", "--contract", "6S", "--samples", "6", "--seed", "2", "--jobs", "1"],
    ["whist", "A.KT9.KT97.K7", "--seat", "1", "--declarer", "0", "--contract", "7H", "--samples", "6",
     "--seed", "2", "--jobs", "1", "--auction", "7H pass pass"],
    ["advise", "JT97.A7.8.Q98", "--seat", "1", "--contract", "6NT", "--declarer", "2", "--played", "SA",
     "--samples", "4", "--seed", "2"],
    ["holdings", "--only", "1", "--samples", "3", "--seed", "2", "--jobs", "1"],
])
def test_the_json_is_the_same_in_both_languages(args):
    en, ru = run(*args, "--json", "--lang", "en"), run(*args, "--json", "--lang", "ru")
    assert en.exit_code == ru.exit_code == 0, en.output + ru.output
    # The same bytes but the search's node counts, which depend on what the solver's table held before.
    nodes = re.compile(rb'"nodes": \d+')
    assert nodes.sub(b"", ru.stdout_bytes) == nodes.sub(b"", en.stdout_bytes)
    json.loads(ru.stdout)


def test_an_error_is_one_russian_line_with_exit_code_2():
    for args in (["solve", DEAL, "--declarer", "7", "--strain", "S"],
                 ["solve", DEAL, "--strain", "S"],
                 ["table", DEAL, "--bogus"],
                 ["table", "A.KT9.KT97.K7", "JT97.A7.8.Q98"],
                 ["play", DEAL, "--strain", "S"],
                 ["analyze", "A.KT9.KT97.K7", "--known", "9"]):
        r = run(*args, "--lang", "ru")
        assert r.exit_code == 2, (args, r.output)
        lines = r.stderr.splitlines()
        assert len(lines) == 1 and lines[0].startswith("Ошибка: "), (args, r.stderr)
    r = run("solve", DEAL, "--declarer", "7", "--strain", "S", "--lang", "ru")
    assert r.stderr.strip() == ("Ошибка: Неверное значение '--declarer': 7 не входит в диапазон 0<=x<=2. "
                                "(см. 'prefsolve solve --help')")
    r = run("table", "A.KT9.KT97.K7", "JT97.A7.8.Q98", "--lang", "ru")
    assert "в сдаче или руке есть пробелы, поэтому возьмите её в кавычки" in r.stderr
    r = run("analyze-talon", "AKJ98.AQ.K8.A87", "--bid", "6S", "--lang", "ru")
    assert r.stderr.strip() == ("Ошибка: --bid теперь --contract: одно имя для понятия «контракт» во всех командах "
                                "(docs/VOCABULARY.md)")
    assert run("table", "--lang", "de").stderr.startswith("Ошибка: ") is False    # no such language: English


def child(args, encoding):
    """The command line in a child process whose stdout and stderr have ``encoding``."""
    env = {**os.environ, **NEUTRAL, "PYTHONIOENCODING": encoding, "PYTHONPATH": TESTED}
    return subprocess.run([sys.executable, "-m", "prefsolve", *args], capture_output=True, env=env, timeout=120)


def test_an_ascii_console_gets_english_and_a_cp1251_console_gets_russian():
    ascii_ = child(["table", "--lang", "ru"], "ascii")
    assert ascii_.returncode == 0 and ascii_.stdout.isascii()
    text = ascii_.stdout.decode("ascii")
    assert "Declarer s" in text and "Seat 0 (first hand)" in text      # English: no question marks
    cp1251 = child(["table", "--lang", "ru"], "cp1251")
    text = cp1251.stdout.decode("cp1251")
    assert cp1251.returncode == 0 and "Разыгрывающий s" in text and "Место 0 (первая рука)" in text
    assert "Прикуп s8 cД" in text       # the suits as small letters, the ranks Russian
    error = child(["solve", "--declarer", "9", "--lang", "ru"], "cp1251")
    assert error.returncode == 2 and error.stderr.decode("cp1251").startswith("Ошибка: ")


def test_click_speaks_english_again_after_a_russian_run():
    run("table", "--lang", "ru")
    assert click.core._("Usage:") == "Usage:"
