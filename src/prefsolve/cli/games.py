"""Commands of whole games: ``prefsolve match``, ``prefsolve bot`` and ``prefsolve review``.

``match`` plays two players against each other in duplicate and prints A's
gain per deal over B (:mod:`prefsolve.match`, docs/STRENGTH.md); ``bot`` makes
a player speak the bot protocol on stdin and stdout (docs/BOT_PROTOCOL.md),
so that a match, or another program, can play it as ``cmd:prefsolve bot
PLAYER``; ``review`` prices every decision of a game played against the advice
(:mod:`prefsolve.analysis.review`, docs/REVIEW.md).

>>> import json
>>> from click.testing import CliRunner
>>> r = CliRunner().invoke(match, ["cheater", "random", "--deals", "2", "--json", "-q"])
>>> r.exit_code, json.loads(r.output)["deals"]
(0, 2)
"""

from __future__ import annotations

import os
import sys

import click

from ..errors import PrefsolveError
from ..i18n import N_, _
from ._common import (
    cluster_client,
    cluster_options,
    command,
    emit_json,
    jobs_option,
    json_option,
    progress_bar,
    quiet_option,
    rules_option,
    rules_with_settings,
    seed_option,
    settings_option,
)


@command("match")
@click.argument("a", metavar="A")
@click.argument("b", metavar="B")
@click.option("--deals", "-n", type=click.IntRange(min=1), default=100, show_default=True,
              help=N_("Deals to play, each four times (B B B, then A in each seat)."))
@seed_option(default=0, help=N_("Seed of the deals and of every decision (the same seed plays the same games)."))
@rules_option("sochi")
@settings_option
@click.option("--time-limit", type=click.FloatRange(min=0, min_open=True), default=None, metavar="SECONDS",
              help=N_("Seconds a bot (cmd:) has for each decision [default: 10]."))
@click.option("--records", metavar="FILE", help=N_("Write every game played to FILE, one JSON line each "
                                                "(docs/GAME_FORMAT.md)."))
@click.option("--resume", is_flag=True, help=N_("With --records: keep the deals FILE already holds (each checked) "
                                             "and play only the rest."))
@jobs_option(N_("Threads playing deals [default: all usable cores]."))
@cluster_options
@json_option
@quiet_option
def match(a: str, b: str, deals: int, seed: int, profile: str, settings: tuple[str, ...], time_limit: float | None,
          records: str | None, resume: bool, jobs: int | None, scheduler: str | None, cluster: int | None,
          connect_timeout: float, as_json: bool, quiet: bool) -> None:
    """Play A against B in duplicate and print A's gain per deal.

    Each deal is played by B B B and again with A in each seat in turn; A's
    gain is its result less B's in the same seat on the same cards, in whists
    of one deal settled alone, as a mean ± standard error with a 95% interval,
    broken down by the phase of the first different decision and by the kind
    of deal (docs/STRENGTH.md). Players: random, cheater, advisor, heuristic,
    or cmd:PROGRAM ARGS (a program speaking the bot protocol,
    docs/BOT_PROTOCOL.md); options after a colon, e.g.
    advisor:samples=50,tolerance=1. A game a player forfeits (a bot that
    crashed, hung or answered nonsense, an illegal move) is named on stderr
    and left out of the gain.

    \b
        prefsolve match cheater random --deals 3 --seed 1
    """
    from ..match import match_settings, play_match, read_records, record_lines

    rules = rules_with_settings(profile, settings)
    if resume and records is None:
        raise click.UsageError(_("--resume goes with --records FILE: the records of the run to go on with"))
    if scheduler is not None and cluster is not None:
        raise click.UsageError(_("give either --scheduler or --cluster, not both"))
    if jobs is not None and (scheduler is not None or cluster is not None):
        raise click.UsageError(_("--jobs counts this machine's threads; with --scheduler or --cluster the "
                                 "workers' own processes play"))
    spec = match_settings(a, b, deals=deals, seed=seed, rules=rules, time_limit=time_limit)
    done = []
    if resume and records is not None and os.path.exists(records):
        done = _resumed(records, spec, read_records)
    out = _open_records(records, resume)
    try:
        with progress_bar(deals - len(done), _("playing"), quiet or as_json) as bar, \
                cluster_client(scheduler, cluster, connect_timeout) as client:
            def on_deal(result) -> None:
                _note_forfeits(spec, result)
                if out is not None:
                    out.write("".join(line + "\n" for line in record_lines(spec, result)))
                    out.flush()

            result = play_match(spec.a, spec.b, deals=deals, seed=seed, rules=rules, time_limit=time_limit,
                                jobs=jobs, scheduler=client, done=done, progress=bar.update, on_deal=on_deal)
    finally:
        if out is not None:
            out.close()
    if as_json:
        emit_json({**result.to_dict(), "records": records})
    else:
        click.echo(result.format())


def _resumed(path: str, spec, read_records) -> list:
    """The deals the records file already holds, each checked; the file is cut after the last whole deal."""
    try:
        with open(path, encoding="utf-8") as f:
            text = f.read()
    except (OSError, UnicodeDecodeError) as exc:
        raise click.BadParameter(_("cannot read {file}: {reason}", file=path, reason=exc),
                                 param_hint="'--records'") from None
    lines = text[:text.rfind("\n") + 1].splitlines()     # a partial last line is played again
    done = list(read_records(lines, spec))
    keep = sum(len(line) + 1 for line in lines[:4 * len(done)])
    with open(path, "rb+") as f:
        f.truncate(len(text[:keep].encode("utf-8")))
    if len(done) > spec.deals:
        raise PrefsolveError(_("{file} holds {held} deals, more than the {deals} of this match", file=path,
                               held=len(done), deals=spec.deals))
    return done


def _open_records(path: str | None, resume: bool):
    if path is None:
        return None
    try:
        return open(path, "a" if resume else "w", encoding="utf-8")
    except OSError as exc:
        raise click.BadParameter(_("cannot write {file}: {reason}", file=path, reason=exc.strerror or exc),
                                 param_hint="'--records'") from None


def _note_forfeits(spec, result) -> None:
    """One line on stderr for each game forfeited: the game, the seat, the move and why."""
    from ..match import LINEUPS

    for lineup, record in zip(LINEUPS, result.records):
        f = record.forfeit
        if f is not None:
            who = spec.a if lineup[f.seat] == "A" else spec.b
            click.echo(_("Forfeit: deal {deal}, game {game}, seat {seat} ({player}), move {move}: {reason}",
                         deal=result.number, game=" ".join(lineup), seat=f.seat, player=who, move=f.move,
                         reason=f.reason), err=True)


@command("bot")
@click.argument("player", metavar="PLAYER")
def bot(player: str) -> None:
    """Play PLAYER over the bot protocol on stdin and stdout (docs/BOT_PROTOCOL.md).

    Each line read is a message of the protocol (hello, deal, decide, quit),
    each answer one line of JSON. A match plays it as "cmd:prefsolve bot
    PLAYER", as it plays any other program that speaks the protocol.

    \b
        prefsolve bot random
    """
    from ..players import make_player
    from ..players.external import serve

    seat = make_player(player)

    def write(line: str) -> None:
        sys.stdout.write(line + "\n")
        sys.stdout.flush()

    try:
        serve(seat, sys.stdin, write)
    finally:
        seat.close()


@command("review")
@click.argument("game", metavar="GAME")
@click.option("--samples", "-n", type=click.IntRange(1), default=50, show_default=True,
              help=N_("Sampled layouts of each decision's analysis."))
@seed_option(default=0, help=N_("Seed of every decision's sampling (the same seed gives the same review)."))
@click.option("--player", metavar="NAME", default=None, help=N_("Review only this player's decisions."))
@click.option("--tolerance", type=click.FloatRange(min=0), default=1.0, show_default=True, metavar="TRICKS",
              help=N_("How far a hand may be from what its calls say, in estimated tricks."))
@click.option("--plot", metavar="FILE", default=None,
              help=N_("Draw each player's whists lost over the decisions to FILE (PNG; needs matplotlib)."))
@jobs_option(N_("Threads reviewing deals [default: all usable cores]."))
@cluster_options
@json_option
@quiet_option
def review(game: str, samples: int, seed: int, player: str | None, tolerance: float, plot: str | None,
           jobs: int | None, scheduler: str | None, cluster: int | None, connect_timeout: float, as_json: bool,
           quiet: bool) -> None:
    """Price every decision of the games in GAME against the advice.

    GAME is a game record or a session (docs/GAME_FORMAT.md), or the JSON
    lines of "prefsolve match --records" (each line a game); "-" reads stdin.
    Each call, declaration, whist call and card is valued from what its seat
    could see (the advisor's analysis of the seat's view); its cost is the
    expected whists of the best option less those of the move, with a
    standard error, marked inaccuracy, mistake or blunder by thresholds in
    whists; a card also shows the tricks it lost double-dummy. Then each
    player's whists lost by phase and the share of best decisions
    (docs/REVIEW.md).

    \b
        prefsolve review examples/review-session.json --samples 20 --player Bob
    """
    from ..analysis.review import MissingPlotError, ReviewSettings, check_plot, plot_review, read_games, review_games

    if plot is not None:
        try:
            check_plot(plot)
        except MissingPlotError as exc:
            raise click.ClickException(str(exc)) from None
    if scheduler is not None and cluster is not None:
        raise click.UsageError(_("give either --scheduler or --cluster, not both"))
    if jobs is not None and (scheduler is not None or cluster is not None):
        raise click.UsageError(_("--jobs counts this machine's threads; with --scheduler or --cluster the "
                                 "workers' own processes play"))
    text = _read_game(game)
    try:
        sessions = read_games(text)
    except PrefsolveError as exc:
        raise PrefsolveError(_("{file}: {message}", file=game, message=exc)) from None
    settings = ReviewSettings(samples=samples, seed=seed, tolerance=tolerance)
    count = sum(len(s.records) for s in sessions)
    with progress_bar(count, _("reviewing"), quiet or as_json) as bar, \
            cluster_client(scheduler, cluster, connect_timeout) as client:
        try:
            result = review_games(sessions, settings=settings, player=player, jobs=jobs, scheduler=client,
                                  progress=bar.update)
        except PrefsolveError as exc:
            raise PrefsolveError(_("{file}: {message}", file=game, message=exc)) from None
    if plot is not None:
        plot_review(result, plot)
    if as_json:
        emit_json({**result.to_dict(), "game": game, "plot": plot})
    else:
        click.echo(result.format())


def _read_game(path: str) -> str:
    if path == "-":
        return sys.stdin.read()
    try:
        with open(path, encoding="utf-8") as f:
            return f.read()
    except (OSError, UnicodeDecodeError) as exc:
        raise click.BadParameter(_("cannot read {file}: {reason}", file=path, reason=getattr(exc, "strerror", None)
                                   or exc), param_hint="'GAME'") from None


COMMANDS = (match, bot, review)


__all__ = ["COMMANDS", "bot", "match", "review"]
