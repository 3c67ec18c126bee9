"""The web board in a real browser: headless Chromium driven by Playwright.

The tests start a board server on a free port of the loopback, open it in
Debian's ``chromium`` (``apt-get install chromium``; ``PREFSOLVE_CHROMIUM``
names another executable) and use it as a player would: paste a deal, read
the table, play a whole deal by clicking, undo, edit the cards, run the
analyzer, and look at the layout on a phone and on a desktop. What the page
shows is checked against the command line and the Python API. Without the
web extra or Playwright the tests skip, saying what to install; without
Chromium they fail, saying so (.ci/run installs all of them).
"""

import json
import subprocess
import sys
import time
from pathlib import Path
from types import SimpleNamespace

import pytest
from click.testing import CliRunner

# The web extra's tests, in a browser driven by Playwright (.ci/run installs every extra and Chromium).
for _name in ("starlette", "uvicorn"):
    pytest.importorskip(_name, reason='the web extra is not installed (pip install "prefsolve[web]")')
pytest.importorskip("playwright", reason='Playwright is not installed (pip install ".[test]")')

import prefsolve
from prefsolve import Hand, Position, Sampling, allpass_table, analyze, card_values
from prefsolve.cards import cards_in_hand_order
from prefsolve.cli import main
from prefsolve.web.local import LocalServer, chromium

ROOT = Path(__file__).resolve().parent.parent
#: The folder of the package under test (a checkout's src/, or site-packages), for child processes.
TESTED = str(Path(prefsolve.__file__).resolve().parent.parent)
EXAMPLE = "A.KT9.KT97.K7 JT97.A7.8.Q98 KQ.J8.AQJ.AJT 8.Q.-.-"
DESKTOP = {"width": 1280, "height": 800}
PHONE = {"width": 390, "height": 844}
STRAINS = ("S", "C", "D", "H", "NT", "misere")


@pytest.fixture(scope="module")
def board():
    path = chromium()
    if path is None:
        pytest.fail("the browser tests need Chromium: apt-get install chromium (Debian's package; "
                    "PREFSOLVE_CHROMIUM may name another executable)", pytrace=False)
    from playwright.sync_api import sync_playwright
    server = LocalServer()
    with server as url, sync_playwright() as p:
        browser = p.chromium.launch(executable_path=path, args=["--no-sandbox"])
        try:
            yield SimpleNamespace(url=url, browser=browser, server=server)
        finally:
            browser.close()


def open_board(board, viewport=DESKTOP):
    """A new page on the board, loaded, with the console's errors collected in ``page.errors``."""
    context = board.browser.new_context(viewport=viewport)
    page = context.new_page()
    page.errors = []
    page.on("console", lambda m: page.errors.append(m.text) if m.type == "error" else None)
    page.on("pageerror", lambda e: page.errors.append(str(e)))
    page.goto(board.url)
    page.wait_for_selector("body[data-ready=true]")
    return page


@pytest.fixture
def page(board):
    page = open_board(board)
    yield page
    page.context.close()


def cli_json(*args):
    """The real command line's JSON (a process of its own, as a user runs it)."""
    out = subprocess.run([sys.executable, "-m", "prefsolve", *args, "--json"], capture_output=True, text=True,
                         check=True, cwd=ROOT, env=_env())
    return json.loads(out.stdout)


def cli_error(*args):
    r = CliRunner().invoke(main, list(args))
    assert r.exit_code == 2, r.output
    return r.stderr.strip().removeprefix("Error: ")


def _env():
    import os

    return {**os.environ, "PYTHONPATH": TESTED + os.pathsep + os.environ.get("PYTHONPATH", "")}


def settle(page):
    """Wait until the page has no request to the server under way (its body's data-busy)."""
    page.wait_for_selector("body[data-ready=true]:not([data-busy])")


def show(page, text):
    """Paste ``text`` in the deal field and show it."""
    page.fill("#deal-text", text)
    page.click("#deal-show")
    settle(page)


def act(page, selector):
    """Click and wait for what the click asked of the server."""
    page.click(selector)
    settle(page)


def shown_table(page):
    return page.eval_on_selector_all(
        "#contracts button.cell",
        "els => els.map(e => [Number(e.dataset.declarer), e.dataset.strain, Number(e.dataset.tricks), "
        "e.dataset.discard, e.innerText])")


def shown_values(page):
    """The legal cards of the seat to move with the value and mark each one shows."""
    return page.eval_on_selector_all(
        "#seats .seat.moving button.card:not([disabled])",
        "els => els.map(e => [e.dataset.card, Number(e.querySelector('.value').textContent), "
        "e.classList.contains('best')])")


def played(page):
    text = page.input_value("#position-text")
    return text.split("played=")[1].split() if "played=" in text else []


# -- the tests ---------------------------------------------------------------------------

def test_the_page_loads_with_no_console_error(page):
    assert page.title() == "prefsolve board"
    for selector in ("#deal-text", "#deal-show", "#deal-random", "#seats", "#felt", "#contracts", "#allpass-cells",
                     "#an-hand", "#an-run", "#position-text"):
        assert page.locator(selector).is_visible(), selector
    assert page.input_value("#deal-text") == EXAMPLE
    assert page.locator("#contracts button.cell").count() == 18
    assert page.errors == []


def test_a_pasted_deal_shows_the_table_of_table_json(page):
    deal = "AQJ8.T9.87.J9 K7.QJ8.KQT.KQ T9.AK.AJ.AT87 -.7.9.-"
    show(page, deal)
    expected = cli_json("table", deal)
    rows = shown_table(page)
    assert len(rows) == 18
    for declarer, strain, tricks, discard, text in rows:
        assert tricks == expected["tricks"][declarer][strain]
        assert discard.split() == expected["discards"][declarer][strain]
        assert text.split("\n")[0] == str(tricks)      # the number is what the player sees
    # the diagram holds the deal's cards, and the talon
    for seat, hand in enumerate(deal.split()[:3]):
        cards = page.eval_on_selector_all(f"#hand-{seat} .card", "els => els.map(e => e.dataset.card)")
        assert cards == cards_in_hand_order(Hand.parse(hand).mask).to_list()     # ♠ ♣ ♦ ♥, high to low
    assert page.eval_on_selector_all("#talon .card", "els => els.map(e => e.dataset.card)") == ["C7", "D9"]
    allpass = page.eval_on_selector_all("#allpass-cells button", "els => els.map(e => Number(e.dataset.tricks))")
    assert allpass == cli_json("allpass", deal)["tricks"]
    assert page.errors == []


def test_a_whole_deal_played_by_clicks_shows_card_values_at_every_card(page):
    show(page, EXAMPLE)
    declarer, strain = 2, "H"
    t = cli_json("table", EXAMPLE)
    discard = t["discards"][declarer][strain]
    act(page, f'#contracts button[data-declarer="{declarer}"][data-strain="{strain}"]')
    args = dict(strain=strain, talon_mode="take", discard=discard)
    cards = []
    for move in range(30):
        pos = Position(EXAMPLE, declarer, played=cards, **args)
        values = card_values(EXAMPLE, declarer, played=cards, **args)
        shown = shown_values(page)
        assert {c: v for c, v, _ in shown} == values.to_dict(), f"move {move + 1}"
        assert [c for c, _, best in shown if best] == [str(c) for c in pos.best_cards(values)]
        # every other card of the seat to move is there, and cannot be played
        idle = page.eval_on_selector_all("#seats .seat.moving button.card[disabled]",
                                         "els => els.map(e => e.dataset.card)")
        assert sorted(idle + [c for c, _, _ in shown]) == sorted(str(c) for c in pos.hands[pos.to_move])
        assert page.locator(f'#seats .seat[data-seat="{pos.to_move}"] .turn').is_visible()
        # mostly the best card; now and then another, to make mistakes
        worse = [c for c, _, best in shown if not best]
        card = worse[0] if move % 4 == 1 and worse else next(c for c, _, best in shown if best)
        act(page, f'#seats .seat.moving button.card[data-card="{card}"]')
        cards.append(card)
        assert played(page) == cards
    final = Position(EXAMPLE, declarer, played=cards, **args)
    assert final.is_over()
    total = final.tricks_won[declarer]
    assert page.inner_text("#trick .result") == f"The declarer took {total} trick{'' if total == 1 else 's'}"
    won = page.eval_on_selector_all("#seats .won", "els => els.map(e => Number(e.dataset.won))")
    assert won == list(final.tricks_won)
    # every mistake is marked in the tricks played, with its cost
    marked = page.eval_on_selector_all(
        "#history .chip.mistake",
        "els => els.map(e => [e.firstChild.textContent, e.querySelector('.cost').textContent])")
    expected = [[m.card.symbol, f"−{m.cost}"] for m in final.mistakes()]
    assert expected and marked == expected
    assert page.errors == []


def test_undo_and_redo(page):
    show(page, EXAMPLE)
    act(page, '#contracts button[data-declarer="0"][data-strain="D"]')
    for _ in range(4):
        act(page, "#seats .seat.moving button.card.best")
    four = played(page)
    values_after_four = shown_values(page)
    assert len(four) == 4 and page.locator("#redo").is_disabled()
    act(page, "#undo")
    assert played(page) == four[:3]
    setup = Position.parse(page.input_value("#position-text"))
    assert {c: v for c, v, _ in shown_values(page)} == setup.card_values().to_dict()
    assert page.locator(f'#seats .seat.moving button.card[data-card="{four[3]}"]').count() == 1
    act(page, "#redo")
    assert played(page) == four and shown_values(page) == values_after_four
    act(page, "#undo")
    act(page, "#undo")
    assert played(page) == four[:2]
    others = [c for c, _, _ in shown_values(page) if c != four[2]]
    if others:      # a new card forgets what was taken back
        act(page, f'#seats .seat.moving button.card[data-card="{others[0]}"]')
        assert page.locator("#redo").is_disabled()
    page.keyboard.press("Control+z")
    page.wait_for_function("n => document.querySelector('#position-text').value.split('played=')[1]"
                           ".trim().split(/\\s+/).filter(Boolean).length === n", arg=2)
    assert page.errors == []


def test_allpass_in_its_talon_modes(page):
    show(page, EXAMPLE)
    for mode in ("ignore", "lead"):
        page.select_option("#allpass-mode", mode)
        settle(page)
        tricks = page.eval_on_selector_all("#allpass-cells button", "els => els.map(e => Number(e.dataset.tricks))")
        assert tricks == list(allpass_table(EXAMPLE, talon_mode=mode).tricks)
        act(page, '#allpass-cells button[data-seat="1"]')
        assert f"talon_mode={mode}" in page.input_value("#position-text")
    pos = Position(EXAMPLE, strain="allpass", seat=1, talon_mode="lead")
    assert page.inner_text("#contract") == "All-pass · tricks counted for seat 1 · the talon leads: ♠8 ♣Q"
    # the talon's first card leads trick 1
    assert page.eval_on_selector_all("#trick .slot .card", "els => els.map(e => e.dataset.card)") == [str(pos.turn[0])]
    cards = []
    for _ in range(6):
        values = card_values(EXAMPLE, strain="allpass", seat=1, talon_mode="lead", played=cards)
        shown = shown_values(page)
        assert {c: v for c, v, _ in shown} == values.to_dict()
        card = next(c for c, _, best in shown if best)
        act(page, f'#seats .seat.moving button.card[data-card="{card}"]')
        cards.append(card)
    assert page.errors == []


def test_the_analyzer_runs_with_its_chart_and_can_be_cancelled(board, page):
    hand = page.input_value("#an-hand")
    assert hand == EXAMPLE.split()[0]       # seat 0's hand of the deal shown
    page.fill("#an-samples", "16")
    page.fill("#an-seed", "5")
    page.click("#an-run")
    page.wait_for_selector("#an-chart svg", timeout=60_000)
    expected = analyze(hand, 0, sampling=Sampling(samples=16, seed=5), rules="sochi").to_dict()
    rows = page.eval_on_selector_all("#an-chart svg g.row", "els => els.map(e => [e.dataset.contract, "
                                     "Number(e.dataset.pMake), Number(e.dataset.expected)])")
    assert [r[0] for r in rows] == list(expected["contracts"])
    for key, p_make, value in rows:
        assert p_make == expected["contracts"][key]["p_make"] and value == expected["contracts"][key]["expected"]
    assert page.locator("#an-chart svg rect.bar-p").count() == 26
    assert page.locator("#an-results tr[data-contract]").count() == 26
    marked = page.get_attribute("#an-chart svg g.row.marked", "data-contract")
    assert marked == expected["recommendation"]["contract"]
    assert page.inner_text("#an-status") == "done"
    assert "16 samples, seed 5, sochi rules" in page.inner_text("#an-advice")
    assert page.errors == []
    # a long run shows its progress and stops on Cancel, on the server too
    page.fill("#an-samples", "5000")
    page.click("#an-run")
    page.wait_for_function("() => /^[1-9][0-9]* \\/ 5000$/.test(document.querySelector('#an-status').textContent)",
                           timeout=60_000)
    assert page.locator("#an-progress").is_visible() and page.locator("#an-run").is_disabled()
    assert float(page.get_attribute("#an-progress", "max")) == 1
    page.click("#an-cancel")
    page.wait_for_function("() => document.querySelector('#an-status').textContent === 'cancelled'")
    assert page.locator("#an-run").is_enabled()
    deadline = time.monotonic() + 15
    while board.server.app.state.jobs.running() and time.monotonic() < deadline:
        time.sleep(0.05)
    assert board.server.app.state.jobs.running() == []


def test_a_bad_deal_shows_the_command_line_s_message_next_to_the_field(page):
    bad = "AK.-.-.- QJ.-.-.- T9.-.-"
    show(page, bad)
    error = page.locator("#deal-error")
    assert error.is_visible()
    assert error.inner_text() == cli_error("table", bad)
    assert page.evaluate("document.querySelector('#deal-text').nextElementSibling.id") == "deal-error"
    assert "invalid" in page.get_attribute("#deal-text", "class")
    # the board keeps the deal it had
    assert page.locator("#contracts button.cell").count() == 18
    # a good deal clears the message
    show(page, EXAMPLE)
    assert not error.is_visible()
    # a bad hand in the analyzer: its message next to the hand
    page.fill("#an-hand", "A.KT9.KT97")
    page.click("#an-run")
    page.wait_for_selector("#analyze-error:not([hidden])")
    assert page.inner_text("#analyze-error") == cli_error("analyze", "A.KT9.KT97", "-n", "3")


def test_a_deal_is_edited_by_moving_cards_between_hands(page):
    show(page, EXAMPLE)
    page.click("#edit")
    page.click('#hand-0 .card[data-card="HK"]')
    page.click('#seats .seat[data-seat="1"]')
    assert page.locator('#hand-1 .card[data-card="HK"]').count() == 1
    moved = "A.KT9.KT97.7 JT97.A7.8.KQ98 KQ.J8.AQJ.AJT 8.Q.-.-"
    page.click("#edit-apply")
    page.wait_for_selector("#edit-error:not([hidden])")
    assert page.inner_text("#edit-error") == cli_error("table", moved)
    # a card back the other way, then the talon's ♠8 for seat 2's ♥T
    page.click('#hand-1 .card[data-card="SJ"]')
    page.click('#seats .seat[data-seat="0"]')
    page.click('#talon .card[data-card="S8"]')
    page.click('#seats .seat[data-seat="2"]')
    page.click('#hand-2 .card[data-card="HT"]')
    page.click("#felt")
    act(page, "#edit-apply")
    edited = "AJ.KT9.KT97.7 T97.A7.8.KQ98 KQ8.J8.AQJ.AJ -.Q.-.T"
    assert page.input_value("#deal-text") == edited
    expected = cli_json("table", edited)
    for declarer, strain, tricks, discard, _ in shown_table(page):
        assert tricks == expected["tricks"][declarer][strain]
        assert discard.split() == expected["discards"][declarer][strain]
    assert page.eval_on_selector_all("#hand-0 .card", "els => els.map(e => e.dataset.card)") == \
        ["SA", "SJ", "CK", "CT", "C9", "DK", "DT", "D9", "D7", "H7"]


def test_the_position_text_pasted_back_gives_the_same_position(board, page):
    show(page, EXAMPLE)
    act(page, '#contracts button[data-declarer="1"][data-strain="misere"]')
    for _ in range(5):
        act(page, "#seats .seat.moving button.card.best")
    text = page.input_value("#position-text")
    values = shown_values(page)
    other = open_board(board)
    try:
        show(other, text)
        assert other.input_value("#position-text") == text
        assert shown_values(other) == values
        assert other.inner_text("#contract") == "Declarer seat 1 · Misère · seat 0 leads"
    finally:
        other.context.close()


def test_a_random_deal_by_seed_is_the_deal_command_s(page):
    page.fill("#deal-seed", "42")
    act(page, "#deal-random")
    deal = subprocess.run([sys.executable, "-m", "prefsolve", "deal", "--seed", "42"], capture_output=True,
                          text=True, check=True, env=_env()).stdout.strip()
    assert page.input_value("#deal-text") == deal


@pytest.mark.parametrize("viewport", [PHONE, DESKTOP], ids=["phone", "desktop"])
def test_the_layout_fits_a_phone_and_a_desktop(board, viewport):
    page = open_board(board, viewport)
    try:
        act(page, '#contracts button[data-declarer="2"][data-strain="NT"]')
        act(page, "#seats .seat.moving button.card.best")
        width = viewport["width"]
        overflow = page.evaluate("[document.documentElement.scrollWidth, document.documentElement.clientWidth]")
        assert overflow[0] <= overflow[1] == width, f"horizontal overflow: {overflow}"
        for selector in ("#deal-text", "#deal-show", "#contracts", "#seats", "#felt", "#undo", "#position-text",
                         "#an-run", "#an-hand"):
            box = page.locator(selector).bounding_box()
            assert page.locator(selector).is_visible() and box["x"] >= 0 and box["x"] + box["width"] <= width, selector
        # every card and table cell is inside the page, and large enough to tap
        boxes = page.eval_on_selector_all(
            "#seats .card, #contracts button.cell",
            "els => els.map(e => {const r = e.getBoundingClientRect(); return [r.left, r.right, r.width, r.height]})")
        assert all(left >= 0 and right <= width for left, right, _, _ in boxes)
        cards = page.eval_on_selector_all("#seats .card", "els => els.map(e => e.getBoundingClientRect().width)")
        assert min(cards) >= 40 and len(cards) == 29
        assert min(h for _, _, w, h in boxes) >= 40
        board_x = page.locator("#panel-board").bounding_box()["x"]
        table_x = page.locator("#panel-table").bounding_box()["x"]
        if viewport is PHONE:     # one column: deal, table, board, analyzer
            assert board_x == table_x
            order = page.eval_on_selector_all(".panel", "els => els.map(e => [e.id, e.getBoundingClientRect().top])")
            assert [i for i, _ in sorted(order, key=lambda x: x[1])] == \
                ["panel-deal", "panel-table", "panel-board", "panel-analyzer"]
        else:                       # two columns: the board, and the table beside it
            assert table_x > board_x + 500
            assert page.locator("#contracts").bounding_box()["y"] < viewport["height"]
        assert page.errors == []
    finally:
        page.context.close()
