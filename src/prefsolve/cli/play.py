"""The ``play`` and ``allpass`` commands.

* ``prefsolve play DEAL --declarer 1 --strain H --played "SA S7 S8 D9"``: the
  position after the played cards, the value of every legal card (the
  counted seat's total tricks after it, with perfect play), the optimal cards
  marked and the mistakes of the played cards. A game or misère on a deal
  with a talon starts after the declarer's best discard, as ``solve`` finds
  it (``--talon-mode ignore`` plays the hands as given). ``--interactive``
  opens a session in which the user plays cards (or ``undo``, ``best``,
  ``quit``) and sees the values after each one; on a terminal the board is
  redrawn in place.
* ``prefsolve allpass DEAL [--talon-mode lead|ignore] [--turn "HK SQ"]``: the
  fewest tricks each player can be sure of in all-pass, with one line each.

``python -m prefsolve.cli.play`` runs both commands without the main group.

>>> import json
>>> from click.testing import CliRunner
>>> from prefsolve.allpass import allpass_table
>>> deal = "A.KT9.KT97.K7 JT97.A7.8.Q98 KQ.J8.AQJ.AJT 8.Q.-.-"
>>> out = json.loads(CliRunner().invoke(allpass, [deal, "--json"]).output)
>>> out["tricks"] == list(allpass_table(deal).tricks)      # the API's answer, seat by seat
True
"""

from __future__ import annotations

import sys
from collections.abc import Mapping

import click

from ..allpass import allpass_table, solve_allpass
from ..cards import Card, parse_cards
from ..errors import CardError, PrefsolveError
from ..i18n import N_, _, get_language, ngettext
from ..play import Position
from ..strains import ALLPASS, TAKE, parse_strain
from ._common import (
    PrefsolveGroup,
    command,
    deal_argument,
    echo,
    emit_json,
    json_option,
    leader_option,
    play_header,
    talon_mode_option,
)

COMMANDS_HELP = N_("Type a card (e.g. SA), or several, to play them; 'undo' takes the last card back, "
                   "'best' shows an optimal line from here, 'help' this list, 'quit' leaves.")
#: The words of an interactive session, in either language: (English, Russian) for each command.
WORDS = {"quit": ("quit", "q", "exit", "выход"), "help": ("help", "?", "h", "помощь"),
         "undo": ("undo", "u", "отмена", "о"), "best": ("best", "b", "лучший", "л")}
#: ANSI: cursor home and clear the screen, so that the board is redrawn in place.
CLEAR_SCREEN = "\x1b[H\x1b[2J"


def _header(pos: Position) -> str:
    if pos.strain == ALLPASS:
        lang = get_language()
        if not pos.turn:
            return _("All-pass, tricks counted for seat {seat}; seat {leader} leads", seat=pos.seat, leader=pos.leader)
        cards = [c.format(lang) for c in pos.turn]
        if len(cards) == 1:
            return _("All-pass, tricks counted for seat {seat}; the talon leads trick 1: {card}", seat=pos.seat,
                     card=cards[0])
        return _("All-pass, tricks counted for seat {seat}; the talon leads tricks 1-2: {first} then {second}",
                 seat=pos.seat, first=cards[0], second=cards[1])
    assert pos.declarer is not None
    return play_header(pos.declarer, pos.strain, pos.leader)


def format_position(pos: Position, values: Mapping[Card, int] | None = None, mistakes=None) -> str:
    """The position as text: cards left, tricks played, the table, card values."""
    lang = get_language()
    rows = [_header(pos), "", _("Cards left:")]
    rows += ["  " + _("Seat {seat}: {cards}", seat=s, cards=h.symbols(lang) or "-") for s, h in enumerate(pos.hands)]
    if pos.played_tricks:
        rows += [_("Tricks played:")]
        rows += ["  " + _("Trick {number}: {cards}", number=i, cards=t.format())
                 for i, t in enumerate(pos.played_tricks, 1)]
    won = ", ".join(_("seat {seat} {tricks}", seat=s, tricks=n) for s, n in enumerate(pos.tricks_won))
    rows.append(_("Tricks won: {won}", won=won))
    if pos.is_over():
        count = pos.tricks_won[pos.counted_seat]
        if pos.strain != ALLPASS:
            rows.append(ngettext("The play is over: the declarer took {n} trick.",
                                 "The play is over: the declarer took {n} tricks.", count))
        else:
            rows.append(ngettext("The play is over: seat {seat} took {n} trick.",
                                 "The play is over: seat {seat} took {n} tricks.", count, seat=pos.seat))
    else:
        on_table = pos.current_trick.format() if (pos.trick or pos.talon_card) else _("empty")
        rows.append(_("Trick {number} on the table: {cards}", number=pos.trick_number, cards=on_table))
        values = pos.card_values() if values is None else values
        rows += _value_rows(pos, values)
    if mistakes:
        rows.append(_("Mistakes in the played cards:"))
        rows += [f"  {m.format()}" for m in mistakes]
    elif mistakes is not None and pos.played:
        rows.append(_("No mistakes in the played cards."))
    return "\n".join(rows)


def _value_rows(pos: Position, values: Mapping[Card, int]) -> list[str]:
    """The line on who plays and what the values count, then a row per legal card."""
    best = set(pos.best_cards(values))
    mover = pos.to_move
    assert mover is not None   # the play is not over
    if pos.strain == ALLPASS and mover != pos.seat:
        # Each all-pass player minimises his own tricks; this count only
        # knows the counted seat's, against which the others press together.
        head = _("Seat {mover} to play; seat {seat}'s total tricks after each card (* = the most: this count has "
                 "the others press seat {seat}):", mover=mover, seat=pos.seat)
    elif pos.strain == ALLPASS:
        head = _("Seat {mover} to play; seat {seat}'s total tricks after each card (seat {mover} wants the "
                 "fewest, * = best):", mover=mover, seat=pos.seat)
    elif pos.maximizing(mover):
        head = _("Seat {mover} to play; the declarer's total tricks after each card (seat {mover} wants the "
                 "most, * = best):", mover=mover)
    else:
        head = _("Seat {mover} to play; the declarer's total tricks after each card (seat {mover} wants the "
                 "fewest, * = best):", mover=mover)
    lang = get_language()
    return [head] + [f"  {c.format(lang):<3} {v:>2}{'  *' if c in best else ''}" for c, v in values.items()]


def on_table(pos: Position) -> str:
    """The current trick seat by seat: "talon ♠8, seat 0 ♠A; seat 1 to play"."""
    cur = pos.current_trick
    lang = get_language()
    cards = [_("talon {card}", card=cur.talon_card.format(lang))] if cur.talon_card is not None else []
    cards += [_("seat {seat} {card}", seat=(cur.leader + i) % 3, card=c.format(lang)) for i, c in enumerate(cur.cards)]
    if not cards:
        return _("On the table: nothing yet; seat {seat} to play", seat=pos.to_move)
    return _("On the table: {cards}; seat {seat} to play", cards=", ".join(cards), seat=pos.to_move)


def _mistake_note(seat: int, card: Card, values: Mapping[Card, int], maximizing: bool,
                  judged: bool = True) -> str | None:
    """What to tell the user at once when the card just played gave away tricks
    (``judged``: whether the seat's cards are judged at all; see Position.mistakes)."""
    if not judged:
        return None
    best = (max if maximizing else min)(values.values())
    cost = abs(best - values[card])
    if not cost:
        return None
    lang = get_language()
    better = " ".join(c.format(lang) for c, v in values.items() if v == best)
    return ngettext("Seat {seat} {card} lost {n} trick; best was {better}.",
                    "Seat {seat} {card} lost {n} tricks; best was {better}.", cost, seat=seat,
                    card=card.format(lang), better=better)


class _Board:
    """The board of an interactive session. On a terminal it is redrawn in
    place (ANSI clear and home) with the commands on top; elsewhere (a pipe,
    a file) each board follows the last as plain lines."""

    def __init__(self, pos: Position, note: str | None) -> None:
        self.pos, self.note = pos, note
        self.redraw = sys.stdout.isatty()

    def show(self, *messages: str, mistakes: bool = False) -> None:
        pos = self.pos
        if self.redraw:
            click.echo(CLEAR_SCREEN, nl=False)
            echo(_(COMMANDS_HELP))
            if self.note:
                echo(self.note)
            echo()
        echo(format_position(pos, mistakes=pos.mistakes() if mistakes else None))
        if not pos.is_over():
            echo(on_table(pos))
        for message in messages:
            echo(message)


def _interact(pos: Position, note: str | None) -> None:
    """A terminal session on ``pos``; reads lines until ``quit`` or end of input."""
    board = _Board(pos, note)
    if not board.redraw:
        echo(_(COMMANDS_HELP))
        if note:
            echo(note)
    board.show(mistakes=True)
    while True:
        prompt = _("done") if pos.is_over() else _("seat {seat}", seat=pos.to_move)
        try:
            text = click.prompt(prompt, default="", show_default=False, prompt_suffix="> ")
        except click.Abort as exc:  # end of input or Ctrl-C
            echo()
            if isinstance(exc.__cause__ or exc.__context__, KeyboardInterrupt):
                raise   # Ctrl-C ends a session as it ends any command: exit 130
            return
        word = text.strip().lower()
        if not word:
            continue
        if word in WORDS["quit"]:
            return
        if word in WORDS["help"]:
            echo(_(COMMANDS_HELP))
        elif word in WORDS["undo"]:
            if pos.played:
                card = pos.pop()
                board.show(_("Took back {card}.", card=card.format(get_language())))
            else:
                echo(_("Nothing to undo."))
        elif word in WORDS["best"]:
            if pos.is_over():
                echo(_("The play is over."))
            else:
                line = pos.best_line()
                echo(_("An optimal line (total {tricks} for seat {seat}):", tricks=line.tricks, seat=pos.counted_seat))
                echo(line.format())
        else:
            # A line's cards are played together or not at all: a bad card
            # takes back the ones before it, so the session never stops half
            # way through what was typed.
            done = []
            try:
                for card in parse_cards(text):
                    seat, values = pos.to_move, pos.card_values()
                    pos.push(card)
                    assert seat is not None   # push() refused a card after the last trick
                    done.append((seat, card, values))
            except PrefsolveError as exc:
                for _played in done:
                    pos.pop()
                if done:
                    message = _("{message} (none of the line's cards was played)", message=exc)
                else:
                    message = str(exc)
                click.echo(_("Error: {message}", message=message), err=True)
                if isinstance(exc, CardError) and not done:    # not a card: maybe a mistyped command
                    click.echo(_(COMMANDS_HELP), err=True)
                continue
            notes = [_mistake_note(seat, card, values, pos.maximizing(seat),
                                   pos.strain != ALLPASS or seat == pos.seat)
                     for seat, card, values in done]
            board.show(*(n for n in notes if n))


@command("play")
@deal_argument
@click.option("--declarer", type=click.IntRange(0, 2), default=None,
              help=N_("Declarer's seat in a game or misère; required unless DEAL is a position text."))
@click.option("--seat", type=click.IntRange(0, 2), default=None,
              help=N_("All-pass: the seat whose tricks are counted; required unless DEAL is a position text."))
@click.option("--strain", default=None, help=N_("S, C, D, H, NT, misere or allpass; required unless "
                                             "DEAL is a position text."))
@leader_option(None, N_("Seat that leads trick 1 [default: 0]."))
@click.option("--played", default=None, metavar="CARDS", help=N_('Cards played so far, in order: "SA S7 S8 D9".'))
@talon_mode_option(("take", "lead", "ignore"),
                   N_("take (a game or misère): the declarer takes the talon and discards the best 2 "
                   "cards; lead (all-pass): the talon cards lead tricks 1 and 2; ignore: the hands are "
                   "played as given [default: take or lead when the deal has a talon]."))
@click.option("--turn", default=None, metavar="CARDS",
              help=N_('All-pass: the talon cards in the order turned, e.g. "HK SQ".'))
@click.option("--line", "with_line", is_flag=True,
              help=N_("Also print an optimal line from the position to the last trick."))
@json_option
@click.option("--interactive", "-i", is_flag=True,
              help=N_("Play cards one by one in a terminal session."))
def play(deal_text, declarer, seat, strain, leader, played, talon_mode, turn, with_line, as_json,
         interactive):
    """The value of every card in a position of the play.

    Each legal card of the player to move is shown with the counted seat's
    total tricks (already won included) if it is played and everyone plays
    perfectly afterwards: the declarer's in a game or misère, the --seat's
    in all-pass. In a game or misère on a deal with a talon the declarer
    first takes it and puts away the best discard, as solve does, and the
    play starts from the hands after it. DEAL may also be the position text
    that the output ends with ("...; declarer=2; strain=S; played=..."),
    which carries the options itself.

    \b
        prefsolve play "K98.AKQ.J.KQJ J.T97.QT9.A87 AQT7.J8.AK8.T" --declarer 2 --strain S --played "HQ H7 HT S8 SJ"
        prefsolve play "A.KT9.KT97.K7 JT97.A7.8.Q98 KQ.J8.AQJ.AJT 8.Q.-.-" --seat 1 --strain allpass -i
    """
    if as_json and interactive:
        raise click.UsageError(_("--json and --interactive do not go together (a session prints text)"))
    if with_line and interactive:
        raise click.UsageError(_("--line and --interactive do not go together (type 'best' in a session)"))
    pos, note = _position(deal_text, declarer, seat, strain, leader, played, talon_mode, turn)
    if interactive:
        _interact(pos, note)
        return
    values = pos.card_values()
    found = pos.mistakes()
    line = pos.best_line() if with_line and not pos.is_over() else None
    if as_json:
        out = pos.to_dict(values, found)
        if with_line:
            out["line"] = line.to_dict() if line else None
        emit_json(out)
        return
    if note:
        echo(note)
    echo(format_position(pos, values, found))
    if line:
        echo(_("An optimal line (total {tricks} for seat {seat}):", tricks=line.tricks, seat=pos.counted_seat))
        echo(line.format())
    # The position text whole, even on a narrow terminal: it is copied as it is.
    click.echo(_("Position (DEAL for play, or Position.parse): {position}", position=pos))


def _position(deal_text: str, declarer, seat, strain, leader, played, talon_mode, turn):
    """The position of ``play``'s arguments and a note on the talon to print
    (or None). The arguments are a deal and options, or a position text
    (``str(Position)``), which carries them all."""
    options = {"--declarer": declarer, "--seat": seat, "--strain": strain, "--leader": leader,
               "--played": played, "--talon-mode": talon_mode, "--turn": turn}
    if ";" in deal_text:
        given = [name for name, value in options.items() if value is not None]
        if given:
            raise click.UsageError(_("{options}: a position text carries the seats, strain, leader, played cards "
                                     "and talon itself; change them there", options=", ".join(given)))
        pos = Position.parse(deal_text)
        return pos, _talon_note(pos)
    if strain is None:
        raise click.UsageError(_("Missing option '{option}' (or give a position text as DEAL)", option="--strain"))
    strain = parse_strain(strain, allpass=True)
    leader = 0 if leader is None else leader
    if strain == ALLPASS:
        if declarer is not None:
            raise click.UsageError(_("all-pass has no declarer: give --seat, the seat whose tricks are counted"))
        if seat is None:
            raise click.UsageError(_("Missing option '{option}' (or give a position text as DEAL)", option="--seat"))
    else:
        if seat is not None:
            raise click.UsageError(_("--seat is for all-pass; in {strain} give --declarer", strain=strain))
        if declarer is None:
            raise click.UsageError(_("Missing option '{option}' (or give a position text as DEAL)",
                                     option="--declarer"))
    pos = Position(deal_text, declarer, strain=strain, seat=seat, leader=leader, talon_mode=talon_mode,
                   turn=turn, played=played or "")
    return pos, _talon_note(pos)


def _talon_note(pos: Position) -> str | None:
    """What happened to the talon of a game or misère, for the text output."""
    talon = pos.deal.talon
    if pos.strain == ALLPASS or talon is None:
        return None
    lang = get_language()
    if pos.talon_mode == TAKE:
        assert pos.discard is not None
        return _("Declarer seat {declarer} takes the talon {talon} and discards {discard} (the best discard); the "
                 "play starts from the hands after it.", declarer=pos.declarer, talon=talon.symbols(lang),
                 discard=pos.discard.format(lang))
    return _("The talon {talon} is ignored: the hands are played as given.", talon=talon.symbols(lang))


@command("allpass")
@deal_argument
@click.option("--seat", type=click.IntRange(0, 2), default=None,
              help=N_("Only this seat: the fewest tricks it can be sure of, and its line [default: all three]."))
@talon_mode_option(("lead", "ignore"),
                   N_("lead: the talon cards start tricks 1 and 2; ignore: they play no part [default: lead when "
                   "the deal has a talon]."))
@click.option("--turn", default=None, metavar="CARDS",
              help=N_('The talon cards in the order turned, e.g. "HK SQ" [default: ♠ ♣ ♦ ♥, '
                   'higher rank first].'))
@json_option
def allpass(deal_text, seat, talon_mode, turn, as_json):
    """All-pass: the fewest tricks each player (or the --seat) can be sure of, with a line each.

    A talon card leads its trick: first hand (seat 0) plays first to it, the
    highest card of its suit wins, and when nobody can follow (possible only
    in a study position) first hand takes the trick (RULES.md §4.3).

    \b
        prefsolve allpass "A.KT9.KT97.K7 JT97.A7.8.Q98 KQ.J8.AQJ.AJT 8.Q.-.-"
        prefsolve allpass "A.KT9.KT97.K7 JT97.A7.8.Q98 KQ.J8.AQJ.AJT 8.Q.-.-" --seat 1
    """
    if seat is not None:
        _allpass_seat(deal_text, seat, talon_mode, turn, as_json)
        return
    t = allpass_table(deal_text, talon_mode=talon_mode, turn=turn)
    if as_json:
        emit_json(t.to_dict())
        return
    echo(t.deal.diagram())
    echo()
    echo(t.format())


def _allpass_seat(deal_text: str, seat: int, talon_mode: str | None, turn: str | None, as_json: bool) -> None:
    """``allpass --seat``: one seat's guarantee (:func:`~prefsolve.allpass.solve_allpass`) and its line."""
    sol = solve_allpass(deal_text, seat, talon_mode=talon_mode, turn=turn)
    pos = Position(deal_text, strain=ALLPASS, seat=seat, talon_mode=talon_mode, turn=turn)
    line = pos.best_line()
    if as_json:
        emit_json({"deal": str(pos.deal), **sol.to_dict(), "line": line.to_dict()})
        return
    echo(pos.deal.diagram())
    echo()
    echo(_header(pos))
    echo(ngettext("Seat {seat} holds himself to {n} trick (the fewest he can be sure of):",
                  "Seat {seat} holds himself to {n} tricks (the fewest he can be sure of):", sol.tricks, seat=seat))
    echo("\n".join("  " + row for row in line.format().splitlines()))


COMMANDS = (play, allpass)


if __name__ == "__main__":  # pragma: no cover - a group of these two commands alone
    group = PrefsolveGroup(help=N_("Play analysis and all-pass commands of prefsolve."))
    for _command in COMMANDS:
        group.add_command(_command)
    group(prog_name="python -m prefsolve.cli.play")
