"""How the unseen cards are dealt: the sampling options and the sampler.

A player knows his own cards; the unseen ones are dealt at random, many
times, into the two other hands and the talon. :class:`Sampling` says how
many layouts, from which seed, and what they are conditioned on (cards known
to be in a place, seats known to be void); a :class:`Sampler` draws them,
exactly uniformly among the layouts allowed, the same stream for the same
seed whatever the batch sizes.

>>> s = Sampling(samples=3, seed=1, voids={2: "H"})
>>> deals = sample_deals("A.KT9.KT97.K7", 0, sampling=s)
>>> len(deals), all(not d.hands[2].suit_ranks(3) for d in deals)
(3, True)
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, cast

from ..cards import ALL_CARDS, SUIT_SYMBOLS, Hand, in_hand_order
from ..checks import check_seat, check_seed, whole as _whole
from ..deal import Deal
from ..errors import DealError, PrefsolveError
from ..i18n import N_, _, get_language, shown
from ..notation import suit_of, suit_spellings
from ._common import as_hand

# numpy is imported where it is used, not here: `import prefsolve` (and so every
# command line run, even one that never samples) would otherwise pay its import,
# about half of the CLI's start-up (batch.py does the same).
if TYPE_CHECKING:
    import numpy as np

#: Adaptive sampling adds samples in batches of this size.
BATCH = 100
#: The most layouts one analysis draws. A bid analysis solves a table a layout
#: (about 10 ms on a core): a million is a day of one core, and its layouts
#: are held at once (about 400 bytes each, 0.4 GB). More is a typing slip,
#: refused at once rather than left to fill the memory.
MAX_SAMPLES = 1_000_000
# Voids are first honoured by rejection (cheap while most layouts pass); after
# this many rejected draws for one layout the exact construction takes over, for
# that layout and every later one of the sampler. Either way a layout is uniform
# among the allowed ones, whatever the earlier draws were, so the stream is too.
REJECTION_TRIES = 200
#: The places a known card may be in, in the order results list them.
PLACES: tuple[int | str, ...] = (0, 1, 2, "talon")


class ConstraintError(DealError):
    """Known cards or voids that contradict the hand or each other, or leave no layout."""


class NarrowConditionsError(ConstraintError):
    """Conditions that no layout met, or too few to sample in a bounded number of tries."""


def _suits(value: object, seat: object) -> int:
    """A suit mask (bit per suit) from ``"SH"``, ``"♠♥"``, ``"пч"``, ``"пики, черви"``, ``[0, 3]`` ..."""
    items: list[object]
    if isinstance(value, str):
        items = list(suit_spellings(value))
    elif isinstance(value, int):
        items = [value]
    else:
        try:
            items = list(value)    # type: ignore[call-overload]
        except TypeError:
            raise ConstraintError(_("voids of seat {seat} must be suits such as 'SH' or [0, 3], got {value}",
                                    seat=repr(seat), value=repr(value))) from None
    mask = 0
    for item in items:
        suit = suit_of(item) if isinstance(item, str) else item
        if isinstance(suit, bool) or suit not in (0, 1, 2, 3):
            raise ConstraintError(_("unknown suit {suit} in voids of seat {seat}: expected the letters S C D H (or "
                                    "♠ ♣ ♦ ♥, п т б ч, or 0..3), e.g. 'SH' or 'пч'", suit=repr(item), seat=repr(seat)))
        mask |= 1 << suit
    return mask

#: ``known`` as a Sampling holds it: (place, cards) in the order of :data:`PLACES`.
KnownCards = tuple[tuple[int | str, Hand], ...]
#: ``voids`` as a Sampling holds it: (seat, suit letters ``SCDH``) by seat.
Voids = tuple[tuple[int, str], ...]
#: ``conditions`` as a Sampling holds them: (seat, predicate on that seat's Hand), in the given order.
Conditions = tuple[tuple[int, Callable[[Hand], bool]], ...]
#: A conditioned draw gives up after this many tries without its layouts when
#: fewer than MIN_ACCEPTANCE of them were accepted (rejection sampling would
#: take too long), or after MAX_TRIES tries in any case.
MIN_TRIES = 20_000
MIN_ACCEPTANCE = 0.0005
MAX_TRIES = 2_000_000


@dataclass(frozen=True)
class Sampling:
    """How the unseen cards are dealt, for every analysis: the options of the
    sampling bundled in one immutable object (as python-chess bundles a
    search's limits in ``chess.engine.Limit``). Checked on construction.

    >>> Sampling(samples=500, seed=1)
    Sampling(samples=500, seed=1, adaptive=None, known=(), voids=(), conditions=())
    >>> Sampling(known={"talon": "HA", 1: "SK SQ"}, voids={2: "♥"}).to_dict()["known"]
    {'1': 'SK SQ', 'talon': 'HA'}
    >>> Sampling(samples=0)
    Traceback (most recent call last):
    ...
    prefsolve.errors.PrefsolveError: samples must be a positive whole number, got 0
    """

    samples: int = 1000
    """The number of sampled layouts; with ``adaptive``, the most that are drawn."""

    seed: int | None = None
    """The seed of the layouts' stream (a whole number ≥ 0). ``None`` draws a
    fresh one; a result records the seed it used, so it can be repeated."""

    adaptive: float | None = None
    """Sample in batches of :data:`BATCH` and stop as soon as the standard
    error of the leading choice's expected score is at most this many whists.
    ``None``: draw all ``samples`` at once."""

    known: KnownCards | Mapping[object, object] = ()
    """Cards known to be in a place: a mapping of a seat (0, 1, 2) or
    ``"talon"`` to cards (a hand text such as ``"SK SQ"``, a :class:`Hand`, or
    a list of cards). Held as ``((place, Hand), ...)`` in seat order, talon last."""

    voids: Voids | Mapping[object, object] = ()
    """Seats known to lack suits: a mapping of a seat to suits (``"SH"``,
    ``"♠♥"``, ``[0, 3]``). Held as ``((seat, "SH"), ...)`` by seat."""

    conditions: Conditions | Mapping[object, object] | Iterable[object] = ()
    """Predicates a seat's ten dealt cards must meet, as redeal's accept
    functions: a mapping of a seat to a predicate (or a list of them), or
    ``(seat, predicate)`` pairs, or objects with a ``seat`` that are called with
    the hand (the auction model's :class:`~prefsolve.analysis.auction_model.HandCondition`).
    Layouts that fail one are redrawn, so the accepted ones stay uniform among
    those meeting every condition. A predicate's ``text`` (or its name) says
    it in the outputs. Held as ``((seat, predicate), ...)``."""

    def __post_init__(self) -> None:
        set_ = object.__setattr__      # frozen: the checked values replace the given ones
        set_(self, "samples", check_samples(self.samples))
        set_(self, "seed", check_seed(self.seed))
        set_(self, "adaptive", _check_adaptive(self.adaptive))
        set_(self, "known", _normal_known(self.known))
        set_(self, "voids", _normal_voids(self.voids))
        set_(self, "conditions", _normal_conditions(self.conditions))

    def to_dict(self) -> dict:
        """The JSON form: ``samples``, ``seed``, ``adaptive``, ``known`` {place: cards}, ``voids`` {seat: suits}."""
        return {"samples": self.samples, "seed": self.seed, "adaptive": self.adaptive,
                "known": {str(place): " ".join(str(c) for c in in_hand_order(hand))
                          for place, hand in self.known_cards},
                "voids": {str(seat): suits for seat, suits in self.void_suits},
                "conditions": self.condition_texts()}

    def condition_texts(self) -> list[str]:
        """Each condition in words: its ``text``, else ``seat N: <name of the predicate>``."""
        return [condition_text(seat, pred) for seat, pred in self.hand_conditions]

    @property
    def hand_conditions(self) -> Conditions:
        """``conditions`` as they are held."""
        return cast(Conditions, self.conditions)

    def given_text(self, acceptance: float | None = None) -> str:
        """One line for the text output of what the layouts were conditioned on
        ("" when nothing), in the active language; with ``acceptance``, the
        fraction of the layouts tried that met the conditions."""
        lang = get_language()
        parts = []
        for place, hand in self.known_cards:
            cards = " ".join(c.format(lang) for c in in_hand_order(hand))
            parts.append(_("the talon holds {cards}", cards=cards) if place == "talon"
                         else _("seat {seat} holds {cards}", seat=place, cards=cards))
        parts += [_("seat {seat} void in {suits}", seat=seat,
                    suits=" ".join(SUIT_SYMBOLS["SCDH".index(x)] for x in suits)) for seat, suits in self.void_suits]
        parts += [describe_condition(seat, pred) for seat, pred in self.hand_conditions]
        return given_line(parts, acceptance)

    @property
    def known_cards(self) -> KnownCards:
        """``known`` as it is held (typed for readers of the held form)."""
        return cast(KnownCards, self.known)

    @property
    def void_suits(self) -> Voids:
        """``voids`` as they are held (typed for readers of the held form)."""
        return cast(Voids, self.voids)

    def seeded(self) -> Sampling:
        """This sampling with a seed: its own, or a fresh one drawn now."""
        if self.seed is not None:
            return self
        return Sampling(self.samples, random.SystemRandom().randrange(2**32), self.adaptive,
                        self.known, self.voids, self.conditions)

    def only_samples(self, what: str) -> None:
        """Refuse the options an analysis that samples no layouts of a hand cannot honour."""
        for name in ("adaptive", "known", "voids", "conditions"):
            if getattr(self, name):
                raise PrefsolveError(_("{what} takes no {name} in its sampling, got {name}={value}", what=what,
                                       name=name, value=repr(getattr(self, name))))


def sampling_json(sampling: Sampling, *, samples: int, acceptance: float | None,
                  conditions: Sequence[str] | None = None) -> dict:
    """The sampling part of every analysis's JSON, the same keys in each:
    ``samples`` (the layouts drawn), ``seed``, ``adaptive``, ``known``,
    ``voids``, ``conditions`` (in words; ``conditions`` given here replaces the
    sampling's own texts) and ``acceptance`` (the share of layouts tried that
    met them, null without conditions).

    >>> sampling_json(Sampling(samples=5, seed=2, voids={1: "H"}), samples=5, acceptance=None)["voids"]
    {'1': 'H'}
    """
    given = sampling.to_dict()
    return {"samples": samples, "seed": given["seed"], "adaptive": given["adaptive"],
            "known": given["known"], "voids": given["voids"],
            "conditions": given["conditions"] if conditions is None else list(conditions),
            "acceptance": None if acceptance is None else round(acceptance, 5)}


def check_samples(samples: object) -> int:
    """A positive whole number of samples (numpy integers too, as for seats and
    seeds), at most :data:`MAX_SAMPLES`.

    >>> check_samples(10**11)
    Traceback (most recent call last):
    ...
    prefsolve.errors.PrefsolveError: 100000000000 samples is more than the maximum of 1000000 samples
    """
    value = _whole(samples)
    if value is None or value < 1:
        raise PrefsolveError(_("samples must be a positive whole number, got {value}", value=repr(samples)))
    if value > MAX_SAMPLES:
        raise PrefsolveError(_("{value} samples is more than the maximum of {most} samples", value=value,
                               most=MAX_SAMPLES))
    return value


def _check_adaptive(adaptive: object) -> float | None:
    if adaptive is None:
        return None
    real = not isinstance(adaptive, bool) and isinstance(adaptive, (int, float))
    if not real:
        try:    # numpy floating point numbers
            import numpy as np

            real = isinstance(adaptive, np.floating)
        except ImportError:     # pragma: no cover - numpy is a dependency
            pass
    value = float(cast(float, adaptive)) if real else math.nan
    if not math.isfinite(value) or value <= 0:
        raise PrefsolveError(_("adaptive must be a positive standard error threshold, got {value}",
                               value=repr(adaptive)))
    return value


def _place_key(place: int | str) -> int:
    return PLACES.index(place)


def _normal_known(known: object) -> KnownCards:
    if isinstance(known, tuple) and all(isinstance(p, tuple) and len(p) == 2 and isinstance(p[1], Hand)
                                        for p in known):
        known = dict(known)     # the held form, given again (dataclasses.replace)
    out: dict[int | str, Hand] = {}
    for place, cards in _mapping(known, "known").items():
        if isinstance(place, str) and place.strip().lower() == "talon":
            key: int | str = "talon"
        else:
            seat = _whole(place)
            if seat not in (0, 1, 2):
                raise ConstraintError(_("unknown place {place} for known cards: expected a seat 0, 1, 2 or 'talon'",
                                        place=repr(place)))
            key = seat
        if key in out:
            raise ConstraintError(_("known cards for place {place} are given twice", place=repr(place)))
        out[key] = _known_hand(key, cards)
    return tuple(sorted(out.items(), key=lambda kv: _place_key(kv[0])))


def _normal_voids(voids: object) -> Voids:
    if isinstance(voids, tuple) and all(isinstance(p, tuple) and len(p) == 2 for p in voids):
        voids = dict(voids)     # the held form, given again
    out: dict[int, int] = {}
    for seat, suits in _mapping(voids, "voids").items():
        s = check_seat(seat, _("a void's seat"))
        out[s] = out.get(s, 0) | _suits(suits, seat)
    return tuple((s, "".join("SCDH"[k] for k in range(4) if mask >> k & 1))
                 for s, mask in sorted(out.items()) if mask)


def condition_text(seat: int, predicate: object) -> str:
    """A condition in words, as the JSON gives it: its ``text``, else the predicate's name."""
    text = getattr(predicate, "text", None)
    if isinstance(text, str):
        return text
    return _UNNAMED.format(seat=seat, condition=getattr(predicate, "__name__", repr(predicate)))


#: A condition given as a plain function, by its name.
_UNNAMED = N_("seat {seat}: {condition}")


def describe_condition(seat: int, predicate: object) -> str:
    """A condition in words, in the active language (its ``describe()``, as the
    auction model's conditions say it), else as :func:`condition_text`."""
    describe = getattr(predicate, "describe", None)
    if callable(describe):
        return str(describe())
    text = getattr(predicate, "text", None)
    if isinstance(text, str):
        return text
    return _(_UNNAMED, seat=seat, condition=getattr(predicate, "__name__", repr(predicate)))


def given_line(parts: Sequence[str], acceptance: float | None = None) -> str:
    """"(given: ...; ...)" for the text output, with the share of the layouts
    tried that met the conditions; "" when nothing was given."""
    if not parts:
        return ""
    line = _("(given: {conditions})", conditions="; ".join(parts))
    if acceptance is not None:
        line = _("{given} (layouts meeting the conditions: {share:.2%} of those tried)", given=line,
                 share=acceptance)
    return line


def _normal_conditions(conditions: object) -> Conditions:
    if conditions is None:
        return ()
    items: list[tuple[object, object]] = []
    if isinstance(conditions, Mapping):
        for seat, preds in conditions.items():
            if callable(preds):
                items.append((seat, preds))
            elif isinstance(preds, (list, tuple)):
                items += [(seat, p) for p in preds]
            else:
                raise ConstraintError(_("the condition of seat {seat} must be a predicate on a hand (or a list of "
                                        "them), got {value}", seat=repr(seat), value=repr(preds)))
    else:
        try:
            seq = list(cast(Iterable[object], conditions))
        except TypeError:
            raise ConstraintError(_("conditions must map a seat to predicates, e.g. {{1: lambda h: ...}}, got {value}",
                                    value=repr(conditions))) from None
        for item in seq:
            if isinstance(item, tuple) and len(item) == 2 and callable(item[1]):
                items.append(item)
            elif callable(item) and hasattr(item, "seat"):
                items.append((item.seat, item))
            else:
                raise ConstraintError(_("a condition must be a (seat, predicate) pair or have a seat, got {value}",
                                        value=repr(item)))
    out: list[tuple[int, Callable[[Hand], bool]]] = []
    for seat, pred in items:
        if not callable(pred):
            raise ConstraintError(_("the condition of seat {seat} must be a predicate on a hand, got {value}",
                                    seat=repr(seat), value=repr(pred)))
        try:
            hash(pred)
        except TypeError:
            raise ConstraintError(_("the condition {condition} must be hashable (a Sampling is)",
                                    condition=repr(pred))) from None
        out.append((check_seat(seat, _("a condition's seat")), cast(Callable[[Hand], bool], pred)))
    return tuple(out)


# -- sampling ------------------------------------------------------------------------
def _splits(n: int, allowed: tuple[int, ...], caps: tuple[int, ...]) -> Iterator[dict[int, int]]:
    """Every way to split n cards among the ``allowed`` places within their
    ``caps``, as {place: count} in the order of ``allowed``."""
    if not allowed:
        if n == 0:
            yield {}
        return
    first, rest = allowed[0], allowed[1:]
    room = sum(caps[k] for k in rest)
    for x in range(max(0, n - room), min(n, caps[first]) + 1):
        for tail in _splits(n - x, rest, caps):
            yield {first: x, **tail}


def _multinomial(n: int, counts: Iterable[int]) -> int:
    out = math.factorial(n)
    for x in counts:
        out //= math.factorial(x)
    return out


class Sampler:
    """Random layouts of the unseen cards consistent with what one player knows.

    ``fixed`` maps a place (seat 0..2 or ``"talon"``) to cards it surely
    holds: the player's own hand, cards known to be elsewhere (``known``).
    The rest of the 32 cards is dealt uniformly at random to fill every seat
    to 10 cards and the talon to 2 (``talon=False``: no talon place; then
    ``sizes`` must make the places hold every unseen card, e.g. ``{seat: 12}``
    for a declarer who took the talon). ``voids`` maps
    a seat to suits it cannot hold; they are honoured by rejection while it
    succeeds quickly, else by an exact construction (``_constructed``),
    each of which keeps the layouts exactly uniform among those allowed.

    ``voids_beyond_known``: a void says the seat is dealt no *more* cards of
    the suit than its known ones (a player who showed out after playing some
    of the suit), instead of holding none at all. ``conditions`` are
    predicates on a seat's whole hand; a layout that fails one is drawn again
    (rejection keeps the kept layouts uniform among those allowed), within a
    bounded number of tries (:data:`MIN_TRIES`, :data:`MIN_ACCEPTANCE`,
    :data:`MAX_TRIES`).

    The same seed gives the same stream of layouts, in batches of any size.

    >>> s = Sampler({0: Hand.parse("A.KT9.KT97.K7")}, seed=3, voids={1: "H"})
    >>> deals = s.draw(5)
    >>> all(str(d.hands[0]) == "A.KT9.KT97.K7" and not d.hands[1].suit_ranks(3) for d in deals)
    True
    """

    def __init__(self, fixed: Mapping[object, Hand], seed: int | None = None,
                 voids: Mapping[int, object] | None = None, talon: bool = True,
                 sizes: Mapping[object, int] | None = None, conditions: Conditions = (),
                 voids_beyond_known: bool = False) -> None:
        places: list[object] = [0, 1, 2] + (["talon"] if talon else [])
        size = {0: 10, 1: 10, 2: 10, "talon": 2}
        if sizes:
            size.update(sizes)
        taken = 0
        self._fixed = {p: 0 for p in places}
        for place, hand in fixed.items():
            if place not in places:
                raise ConstraintError(_("unknown place {place} for known cards: expected a seat 0, 1, 2 or 'talon'",
                                        place=repr(place)) if talon else
                                      _("unknown place {place} for known cards: expected a seat 0, 1, 2",
                                        place=repr(place)))
            dup = taken & hand.mask
            if dup:
                card = ALL_CARDS[(dup & -dup).bit_length() - 1]
                raise ConstraintError(_("card {card} is known to be in two places (again in {place})",
                                        card=shown(card), place=repr(place)))
            taken |= hand.mask
            self._fixed[place] |= hand.mask
            if len(Hand(self._fixed[place])) > size[place]:
                raise ConstraintError(_("{place} cannot hold {count} known cards (it has {size})",
                                        place=_place_words(place), count=len(Hand(self._fixed[place])),
                                        size=size[place]))
        self._voids = {}
        for seat, suits in _mapping(voids, "voids").items():
            check_seat(seat, _("a void's seat"))
            smask = _suits(suits, seat)
            cmask = 0
            for s in range(4):
                if smask >> s & 1:
                    cmask |= 0xFF << (8 * s)
            if self._fixed[seat] & cmask and not voids_beyond_known:
                card = ALL_CARDS[((self._fixed[seat] & cmask) & -(self._fixed[seat] & cmask)).bit_length() - 1]
                raise ConstraintError(_("seat {seat} is void in {suits} but holds {card}", seat=seat, suits=repr(suits),
                                        card=shown(card)))
            if cmask:
                self._voids[seat] = cmask
        self._places = places
        self._beyond = voids_beyond_known
        self._need = [size[p] - self._fixed[p].bit_count() for p in places]
        self._unseen = [c for c in ALL_CARDS if not taken >> c.index & 1]
        if sum(self._need) != len(self._unseen):
            raise ConstraintError(_("{unseen} unseen cards cannot fill the {places} places left",
                                    unseen=len(self._unseen), places=sum(self._need)))
        self.seed = seed
        self._rng = random.Random(seed)
        self.drawn = 0
        self._groups: list[tuple[tuple[int, ...], list[int]]] | None = None   # see _constructed
        self._memo: dict[tuple[int, tuple[int, ...]], int] = {}
        self.conditions = tuple(conditions)
        for seat, _predicate in self.conditions:
            if seat not in (0, 1, 2):
                raise ConstraintError(_("a condition's seat must be 0, 1 or 2, got {value}", value=repr(seat)))
        self.tried = 0
        self.accepted = 0

    @property
    def acceptance(self) -> float | None:
        """The fraction of the layouts tried that met every condition (``None`` without conditions)."""
        if not self.conditions or not self.tried:
            return None
        return self.accepted / self.tried

    def _meets(self, masks: list[int]) -> bool:
        return all(pred(Hand(masks[seat])) for seat, pred in self.conditions)

    def _give_up(self, wanted: int) -> None:
        texts = "; ".join(describe_condition(seat, pred) for seat, pred in self.conditions)
        if not self.accepted:
            raise NarrowConditionsError(_("no layout of {tried} tried meets the conditions ({conditions}): they cannot "
                                          "hold together with the known cards, or are far too narrow",
                                          tried=self.tried, conditions=texts))
        raise NarrowConditionsError(_("the conditions accept only {share:.3%} of layouts ({accepted} of {tried} "
                                      "tried), too few to sample {wanted} layouts: widen the tolerance or drop a "
                                      "condition ({conditions})", share=self.accepted / self.tried,
                                      accepted=self.accepted, tried=self.tried, wanted=wanted, conditions=texts))

    def _accepted_one(self, wanted: int) -> list[int]:
        while True:
            masks = self._one()
            self.tried += 1
            if self._meets(masks):
                self.accepted += 1
                return masks
            if self.tried >= MAX_TRIES or (self.tried >= MIN_TRIES
                                           and self.accepted < MIN_ACCEPTANCE * self.tried):
                self._give_up(wanted)

    def _one(self) -> list[int]:
        if self._groups is not None:
            # Rejection failed once: the voids are rare, so construct from now on
            # (each layout is uniform whichever method draws it).
            return self._constructed()
        for _try in range(REJECTION_TRIES if self._voids else 1):
            self._rng.shuffle(self._unseen)
            masks, i = [], 0
            for place, need in zip(self._places, self._need):
                m = self._fixed[place]
                for c in self._unseen[i:i + need]:
                    m |= 1 << c.index
                i += need
                masks.append(m)
            if all(not (masks[s] & ~self._fixed[s] if self._beyond else masks[s]) & v
                   for s, v in self._voids.items()):
                return masks
        return self._constructed()

    def _constructed(self) -> list[int]:
        """One layout drawn exactly uniformly among those the voids allow, by
        counting: the unseen cards of a suit may go to the same places, so the
        cards fall into at most four groups; how many of a group each place
        gets is drawn with weight (ways to choose those cards) × (ways to
        place the remaining groups), then which cards, uniformly."""
        if self._groups is None:
            groups: dict[tuple[int, ...], list[int]] = {}
            for c in self._unseen:
                allowed = tuple(k for k, place in enumerate(self._places) if self._need[k]
                                and not (self._voids.get(place, 0) >> c.index) & 1)
                groups.setdefault(allowed, []).append(c.index)
            self._groups = sorted(groups.items())
        if self._ways(0, tuple(self._need)) == 0:     # memoised: every call says so, not just the first
            raise ConstraintError(_("no layout fits the voids and known cards: the unseen cards cannot fill every "
                                    "place without breaking a void"))
        caps = tuple(self._need)
        masks = [self._fixed[place] for place in self._places]
        for g, (allowed, group) in enumerate(self._groups):
            pick = self._rng.randrange(self._ways(g, caps))
            for counts in _splits(len(group), allowed, caps):
                rest = tuple(c - counts.get(k, 0) for k, c in enumerate(caps))
                weight = _multinomial(len(group), counts.values()) * self._ways(g + 1, rest)
                if pick < weight:
                    break
                pick -= weight
            cards = list(group)
            self._rng.shuffle(cards)
            i = 0
            for k, n in counts.items():
                for index in cards[i:i + n]:
                    masks[k] |= 1 << index
                i += n
            caps = rest
        return masks

    def _ways(self, g: int, caps: tuple[int, ...]) -> int:
        """Layouts of groups g, g+1, … into places with ``caps`` free slots."""
        assert self._groups is not None
        if g == len(self._groups):
            return 1 if not any(caps) else 0
        key = (g, caps)
        if key not in self._memo:
            n = len(self._groups[g][1])
            total = 0
            for counts in _splits(n, self._groups[g][0], caps):
                rest = tuple(c - counts.get(k, 0) for k, c in enumerate(caps))
                total += _multinomial(n, counts.values()) * self._ways(g + 1, rest)
            self._memo[key] = total
        return self._memo[key]

    def fits(self, deal: Deal) -> bool:
        """Whether ``deal`` is one of the layouts this sampler draws from: every known card
        in its place, no void broken, every condition met. A layout drawn under fewer
        constraints (an earlier decision's) that fits is as likely as any other that fits,
        so the layouts that fit may be used as drawn here.

        >>> s = Sampler({0: Hand.parse("A.KT9.KT97.K7")}, seed=3, voids={1: "H"})
        >>> [s.fits(d) for d in s.draw(3)], s.fits(Deal.random(1))
        ([True, True, True], False)
        """
        masks = [h.mask for h in deal.hands]
        if "talon" in self._places:
            if deal.talon is None:
                return False
            masks.append(deal.talon.mask)
        for k, place in enumerate(self._places):
            if self._fixed[place] & ~masks[k] or masks[k].bit_count() != self._fixed[place].bit_count() + self._need[k]:
                return False
        for seat, v in self._voids.items():
            if (masks[seat] & ~self._fixed[seat] if self._beyond else masks[seat]) & v:
                return False
        return self._meets(masks)

    def draw_masks(self, n: int) -> list[list[int]]:
        """The next ``n`` layouts as card masks of seats 0, 1, 2 (and the talon)."""
        if self.conditions:
            out = [self._accepted_one(n) for _ in range(n)]
        else:
            out = [self._one() for _ in range(n)]
        self.drawn += n
        return out

    def draw(self, n: int) -> list[Deal]:
        """The next ``n`` layouts of the stream as deals."""
        return [Deal([Hand(m) for m in ms[:3]], Hand(ms[3]) if len(ms) == 4 else None)
                for ms in self.draw_masks(n)]


def _mapping(value: object, what: str) -> Mapping:
    """``known`` and ``voids`` map a place to cards or suits; None is empty."""
    if value is None:
        return {}
    if not isinstance(value, Mapping):
        if what == "known":
            raise ConstraintError(_("{what} must map a seat (or 'talon') to cards, e.g. {{1: 'SA SK'}}, got {value}",
                                    what=what, value=repr(value)))
        raise ConstraintError(_("{what} must map a seat to suits, e.g. {{2: 'H'}}, got {value}", what=what,
                                value=repr(value)))
    return value


def _place_words(place: object) -> str:
    """A place of known cards in words, for an error: the talon, or a seat."""
    return _("the talon") if place == "talon" else _("seat {seat}", seat=place)


def _known_hand(place: object, cards: object) -> Hand:
    """The known cards of a place (a seat or ``"talon"``) as a Hand: a hand
    text, a Hand or a collection of cards."""
    if isinstance(cards, Hand):
        return cards
    if isinstance(cards, str):
        return Hand.parse(cards)
    if isinstance(cards, (list, tuple, set, frozenset)):
        return Hand(cards)      # a collection of cards (Card or text)
    # An integer would be read as a bit mask, None as nothing: neither is a hand.
    raise ConstraintError(_("known cards for {place} must be a hand text, a Hand or a list of cards, got {value}",
                            place=_place_words(place), value=repr(cards)))


def _known_hands(known: Mapping[object, object] | None, own_seat: int, own: Hand,
                 places: Sequence[object]) -> dict:
    """Known cards of other places as Hands; a card of the player's own hand is an error."""
    out: dict = {own_seat: own}
    for place, cards in _mapping(known, "known").items():
        if place == own_seat:
            raise ConstraintError(_("known cards for seat {seat}: that is the player's own seat", seat=place))
        if place not in places:
            raise ConstraintError(_("unknown place {place} for known cards: expected one of {places}",
                                    place=repr(place), places=", ".join(repr(p) for p in places if p != own_seat)))
        hand = _known_hand(place, cards)
        dup = hand.mask & own.mask
        if dup:
            card = ALL_CARDS[(dup & -dup).bit_length() - 1]
            raise ConstraintError(_("known card {card} for {place} is in the player's own hand {hand}",
                                    card=shown(card), place=_place_words(place), hand=repr(str(own))))
        out[place] = hand
    return out



#: The sampling an analysis uses when given none: 1 000 layouts, a fresh seed.
DEFAULT_SAMPLING = Sampling()


def sample_deals(hand: Hand | str, seat: int = 0, *, sampling: Sampling = DEFAULT_SAMPLING) -> list[Deal]:
    """The layouts the analyses of ``hand`` draw for the same sampling (for checks and reuse).

    >>> len(sample_deals("A.KT9.KT97.K7", sampling=Sampling(samples=3, seed=1)))
    3
    """
    hand = as_hand(hand)
    seat = check_seat(seat, "seat")
    sampling = _check_sampling(sampling)
    fixed = _known_hands(dict(sampling.known_cards), seat, hand, PLACES)
    sampling = sampling.seeded()
    return Sampler(fixed, sampling.seed, dict(sampling.void_suits),
                   conditions=sampling.hand_conditions).draw(sampling.samples)


def _check_sampling(sampling: object) -> Sampling:
    if not isinstance(sampling, Sampling):
        raise PrefsolveError(_("sampling must be a Sampling, e.g. Sampling(samples=500, seed=1), got {value}",
                               value=repr(sampling)))
    return sampling


def start(sampling: object, hand: Hand, seat: int, places: Sequence[object] = PLACES,
          **options) -> tuple[Sampling, Sampler]:
    """The sampling with its seed (drawn when none is given) and the sampler of
    layouts around ``hand`` at ``seat``, for an analysis."""
    sampling = _check_sampling(sampling).seeded()
    fixed = _known_hands(dict(sampling.known_cards), seat, hand, places)
    return sampling, Sampler(fixed, sampling.seed, dict(sampling.void_suits),
                             conditions=sampling.hand_conditions, **options)


def sample_adaptively(sampling: Sampling, draw: Callable[[int], np.ndarray],
                      lead_se: Callable[[np.ndarray], float]) -> np.ndarray:
    """Draw all ``sampling.samples`` at once, or in batches of :data:`BATCH`
    until the leading choice's standard error is at most ``sampling.adaptive``."""
    import numpy as np  # on use: see the note at the module's imports
    if sampling.adaptive is None:
        return draw(sampling.samples)
    parts: list[np.ndarray] = []
    n = 0
    while n < sampling.samples:
        k = min(BATCH, sampling.samples - n)
        parts.append(draw(k))
        n += k
        values = np.concatenate(parts)
        if n >= 2 and lead_se(values) <= sampling.adaptive:
            break
    return np.concatenate(parts)
