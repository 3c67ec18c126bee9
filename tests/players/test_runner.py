"""Three players through a deal (prefsolve.players.runner): seeds, forced moves, forfeits."""

import re

import pytest

from prefsolve.deal import Deal
from prefsolve.errors import PlayerError
from prefsolve.game import Session
from prefsolve.players import make_player
from prefsolve.players.base import Player
from prefsolve.players.runner import decision_seed, play_deal


def randoms():
    return [make_player("random") for _ in range(3)]


def test_the_same_seed_plays_the_same_deal_and_another_seed_another():
    deal = Deal.random(3)
    first = play_deal(deal, randoms(), seed=1)
    assert play_deal(deal, randoms(), seed=1).record == first.record
    assert any(play_deal(deal, randoms(), seed=s).record != first.record for s in range(2, 6))


class Recorder(Player):
    """Plays the first legal option and keeps every view it was given."""

    name = "recorder"

    def __init__(self):
        self.views = []

    def decide(self, view):
        self.views.append(view)
        if view.kind == "declaration":
            from prefsolve.cards import Cards
            from prefsolve.game import Declaration
            return Declaration(view.options[0], Cards(sorted(view.hand)[:2]) if len(view.hand) == 12 else None)
        return view.options[0]


@pytest.mark.parametrize("seed", range(12))
def test_players_are_asked_only_real_choices_with_the_seed_of_their_seat_and_move(seed):
    players = [Recorder(), Recorder(), Recorder()]
    game = play_deal(Deal.random(seed), players, seed=seed)
    asked = [v for p in players for v in p.views]
    assert all(len(v.options) > 1 or v.kind == "declaration" for v in asked)
    assert all(v.seed == decision_seed(seed, v.seat, v.move) for v in asked)
    forced = [m for m in game.record.moves if m.forced]
    assert len(asked) + len(forced) == len(game.record.moves)
    assert game.record.outcome is not None and game.forfeit is None


class Liar(Player):
    """Plays random moves but answers a card it does not hold at its first card."""

    name = "liar"

    def __init__(self):
        self.inner = make_player("random")

    def decide(self, view):
        if view.kind == "card":
            return next(c for c in view.deal.hands[(view.seat + 1) % 3]) if view.deal else "SA"
        return self.inner.decide(view)


class Crasher(Player):
    name = "crasher"

    def decide(self, view):
        raise PlayerError("the program stopped (exit status 1)")


def test_an_illegal_move_or_a_failed_player_forfeits_the_game_and_names_the_move():
    for bad, reason in [(Crasher(), "crasher: the program stopped"), (Liar(), r"liar: move \d+ \(card of seat 1")]:
        for seed in range(20):
            game = play_deal(Deal.random(seed), [make_player("random"), bad, make_player("random")], seed=seed)
            if game.forfeit is not None:
                break
        forfeit = game.forfeit
        assert forfeit is not None and forfeit.seat == 1 and forfeit.move == len(game.record.moves) + 1
        assert re.match(reason, forfeit.reason), forfeit.reason
        data = Session(("A", "B", "C"), game.record.rules, (game.record,)).to_dict()
        assert Session.from_dict(data).records[0].forfeit == forfeit
