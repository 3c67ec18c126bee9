"""The library speaks the active language (prefsolve.i18n): its errors, and the JSON that stays English.

* **Said again.** What ``_`` returns remembers its message and fields, so that
  an error raised in one language is said in another (:func:`say_in`), a
  card or contract field in that language's notation (:func:`shown`).
* **Every module's errors.** A bad card, contract, deal, auction call, play,
  game record, sampling option … raised under ``use_language("ru")`` comes
  out in Russian, with the user's input quoted in it and cards and contracts
  in the Russian notation; said again in English it is the English error,
  word for word, and the error's class is the same.
* **JSON is English.** The human texts inside results (an illegal call's
  ``reason``, a forfeit's, a condition in words) are said in the active
  language by the text output and in English by ``to_dict()``: the JSON of a
  run in Russian is byte for byte the JSON of a run in English.

The catalogue's completeness and the fields of each translation are
tests/test_messages.py's; the server's language is tests/test_web_api.py's.
"""

import json
import pickle
import re

import pytest
from click.testing import CliRunner

from prefsolve import Card, Contract, Deal, Hand, Position, Rules, Sampling
from prefsolve.auction import check_auction, check_declaration, check_whist_calls, parse_calls
from prefsolve.batch import resolve_jobs
from prefsolve.checks import check_seat
from prefsolve.cli import main
from prefsolve.cluster import check_scheduler
from prefsolve.engine import new_solver
from prefsolve.errors import GameError, PlayerError
from prefsolve.game import Session
from prefsolve.i18n import Said, _, english, get_language, message_of, say_in, shown, use_language
from prefsolve.match import match_settings
from prefsolve.players import Player, make_player
from prefsolve.players.runner import play_deal
from prefsolve.scoring import sheet_from_game
from prefsolve.strains import parse_strain

EXAMPLE = "A.KT9.KT97.K7 JT97.A7.8.Q98 KQ.J8.AQJ.AJT 8.Q.-.-"
CYRILLIC = re.compile("[а-яё]", re.IGNORECASE)
#: The Latin words of the English messages that a Russian one must not keep (names and values aside).
ENGLISH_WORDS = re.compile(r"\b(cannot|must|expected|unknown|the|got|not|is)\b")


def raised(action):
    with pytest.raises(ValueError) as info:     # every prefsolve error is a ValueError
        action()
    return info.value


# -- said again ------------------------------------------------------------------------------

def test_a_message_is_said_again_in_either_language_with_its_fields():
    with use_language("ru"):
        said = _("unknown contract {text}", text=repr("11S"))
    assert isinstance(said, Said) and said.lang == "ru"
    assert said == "неизвестный контракт '11S'"
    assert english(said) == "unknown contract '11S'" and say_in(english(said), "ru") == said
    # A field that is itself a said message (an error's reason) is said again with it.
    with use_language("ru"):
        outer = _("deal {number}: {message}", number=3, message=said)
    assert english(outer) == "deal 3: unknown contract '11S'"
    assert say_in(outer, "ru") is outer and english(None) is None


def test_a_card_or_contract_field_is_shown_in_the_notation_of_its_language():
    ace, seven_hearts = Card.parse("SA"), Contract.parse("7H")
    with use_language("ru"):
        said = _("§3.1: the declared contract {declared} is lower than the winning bid {bid}",
                 declared=shown(ace), bid=shown(seven_hearts))
    assert said == f"§3.1: заказанный контракт {ace.format('ru')} ниже выигравшей заявки {seven_hearts.format('ru')}"
    # English keeps the message's own English (str(), or the text given), as before translation.
    assert english(said) == "§3.1: the declared contract SA is lower than the winning bid 7H"
    assert str(shown(ace, ace.symbol)) == "♠A" and shown(lambda lang: lang).text("ru") == "ru"


def test_an_error_keeps_its_message_and_pickles_as_plain_text():
    with use_language("ru"):
        error = raised(lambda: Contract.parse("11S"))
        assert message_of(error) is error.args[0]
    assert str(error) == "неизвестный контракт '11S'" and english(error) == "unknown contract '11S'"
    # Across processes (a Dask worker's error) it is plain text: its fields need not pickle.
    again = pickle.loads(pickle.dumps(error))
    assert type(again.args[0]) is str and str(again) == str(error)
    assert message_of(ValueError("plain")) == "plain" and english(KeyError("k")) == "'k'"


# -- every module's errors ----------------------------------------------------------------------

class Liar(Player):
    """Plays a card of the next seat's hand: an illegal play, which the game refuses."""

    name = "liar"
    sees_all = True

    def __init__(self):
        self.inner = make_player("random")

    def decide(self, view):
        if view.kind == "card":
            return next(iter(view.deal.hands[(view.seat + 1) % 3]))
        return self.inner.decide(view)


def _follow_suit():
    pos = Position("A.K.-.- Q.J.-.- 8.7.-.-", 0, strain="H")
    pos.push("SA")
    pos.push("CJ")


def _bad_score():
    deal = {"declarer": "A", "contract": "7H", "whist": {"B": "whist", "C": "pass"}, "tricks": {"A": 6, "B": 2, "C": 1}}
    sheet_from_game({"players": ["A", "B", "C"], "deals": [deal]})


#: (what, the action that raises, texts the message must quote in both languages, in Russian only, in English only)
ERRORS = [
    ("a card", lambda: Card.parse("ZZ"), ["'ZZ'"], [], []),
    ("a hand's duplicate", lambda: Hand.parse("AKA.-.-.-"), ["'AKA.-.-.-'"], ["♠Т"], ["SA"]),
    ("a contract", lambda: Contract.parse("11S"), ["'11S'"], [], []),
    ("a deal", lambda: Deal.parse("A.K.-.- Q.J.-.-"), ["'A.K.-.- Q.J.-.-'", "2"], [], []),
    ("a strain", lambda: parse_strain("X"), ["'X'"], [], []),
    ("a seat", lambda: check_seat(5, "leader"), ["leader", "5"], [], []),
    ("an auction call", lambda: parse_calls("раз foo"), ["'foo'", "'раз foo'"], [], []),
    ("an illegal play", lambda: Position("AK.-.-.- QJ.-.-.- 87.-.-.-", 0, strain="NT").push("SQ"),
     [], ["♠Д", "♠ТК"], ["SQ", "♠AK"]),
    ("a card that does not follow suit", _follow_suit, [], ["♣В", "♠Д"], ["CJ", "♠Q"]),
    ("a rules profile", lambda: Rules.profile("moscow"), ["'moscow'", "sochi"], [], []),
    ("a score sheet", _bad_score, ["[6, 2, 1]", "9"], [], []),
    ("a game record", lambda: Session.from_dict({"players": ["A", "B", "C"],
                                                 "deals": [{"deal": EXAMPLE, "first_hand": "Z"}]}),
     ["'Z'", "A, B, C"], [], []),
    ("a sampling option", lambda: Sampling(samples=0), ["0"], [], []),
    ("known cards", lambda: Sampling(known={5: "SA"}), ["5"], [], []),
    ("a player", lambda: make_player("chess"), ["'chess'"], [], []),
    ("a match", lambda: match_settings("random", "random", deals=1, time_limit=-1), ["-1"], [], []),
    ("a batch", lambda: resolve_jobs(0), ["0"], [], []),
    ("the engine", lambda: new_solver(0), ["0"], [], []),
    ("a cluster", lambda: check_scheduler(""), ["tcp://host:8786"], [], []),
]


@pytest.mark.parametrize("what, action, quoted, russian, english_only", ERRORS, ids=[e[0] for e in ERRORS])
def test_each_module_s_errors_come_in_russian_with_their_fields(what, action, quoted, russian, english_only):
    english_error = raised(action)
    with use_language("ru"):
        russian_error = raised(action)
    assert get_language() == "en"
    text = str(russian_error)
    assert type(russian_error) is type(english_error)
    assert CYRILLIC.search(text) and not ENGLISH_WORDS.search(text), text
    assert all(q in text and q in str(english_error) for q in quoted), (text, str(english_error))
    assert all(r in text for r in russian) and all(e in str(english_error) for e in english_only), text
    # Said again in English, the Russian error is the English one, word for word.
    assert english(russian_error) == str(english_error)


def test_an_illegal_call_is_a_verdict_in_the_active_language():
    with use_language("ru"):
        verdict = check_auction("6S 6C 6S")
        declaration = check_declaration("7H", "6S")
        whist = check_whist_calls("8S", ["pass", "half"])
    assert "6 треф" in verdict.reason and "6 пик" in verdict.reason and CYRILLIC.search(whist.reason)
    assert english(verdict.reason) == check_auction("6S 6C 6S").reason
    assert english(declaration.reason) == check_declaration("7H", "6S").reason
    # The JSON's reason is English whatever the language.
    assert verdict.to_dict() == check_auction("6S 6C 6S").to_dict()
    assert whist.to_dict() == check_whist_calls("8S", ["pass", "half"]).to_dict()


# -- JSON is English ----------------------------------------------------------------------------------

def test_a_forfeit_is_said_in_the_active_language_and_recorded_in_english():
    def forfeit(lang):
        with use_language(lang):
            for seed in range(20):
                game = play_deal(Deal.random(seed), [make_player("random"), Liar(), make_player("random")], seed=seed)
                if game.forfeit is not None:
                    return game
        raise AssertionError("no forfeit in 20 deals")

    ru, en = forfeit("ru"), forfeit("en")
    assert ru.forfeit.reason.startswith("liar: ") and CYRILLIC.search(ru.forfeit.reason)
    assert english(ru.forfeit.reason) == en.forfeit.reason
    session = lambda game: Session(("A", "B", "C"), game.record.rules, (game.record,)).to_dict()  # noqa: E731
    assert json.dumps(session(ru)) == json.dumps(session(en))


def _cli(*args):
    r = CliRunner().invoke(main, list(args))
    return r.exit_code, r.stdout, r.stderr


@pytest.mark.parametrize("args", [
    ("auction", "6S 6C 6S"),
    ("auction", "pass 6S pass", "--contract", "6C"),
    ("auction", "pass 6S pass", "--contract", "7S", "--whist", "pass half"),
    ("auction", "pass 7S pass", "--contract", "7S", "--whist", "pass, half, whist"),
    ("whist", "A.KT9.KT97.K7", "--contract", "6S", "--declarer", "1", "--seat", "2", "-n", "3", "--seed", "4",
     "--auction", "pass 6S pass"),
])
def test_json_is_the_same_in_both_languages(args):
    en = _cli(*args, "--json", "--lang", "en")
    ru = _cli(*args, "--json", "--lang", "ru")
    assert en[0] in (0, 1) and ru[:2] == en[:2], (ru, en)
    # ... and the text output is the one that speaks Russian.
    text = _cli(*args, "--lang", "ru")
    assert text[0] == en[0] and CYRILLIC.search(text[1])


def test_a_game_error_names_the_move_in_the_active_language():
    with use_language("ru"):
        error = raised(lambda: Session.from_dict({"players": ["A", "B", "C"], "deals": [
            {"deal": EXAMPLE, "first_hand": "A", "calls": "6S pass pass 7S"}]}))
    assert isinstance(error, GameError) and "«заявка»" in str(error) and "(7S)" in str(error)
    assert english(error) == "deal 1: move 4: the auction is over, but the record has 1 more call(s) (7S)"


def test_a_player_error_is_a_player_error_in_every_language():
    with use_language("ru"):
        error = raised(lambda: make_player("advisor:samples=x"))
    assert isinstance(error, PlayerError) and "'samples'" in str(error) and "'x'" in str(error)
