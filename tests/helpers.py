"""Conversions between the reference solver's card strings and prefsolve objects."""

from prefsolve.cards import Card, mask_of_cards

TRUMPS = {"S": "S", "C": "C", "D": "D", "H": "H", "NT": None, "misere": None}


def masks(hands):
    return [mask_of_cards(Card.parse(c) for c in h) for h in hands]


def index(card):
    return Card.parse(card).index


def hands_text(hands):
    """A '|'-separated deal text from lists of card strings."""
    return "|".join(" ".join(h) for h in hands)
