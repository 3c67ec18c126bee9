"""The ``play`` and ``allpass`` commands of the command line.

Two click commands (not a group) that the main ``prefsolve`` group registers:

* ``prefsolve play DEAL --declarer 1 --strain H --played "SA S7 S8 D9"``: the
  position after the played cards, the value of every legal card (the
  declarer's total tricks after it, with perfect play), the optimal cards
  marked and the mistakes of the played cards; ``--interactive`` opens a
  terminal session in which the user plays cards (or ``undo``, ``best``,
  ``quit``) and sees the values after each one.
* ``prefsolve allpass DEAL [--talon lead|ignore] [--turn "HK SQ"]``: the
  fewest tricks each player can be sure of in all-pass, with one line each.

Bad input raises :class:`~prefsolve.errors.PrefsolveError`, which the main
group prints as one line with exit code 2. ``python -m prefsolve.play_cli``
runs both commands without the main group.
"""

from __future__ import annotations

import json

import click

from .allpass import allpass_table
from .cards import parse_cards
from .errors import PrefsolveError
from .play import Position
from .strains import ALLPASS, TALON_MODES, parse_strain, strain_label

INTERACTIVE_HELP = ("Type a card (e.g. SA or ♠A) to play it, 'undo' to take the last card back, "
                    "'best' for an optimal line from here, 'quit' to leave.")


def _emit_json(obj: object) -> None:
    click.echo(json.dumps(obj, ensure_ascii=False))


def _header(pos: Position) -> str:
    if pos.strain == ALLPASS:
        head = f"All-pass, tricks counted for seat {pos.counted_seat}"
        if pos.turn:
            which = "trick 1" if len(pos.turn) == 1 else f"tricks 1-{len(pos.turn)}"
            head += f"; the talon leads {which}: " + " then ".join(c.symbol for c in pos.turn)
        else:
            head += f"; seat {pos.leader} leads"
        return head
    trumps = " trumps" if pos.trump >= 0 else ""
    return (f"Declarer seat {pos.declarer}, {strain_label(pos.strain)}{trumps}, "
            f"seat {pos.leader} leads")


def format_position(pos: Position, values: dict | None = None, mistakes=None) -> str:
    """The position as text: cards left, tricks played, the table, card values."""
    rows = [_header(pos), "", "Cards left:"]
    rows += [f"  Seat {s}: {h.symbols() or '-'}" for s, h in enumerate(pos.hands)]
    if pos.played_tricks:
        rows += ["Tricks played:"]
        rows += [f"  Trick {i}: {t.format()}" for i, t in enumerate(pos.played_tricks, 1)]
    won = ", ".join(f"seat {s} {n}" for s, n in enumerate(pos.tricks_won))
    rows.append(f"Tricks won: {won}")
    if pos.is_over():
        count = pos.tricks_won[pos.counted_seat]
        who = "the declarer" if pos.strain != ALLPASS else f"seat {pos.counted_seat}"
        rows.append(f"The play is over: {who} took {count} trick{'' if count == 1 else 's'}.")
    else:
        on_table = pos.current_trick.format() if (pos.trick or pos.talon_card) else "empty"
        rows.append(f"Trick {pos.trick_number} on the table: {on_table}")
        values = pos.card_values() if values is None else values
        best = set(pos.best_cards(values))
        mover = pos.to_move
        assert mover is not None   # the play is not over
        wants = "the most" if pos.maximizing(mover) else "the fewest"
        owner = "the declarer's" if pos.strain != ALLPASS else f"seat {pos.counted_seat}'s"
        if pos.strain == ALLPASS and mover != pos.counted_seat:
            # Each all-pass player minimises his own tricks; this count only
            # knows seat `declarer`'s, against which the others press together.
            whose = f"* = the most: this count has the others press seat {pos.counted_seat}"
        else:
            whose = f"seat {mover} wants {wants}, * = best"
        rows.append(f"Seat {mover} to play; {owner} total tricks after each card ({whose}):")
        rows += [f"  {c.symbol:<3} {v:>2}{'  *' if c in best else ''}" for c, v in values.items()]
    if mistakes:
        rows.append("Mistakes in the played cards:")
        rows += [f"  {m.format()}" for m in mistakes]
    elif mistakes is not None and pos.played:
        rows.append("No mistakes in the played cards.")
    return "\n".join(rows)


def position_dict(pos: Position, values: dict, mistakes) -> dict:
    return {
        "position": str(pos),
        "deal": str(pos.deal),
        "declarer": pos.counted_seat,
        "strain": pos.strain,
        "leader": pos.leader,
        "turn": [str(c) for c in pos.turn],
        "played": [str(c) for c in pos.played],
        "hands": {str(s): str(h) for s, h in enumerate(pos.hands)},
        "tricks": [t.to_dict() for t in pos.played_tricks],
        "trick": pos.current_trick.to_dict() if not pos.is_over() else None,
        "tricks_won": {str(s): n for s, n in enumerate(pos.tricks_won)},
        "to_move": pos.to_move,
        "value": pos.value(),
        "values": {str(c): v for c, v in values.items()},
        "best": [str(c) for c in pos.best_cards(values)],
        "mistakes": [m.to_dict() for m in mistakes],
    }


def _note_mistake(seat: int, card, values: dict, maximizing: bool, judged: bool = True) -> None:
    """Tell the user at once when the card just played gave away tricks
    (``judged``: whether the seat's cards are judged at all; see Position.mistakes)."""
    if not judged:
        return
    best = (max if maximizing else min)(values.values())
    cost = abs(best - values[card])
    if cost:
        better = " ".join(c.symbol for c, v in values.items() if v == best)
        click.echo(f"Seat {seat} {card.symbol} lost {cost} trick{'' if cost == 1 else 's'}; "
                   f"best was {better}.")


def _interact(pos: Position) -> None:
    """A terminal session on ``pos``; reads lines until ``quit`` or end of input."""
    click.echo(INTERACTIVE_HELP)
    click.echo(format_position(pos, mistakes=pos.mistakes()))
    while True:
        prompt = "done" if pos.is_over() else f"seat {pos.to_move}"
        try:
            text = click.prompt(prompt, default="", show_default=False, prompt_suffix="> ")
        except click.Abort as exc:  # end of input or Ctrl-C
            click.echo()
            if isinstance(exc.__cause__ or exc.__context__, KeyboardInterrupt):
                raise   # Ctrl-C ends a session as it ends any command: exit 130
            return
        command = text.strip().lower()
        if not command:
            continue
        if command in ("quit", "q", "exit"):
            return
        if command in ("help", "?"):
            click.echo(INTERACTIVE_HELP)
        elif command in ("undo", "u"):
            if pos.played:
                card = pos.pop()
                click.echo(f"Took back {card.symbol}.")
                click.echo(format_position(pos))
            else:
                click.echo("Nothing to undo.")
        elif command in ("best", "b"):
            if pos.is_over():
                click.echo("The play is over.")
            else:
                line = pos.best_line()
                click.echo(f"An optimal line (total {line.tricks} for seat {pos.counted_seat}):")
                click.echo(line.format())
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
                for _ in done:
                    pos.pop()
                kept = " (none of the line's cards was played)" if done else ""
                click.echo(f"Error: {exc}{kept}", err=True)
                continue
            for seat, card, values in done:
                _note_mistake(seat, card, values, pos.maximizing(seat),
                              pos.strain != ALLPASS or seat == pos.counted_seat)
            click.echo(format_position(pos))


@click.command("play")
@click.argument("deal_text", metavar="DEAL")
@click.option("--declarer", type=click.IntRange(0, 2), default=None,
              help="Declarer's seat (all-pass: the player whose tricks are counted); required "
                   "unless DEAL is a position text.")
@click.option("--strain", default=None, help="S, C, D, H, NT, misere or allpass; required unless "
                                             "DEAL is a position text.")
@click.option("--leader", type=click.IntRange(0, 2), default=None,
              help="Seat that leads trick 1 [default: 0].")
@click.option("--played", default=None, help='Cards played so far, in order: "SA S7 S8 D9".')
@click.option("--talon", type=click.Choice(TALON_MODES), default=None,
              help="All-pass: the talon cards lead tricks 1 and 2, or play no part [default: lead].")
@click.option("--turn", default=None,
              help='All-pass: the talon cards in the order turned, e.g. "HK SQ".')
@click.option("--line", "with_line", is_flag=True,
              help="Also print an optimal line from the position to the last trick.")
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object.")
@click.option("--interactive", "-i", is_flag=True,
              help="Play cards one by one in a terminal session.")
def play(deal_text, declarer, strain, leader, played, talon, turn, with_line, as_json, interactive):
    """The value of every card in a position of the play.

    DEAL holds the hands as played (after the discard); its talon, if any,
    only matters in all-pass. Each legal card of the player to move is shown
    with the declarer's total tricks (already won included) if it is played
    and everyone plays perfectly afterwards. DEAL may also be the position
    text that the output ends with ("<deal>; declarer=2; strain=S;
    played=..."), which carries the options itself.

    \b
        prefsolve play "K98.AKQ.J.KQJ J.T97.QT9.A87 AQT7.J8.AK8.T" --declarer 2 --strain S --played "HQ H7 HT S8 SJ"
    """
    if as_json and interactive:
        raise click.UsageError("--json and --interactive do not go together (a session prints text)")
    if with_line and interactive:
        raise click.UsageError("--line and --interactive do not go together (type 'best' in a session)")
    pos = _position(deal_text, declarer, strain, leader, played, talon, turn)
    if interactive:
        _interact(pos)
        return
    values = pos.card_values()
    found = pos.mistakes()
    line = pos.best_line() if with_line and not pos.is_over() else None
    if as_json:
        out = position_dict(pos, values, found)
        if with_line:
            out["line"] = line.to_dict() if line else None
        _emit_json(out)
        return
    click.echo(format_position(pos, values, found))
    if line:
        click.echo(f"An optimal line (total {line.tricks} for seat {pos.counted_seat}):")
        click.echo(line.format())
    click.echo(f"Position (DEAL for play, or Position.parse): {pos}")


def _position(deal_text: str, declarer, strain, leader, played, talon, turn) -> Position:
    """The position of ``play``'s arguments: a deal and options, or a position
    text (``str(Position)``), which carries them all."""
    options = {"--declarer": declarer, "--strain": strain, "--leader": leader, "--played": played,
               "--talon": talon, "--turn": turn}
    if ";" in deal_text:
        given = [name for name, value in options.items() if value is not None]
        if given:
            raise click.UsageError(f"{', '.join(given)}: a position text carries the declarer, strain, "
                                   f"leader, played cards and talon itself; change them there")
        return Position.parse(deal_text)
    for name in ("--declarer", "--strain"):
        if options[name] is None:
            raise click.UsageError(f"Missing option '{name}' (or give a position text as DEAL)")
    allpass = parse_strain(strain, allpass=True) == ALLPASS
    return Position(deal_text, None if allpass else declarer, strain=strain, seat=declarer if allpass else None,
                    leader=0 if leader is None else leader, talon_mode=talon, turn=turn, played=played or "")


@click.command("allpass")
@click.argument("deal_text", metavar="DEAL")
@click.option("--talon", type=click.Choice(TALON_MODES), default="lead", show_default=True,
              help="lead: the talon cards start tricks 1 and 2; ignore: they play no part.")
@click.option("--turn", default=None,
              help='The talon cards in the order turned, e.g. "HK SQ" [default: ♠ ♣ ♦ ♥, '
                   'higher rank first].')
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object.")
def allpass(deal_text, talon, turn, as_json):
    """All-pass: the fewest tricks each player can be sure of, with a line each.

    A talon card leads its trick: first hand (seat 0) plays first to it, the
    highest card of its suit wins, and when nobody can follow (possible only
    in a study position) first hand takes the trick (§4.7, C5).

    \b
        prefsolve allpass "A.KT9.KT97.K7 JT97.A7.8.Q98 KQ.J8.AQJ.AJT 8.Q.-.-"
    """
    t = allpass_table(deal_text, talon_mode=talon, turn=turn)
    if as_json:
        _emit_json(t.to_dict())
        return
    click.echo(t.deal.diagram())
    click.echo()
    click.echo(t.format())


def _standalone() -> click.Group:
    # Imported here: the main CLI module registers these commands itself.
    from .cli import PrefsolveGroup

    group = PrefsolveGroup(help="Play analysis and all-pass commands of prefsolve.")
    group.add_command(play)
    group.add_command(allpass)
    return group


if __name__ == "__main__":  # pragma: no cover - exercised through a pseudo-terminal test
    _standalone()(prog_name="python -m prefsolve.play_cli")
