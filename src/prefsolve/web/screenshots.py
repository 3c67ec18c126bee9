"""Screenshots of the board for the documentation: ``python -m prefsolve.web.screenshots``.

Starts a board server, opens it in headless Chromium (Playwright driving
Debian's ``chromium``), plays the example deal's no-trump contract for a
few cards with one mistake, runs the analyzer on a strong hand for 100
samples, and saves
``board-desktop.png`` (1280 × 800) and ``board-phone.png`` (390 × 844) in
the folder given (default ``docs``). Then it plays a пуля against two bots
(the heuristic player and an advisor of 10 samples; you call and play the
first legal option, as a test does) for a few deals and saves the game panel
with its score sheet, ``board-game.png``; and reviews that game and saves
the review viewer stepped to the first marked move, ``board-review.png``.

>>> [(name, size["width"]) for name, size, _ in VIEWS]
[('board-desktop.png', 1280), ('board-phone.png', 390)]
>>> [name for name, _ in PANELS]
['board-game.png', 'board-review.png']
"""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any

from .local import LocalServer, chromium

#: The views shot: file name, viewport, whether the whole page is taken.
VIEWS: tuple[tuple[str, Any, bool], ...] = (("board-desktop.png", {"width": 1280, "height": 800}, True),
         ("board-phone.png", {"width": 390, "height": 844}, False))


#: The hand the analyzer shows: a game hand, so that the chart has gains and losses.
ANALYZED_HAND = "AKJ98.AQ.K8.A"


def prepare(page, url: str) -> None:
    """The board as the screenshots show it: a contract in play and an analysis."""
    page.goto(url)
    page.wait_for_selector("body[data-ready=true]")
    page.click('#contracts button[data-declarer="2"][data-strain="NT"]')
    page.wait_for_selector("#seats .card.best")
    for pick in ("best", "best", "best", "worst", "best"):
        cards = page.locator("#seats .seat.moving button.card:not([disabled])")
        values = [int(v) for v in cards.evaluate_all("els => els.map(e => e.dataset.value)")]
        if pick == "best" or len(set(values)) == 1:
            target = page.locator("#seats .seat.moving button.card.best").first
        else:
            target = page.locator("#seats .seat.moving button.card:not([disabled]):not(.best)").first
        before = page.evaluate("document.querySelector('#position-text').value")
        target.click()
        page.wait_for_function("t => document.querySelector('#position-text').value !== t", arg=before)
    page.fill("#an-hand", ANALYZED_HAND)
    page.fill("#an-samples", "100")
    page.fill("#an-seed", "1")
    page.click("#an-run")
    page.wait_for_selector("#an-chart svg", timeout=120_000)


#: The panels shot on their own: file name, the panel's element.
PANELS: tuple[tuple[str, str], ...] = (("board-game.png", "#panel-game"), ("board-review.png", "#panel-review"))
#: The game of the screenshot: its seed, the deals played, the bots.
GAME_SEED, GAME_DEALS = 8, 3


def _settle(page) -> None:
    page.wait_for_selector("body[data-ready=true]:not([data-busy])", timeout=120_000)


def my_move(page) -> None:
    """The human's move as a test makes it, by clicks: the first legal call, whist word or contract
    by its button (the first two cards picked for the discard first), else the first card."""
    if page.locator("#game-choices button.choice").count():
        if page.locator("#game-choices button.choice[disabled]").count():
            cards = page.locator("#game-seats .seat.at-bottom button.card")
            cards.nth(0).click()
            cards.nth(1).click()
        page.locator("#game-choices button.choice:not([disabled])").first.click()
    else:
        page.locator("#game-seats button.card").first.click()
    _settle(page)


def play_game(page, url: str) -> None:
    """A пуля against two bots, :data:`GAME_DEALS` deals of it played."""
    page.goto(url)
    page.wait_for_selector("body[data-ready=true]")
    page.select_option("#game-seat", "0")
    page.select_option("#game-bot1", "heuristic")
    page.select_option("#game-bot2", "advisor")
    page.fill("#game-samples", "10")
    page.select_option("#game-kind", "pool")
    page.fill("#game-target", "10")
    page.fill("#game-seed", str(GAME_SEED))
    page.click("#game-start")
    _settle(page)
    for deal in range(GAME_DEALS):
        if deal:
            page.click("#game-next")
            _settle(page)
        for _ in range(100):
            if page.get_attribute("body", "data-game") in ("over", "finished"):
                break
            my_move(page)


def review_game(page) -> None:
    """The review of the game, at 10 samples, stepped to the first marked move of the first deal that has one."""
    page.fill("#rv-samples", "10")
    page.click("#game-review")
    page.wait_for_selector("body[data-review=done]", timeout=600_000)
    marked = page.locator("#rv-moves li[data-mark]:not([data-mark='']) button")
    for deal in range(page.locator("#rv-deal option").count()):
        page.select_option("#rv-deal", index=deal)
        if marked.count():
            marked.first.click()
            return
    page.click("#rv-last")


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m prefsolve.web.screenshots", description=__doc__.split("\n")[0])
    parser.add_argument("out", nargs="?", default="docs", help="folder for the PNG files [docs]")
    args = parser.parse_args(argv)
    from playwright.sync_api import sync_playwright

    browser_path = chromium()
    if browser_path is None:
        raise SystemExit("Error: no Chromium found: apt-get install chromium (or set PREFSOLVE_CHROMIUM)")
    out = Path(args.out)
    with LocalServer() as url, sync_playwright() as p:
        browser = p.chromium.launch(executable_path=browser_path, args=["--no-sandbox"])
        try:
            for name, viewport, full in VIEWS:
                page = browser.new_page(viewport=viewport, device_scale_factor=1)
                prepare(page, url)
                if not full:    # a phone shows a screenful: the board, where the cards are played
                    page.locator("#panel-board").scroll_into_view_if_needed()
                    page.evaluate("document.querySelector('#panel-board').scrollIntoView()")
                page.screenshot(path=str(out / name), full_page=full)
                print(f"wrote {out / name}")
                page.close()
            page = browser.new_page(viewport={"width": 1280, "height": 900}, device_scale_factor=1)
            play_game(page, url)
            for (name, panel), action in zip(PANELS, (None, review_game)):
                if action is not None:
                    action(page)
                page.locator(panel).screenshot(path=str(out / name))
                print(f"wrote {out / name}")
            page.close()
        finally:
            browser.close()


if __name__ == "__main__":
    main()
