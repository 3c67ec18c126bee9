"""Rules profiles: every configurable convention of RULES.md §7.

A :class:`Rules` object is an immutable set of switches; the named profiles
are ``classic`` (the classic rule book, RULES.md §7.2), ``sochi``, ``leningrad``
and ``rostov``. Switches are changed with :meth:`Rules.replace` or from a
game file's ``"switches"`` object with :meth:`Rules.from_dict`::

    >>> r = Rules.profile("leningrad")
    >>> r.whist_price_multiplier, r.raspasy_progression
    (2, '2-4-6')
    >>> r.replace(raspasy_progression="2-4-8").raspasy_progression
    '2-4-8'
    >>> Rules.profile("moscow")
    Traceback (most recent call last):
    ...
    prefsolve.errors.RulesError: unknown rules profile 'moscow' (expected one of: classic, sochi, leningrad, rostov)
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, fields
from typing import Any

from prefsolve.errors import RulesError
from prefsolve.i18n import _

PROFILES = ("classic", "sochi", "leningrad", "rostov")

#: Price per raspasy trick for the 1st, 2nd, 3rd… consecutive all-pass (RULES.md §5.8).
PROGRESSIONS: dict[str, tuple[int, ...]] = {
    "1-2-3": (1, 2, 3),
    "2-4-6": (2, 4, 6),
    "2-4-8": (2, 4, 8),
    "1-2-4": (1, 2, 4),
    "flat": (1,),
}

#: Minimum game level after 0 / 1 / 2+ consecutive all-pass deals (RULES.md §2.6).
RASPASY_EXITS: dict[str, tuple[int, ...]] = {
    "simple": (6, 6, 6),
    "constrained": (6, 7, 7),
    "strict": (6, 7, 8),
}

# How --set NAME=VALUE spells a yes/no switch.
_TRUE_WORDS = ("true", "yes", "on", "1")
_FALSE_WORDS = ("false", "no", "off", "0")

# Allowed values of every switch with a closed set of values.
_CHOICES: dict[str, tuple[Any, ...]] = {
    "players": (3, 4),
    "first_lead": ("first_hand", "left_of_declarer"),
    "misere_binding": (True, False),
    "hold": ("senior_when_two_left", "off", "first_hand_only"),
    "hold_6s_allowed": (False, True),
    "raspasy_exit": tuple(RASPASY_EXITS),
    "ladder_extensions": ("none", "hand_games"),
    "half_whist": ("no_play", "played", "off"),
    "ten_whist": ("obligation1", "checked"),
    "stalingrad": (False, True),
    "two_whister_shortfall": ("individual", "one_unit"),
    "two_whister_high": ("second", "each"),
    "whist_price_multiplier": (1, 2),
    "mountain_multiplier": (1, 2),
    "whist_responsibility": ("full", "half"),
    "lone_whister": ("greedy", "gentleman"),
    "consolation": ("defenders", "all", "none"),
    "consolation_price": ("whist_price", "value", "fixed10"),
    "remise_mountain": (True, False),
    "misere_fail_per_trick": (10, 20),
    "misere_fail": ("mountain", "mountain_and_consolation", "whists"),
    "raspasy_scoring": ("mountain", "rostov"),
    "raspasy_progression": tuple(PROGRESSIONS),
    "raspasy_amnesty": (True, False),
    "raspasy_zero_bonus": ("trick_price", "stage", "one"),
    "raspasy_talon": ("sets_suit", "ignored"),
    "rostov_raspasy_tie": ("floor_half", "split"),
    "pool_closure": ("american_aid", "table_total"),
    "pool_point_whists": (10, 20),
    "mountain_point_whists": (10,),
    "aid_whists_per_point": (10,),
    "settlement_divisor": ("N", "N-1"),
    "dealer_talon_whists": (False, True),
    "dealer_talon_whists_misere": (True, False),
    "dealer_rotation": ("every_deal", "stays_after_allpass_and_caught_misere", "unchecked"),
}


@dataclass(frozen=True)
class Rules:
    """One value per switch of RULES.md §7.1; the defaults are the Sochi profile.

    Auction switches: ``misere_binding`` (RULES.md §2.3), ``hold`` and
    ``hold_6s_allowed`` (RULES.md §2.4), ``raspasy_exit`` (RULES.md §2.6),
    ``ladder_extensions`` (RULES.md §2.5; ``"hand_games"`` is the classic
    ladder with games and misère without talon). Whist switches:
    ``half_whist`` (RULES.md §3.2), ``ten_whist`` (RULES.md §3.4),
    ``stalingrad`` (RULES.md §3.5), ``two_whister_shortfall`` and
    ``two_whister_high`` (RULES.md §3.6). Scoring switches are described in
    RULES.md §5 and §6; ``pool_target`` is per player with American aid, or
    the table total when ``pool_closure="table_total"``. ``dealer_rotation``
    (RULES.md §1.5) checks who deals each deal of a score sheet;
    ``allpass_dealer_limit`` caps how many all-passes in a row one dealer
    deals when the deal stays.
    """

    name: str = "sochi"
    players: int = 3
    first_lead: str = "first_hand"
    misere_binding: bool = True
    hold: str = "senior_when_two_left"
    hold_6s_allowed: bool = False
    raspasy_exit: str = "strict"
    ladder_extensions: str = "none"
    half_whist: str = "no_play"
    ten_whist: str = "checked"
    stalingrad: bool = False
    two_whister_shortfall: str = "individual"
    two_whister_high: str = "second"
    whist_price_multiplier: int = 1
    mountain_multiplier: int = 1
    whist_responsibility: str = "full"
    lone_whister: str = "greedy"
    consolation: str = "defenders"
    consolation_price: str = "whist_price"
    remise_mountain: bool = True
    misere_fail_per_trick: int = 10
    misere_fail: str = "mountain"
    raspasy_scoring: str = "mountain"
    raspasy_progression: str = "1-2-3"
    raspasy_amnesty: bool = True
    raspasy_zero_bonus: str = "trick_price"
    raspasy_talon: str = "sets_suit"
    rostov_raspasy_whists: int = 5
    rostov_raspasy_tie: str = "floor_half"
    pool_target: int = 10
    pool_closure: str = "american_aid"
    pool_point_whists: int = 10
    mountain_point_whists: int = 10
    aid_whists_per_point: int = 10
    settlement_divisor: str = "N"
    dealer_talon_whists: bool = False
    #: With dealer_talon_whists: also on a misère taken with the talon, 10 per seven
    #: (RULES.md §5.9); the classic book prices only the tricks the talon brought.
    dealer_talon_whists_misere: bool = True
    dealer_rotation: str = "every_deal"
    #: Under ``dealer_rotation="stays_after_allpass_and_caught_misere"``: the
    #: all-pass deals one dealer deals in a row before the deal moves on anyway
    #: (three in the classic book, RULES.md §1.5); 0 = no limit.
    allpass_dealer_limit: int = 3

    def __post_init__(self) -> None:
        for name, choices in _CHOICES.items():
            value = getattr(self, name)
            if value not in choices or type(value) is not type(choices[0]):
                # Yes/no switches come from Python (True) and JSON files (true) alike.
                if type(choices[0]) is bool:
                    raise RulesError(_("bad value {value} for switch {name} (expected true or false)",
                                       value=repr(value), name=repr(name)))
                raise RulesError(_("bad value {value} for switch {name} (expected one of: {choices})",
                                   value=repr(value), name=repr(name), choices=", ".join(repr(c) for c in choices)))
        for name in ("pool_target", "rostov_raspasy_whists"):
            value = getattr(self, name)
            if type(value) is not int or value <= 0:
                raise RulesError(_("bad value {value} for switch {name} (expected a positive integer)",
                                   value=repr(value), name=repr(name)))
        value = self.allpass_dealer_limit
        if type(value) is not int or value < 0:
            raise RulesError(_("bad value {value} for switch 'allpass_dealer_limit' (expected a whole number >= 0; "
                               "0 = no limit)", value=repr(value)))

    # -- construction ---------------------------------------------------------
    @classmethod
    def profile(cls, name: str) -> Rules:
        """The named profile: ``classic``, ``sochi``, ``leningrad`` or ``rostov``.

        >>> Rules.profile("classic").ladder_extensions
        'hand_games'
        """
        key = str(name).strip().lower()
        if key not in _PROFILE_SWITCHES:
            raise RulesError(_("unknown rules profile {name} (expected one of: {profiles})", name=repr(name),
                               profiles=", ".join(PROFILES)))
        return cls(name=key, **_PROFILE_SWITCHES[key])

    @classmethod
    def of(cls, rules: Rules | str | None) -> Rules:
        """``rules`` itself, the profile it names, or the default (Sochi) for None:
        what every function taking ``rules`` accepts.

        >>> Rules.of("leningrad").name, Rules.of(None).name
        ('leningrad', 'sochi')
        >>> Rules.of(3)
        Traceback (most recent call last):
        ...
        prefsolve.errors.RulesError: rules must be a Rules object or a profile name, got 3
        """
        if rules is None:
            return cls()
        if isinstance(rules, Rules):
            return rules
        if isinstance(rules, str):
            return cls.profile(rules)
        raise RulesError(_("rules must be a Rules object or a profile name, got {value}", value=repr(rules)))

    def replace(self, **switches: Any) -> Rules:
        """A copy with some switches changed; unknown names raise :class:`RulesError`.

        >>> Rules.profile("sochi").replace(stalingrad=True).stalingrad
        True
        >>> Rules().replace(greedy=True)
        Traceback (most recent call last):
        ...
        prefsolve.errors.RulesError: unknown switch 'greedy'
        """
        known = switch_names()
        for key in switches:
            if key not in known:
                raise RulesError(_("unknown switch {name}", name=repr(key)))
        return dataclasses.replace(self, **switches)

    @classmethod
    def from_dict(cls, data: Mapping[str, Any], base: str | Rules = "sochi") -> Rules:
        """Rules from a mapping of switches over a base profile (name or Rules).

        A ``"profile"`` key in the mapping selects the base profile.

        >>> Rules.from_dict({"profile": "rostov", "pool_target": 20}).pool_target
        20
        """
        if not isinstance(data, Mapping):
            raise RulesError(_("switches must be an object, got {value}", value=repr(data)))
        items = dict(data)
        base = items.pop("profile", base)
        rules = base if isinstance(base, Rules) else cls.profile(base)
        return rules.replace(**items)

    def with_settings(self, settings: Iterable[str]) -> Rules:
        """A copy with switches set from ``NAME=VALUE`` texts (the command
        line's ``--set``); each value is read as its switch's type: true/false
        (also yes/no, on/off, 1/0), a whole number, or a word.

        >>> Rules.profile("sochi").with_settings(["stalingrad=true", "pool_target=20"]).label
        'sochi with pool_target=20, stalingrad=True'
        """
        known = switch_names()
        changes: dict[str, Any] = {}
        if isinstance(settings, str):   # one setting, not a string of one-letter ones
            settings = [settings]
        for text in settings:
            name, sep, raw = str(text).partition("=")
            name, raw = name.strip(), raw.strip()
            if not sep or not name:
                raise RulesError(_("a setting is NAME=VALUE, e.g. stalingrad=true, got {text}", text=repr(text)))
            if name == "players":
                raise RulesError(_("the number of players is not a setting: it is 3 at the table, or the players "
                                   "named in a game file"))
            if name not in known:
                raise RulesError(_("unknown switch {name} (switches: {switches})", name=repr(name),
                                   switches=", ".join(sorted(set(known) - {"players"}))))
            kind = type(getattr(self, name))
            if kind is bool:
                word = raw.lower()
                if word not in _TRUE_WORDS + _FALSE_WORDS:
                    raise RulesError(_("switch {name} is true or false, got {value}", name=repr(name), value=repr(raw)))
                changes[name] = word in _TRUE_WORDS
            elif kind is int:
                try:
                    changes[name] = int(raw)
                except ValueError:
                    raise RulesError(_("switch {name} takes a whole number, got {value}", name=repr(name),
                                       value=repr(raw))) from None
            else:
                changes[name] = raw
        return self.replace(**changes)

    def to_dict(self) -> dict[str, Any]:
        """All switches as a plain dict (the ``name`` included)."""
        return dataclasses.asdict(self)

    @property
    def label(self) -> str:
        """The profile's name, with the switches that differ from it (results
        and their text name the rules they were computed under).

        >>> Rules.profile("sochi").label
        'sochi'
        >>> Rules.profile("sochi").replace(ten_whist="obligation1", stalingrad=True).label
        "sochi with stalingrad=True, ten_whist='obligation1'"
        """
        base = Rules.profile(self.name) if self.name in _PROFILE_SWITCHES else Rules()
        changed = [f"{key}={value!r}" for key, value in sorted(self.to_dict().items())
                   if key not in ("name", "players") and getattr(base, key) != value]
        return f"{self.name} with {', '.join(changed)}" if changed else self.name

    # -- derived values -------------------------------------------------------
    def raspasy_price(self, stage: int) -> int:
        """Price per trick of the ``stage``-th consecutive all-pass (1-based).

        >>> [Rules.profile("sochi").raspasy_price(k) for k in (1, 2, 3, 4)]
        [1, 2, 3, 3]
        """
        prog = PROGRESSIONS[self.raspasy_progression]
        return prog[self.raspasy_stage(stage) - 1]

    def raspasy_stage(self, stage: int) -> int:
        """The progression stage actually used: ``stage`` capped at the last step.

        The price stops growing at the last step of the progression (RULES.md §5.8),
        and so does the ``raspasy_zero_bonus="stage"`` pool bonus.

        >>> [Rules.profile("leningrad").raspasy_stage(k) for k in (1, 2, 3, 4, 9)]
        [1, 2, 3, 3, 3]
        >>> Rules.profile("rostov").raspasy_stage(4)  # flat: one step
        1
        """
        return min(max(stage, 1), len(PROGRESSIONS[self.raspasy_progression]))

    def min_game_level(self, allpass_count: int) -> int:
        """Lowest game level that may be bid after ``allpass_count`` all-passes (RULES.md §2.6).

        >>> [Rules.profile("sochi").min_game_level(k) for k in (0, 1, 2, 5)]
        [6, 7, 8, 8]
        """
        exits = RASPASY_EXITS[self.raspasy_exit]
        return exits[min(max(allpass_count, 0), len(exits) - 1)]

    def opening_leader(self, declarer: int | None) -> int:
        """The seat that leads trick 1 (RULES.md §1.6): first hand (seat 0), or
        under ``first_lead="left_of_declarer"`` the declarer's left. All-pass
        (``declarer=None``) is always led by first hand.

        >>> Rules.profile("sochi").opening_leader(2), Rules().replace(first_lead="left_of_declarer").opening_leader(2)
        (0, 0)
        >>> Rules().replace(first_lead="left_of_declarer").opening_leader(1)
        2
        """
        if declarer is None or self.first_lead == "first_hand":
            return 0
        if isinstance(declarer, bool) or declarer not in (0, 1, 2):
            raise RulesError(_("the declarer must be a seat 0, 1 or 2, got {value}", value=repr(declarer)))
        return (declarer + 1) % 3


def switch_names() -> tuple[str, ...]:
    """Names of all switches (every field but ``name``)."""
    return tuple(f.name for f in fields(Rules) if f.name != "name")


# Profile values. Each deviation from the Rules defaults (Sochi) cites its source.
_PROFILE_SWITCHES: dict[str, dict[str, Any]] = {
    # Sochi (RULES.md §7.2): responsible, greedy whist, consolation, raspasy 1-2-3
    # to the mountain with amnesty, 0 tricks = price of one trick, a 10 checked.
    "sochi": {},
    # Leningrad (RULES.md §7.2): whist price ×2, mountain ×2, half-responsible,
    # gentleman whist, misère 20/trick, raspasy 2-4-6 without amnesty, hard exit,
    # 0 tricks = the stage, pool point = 20 whists, table-total closure, a 10
    # obliges one trick. The total of 30 is 10 a player × 3 (RULES.md §6.1); no
    # rule book gives a Leningrad length.
    "leningrad": {
        "whist_price_multiplier": 2,
        "mountain_multiplier": 2,
        "whist_responsibility": "half",
        "lone_whister": "gentleman",
        "misere_fail_per_trick": 20,
        "raspasy_progression": "2-4-6",
        "raspasy_amnesty": False,
        "raspasy_zero_bonus": "stage",
        "pool_point_whists": 20,
        "pool_closure": "table_total",
        "pool_target": 30,
        "ten_whist": "obligation1",
    },
    # Rostov (RULES.md §7.2), the savanto/pref parameter set: half-responsible whist,
    # gentleman on remise, fixed 10-whist consolation per undertrick, misère
    # failure = mountain + consolation, raspasy = 5 whists per trick to the
    # player with fewest tricks, +1 pool for 0 tricks, talon ignored; simple
    # exit from all-pass and a 10 that obliges one trick.
    "rostov": {
        "whist_responsibility": "half",
        "lone_whister": "gentleman",
        "consolation_price": "fixed10",
        "misere_fail": "mountain_and_consolation",
        "raspasy_scoring": "rostov",
        "raspasy_progression": "flat",
        "raspasy_amnesty": False,
        "raspasy_zero_bonus": "one",
        "raspasy_talon": "ignored",
        "raspasy_exit": "simple",
        "ten_whist": "obligation1",
    },
    # Classic, the rule book of RULES.md §7.2: binding misère, misère overcalled
    # only by a 9 without talon or any 10, games without talon (RULES.md §2.5); no
    # hold and no raspasy exit are mentioned; a 10 is not whisted (both defenders
    # "catch" the declarer), so ten_whist="checked": the 10 is always played,
    # never passed out (RULES.md §3.4). Old progression ×1 ×2 ×4 (RULES.md §5.8)
    # and the dealer's talon whists for the tricks the talon brought only:
    # «туз или марьяж — 1 взятка, туз + король — 2, два туза — 3», nothing on a
    # misère (RULES.md §5.9). The deal does not move after all-pass or a caught
    # misère, «кроме распасов и пойманного мизера» (RULES.md §1.5). Scoring
    # otherwise Sochi-like, with the book's literal choices: the defenders say
    # whist or pass, no half-whist (RULES.md §3.2); the sitting-out dealer earns
    # only what the book lists (pool in a shared game, talon whists, whisting
    # for the partners), so no consolation from him (RULES.md §5.5).
    "classic": {
        "dealer_rotation": "stays_after_allpass_and_caught_misere",
        "ladder_extensions": "hand_games",
        "hold": "off",
        "half_whist": "off",
        "raspasy_exit": "simple",
        "raspasy_progression": "1-2-4",
        "raspasy_amnesty": False,
        "dealer_talon_whists": True,
        "dealer_talon_whists_misere": False,
    },
}
