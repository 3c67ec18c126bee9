"""Screenshots of the board for the documentation: ``python -m prefsolve.web.screenshots``.

Starts a board server, opens it in headless Chromium (Playwright driving
Debian's ``chromium``), plays the example deal's no-trump contract for a
few cards with one mistake, runs the analyzer on a strong hand for 100
samples, and saves
``board-desktop.png`` (1280 × 800) and ``board-phone.png`` (390 × 844) in
the folder given (default ``docs``).

>>> [(name, size["width"]) for name, size, _ in VIEWS]
[('board-desktop.png', 1280), ('board-phone.png', 390)]
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
        finally:
            browser.close()


if __name__ == "__main__":
    main()
