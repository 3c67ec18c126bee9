"""Play against the bots and the review viewer in a real browser (headless Chromium, Playwright).

As a player uses the board: a whole deal played by clicks against two bots
to its end, the bots' hands shown, the record downloaded and read by
``prefsolve score`` and ``prefsolve review``; a пуля's score sheet; a game
reviewed with each move's mark and cost equal to ``prefsolve review --json``
of the same record, stepped through by buttons and arrow keys, and branched
into the board's play by clicking; the board in Russian, with its language
switch and Russian rank letters. The server and browser are started as in
tests/test_web_browser.py. Bots are the heuristic player and an advisor of
two samples, so that the tests stay quick.
"""

import json
import re
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

for _name in ("starlette", "uvicorn"):
    pytest.importorskip(_name, reason='the web extra is not installed (pip install "prefsolve[web]")')
pytest.importorskip("playwright", reason='Playwright is not installed (pip install ".[test]")')

from web_helpers import browser_board, child_env, open_board, run_analysis, settle

from prefsolve.cli import main
from prefsolve.game import load_session
from prefsolve.web.screenshots import my_move

DESKTOP = {"width": 1280, "height": 900}


def review_json(path, *args):
    """``prefsolve review --json`` of a file, in a process of its own as a user runs it."""
    out = subprocess.run([sys.executable, "-m", "prefsolve", "review", str(path), "--json", *args],
                         capture_output=True, text=True, check=True, env=child_env())
    return json.loads(out.stdout)


RECORD = Path(__file__).resolve().parent.parent / "examples" / "review-session.json"
#: A small deal of three cards a hand, for a quick analysis and play.
SMALL_DEAL = "K7.-.-.- AQ.-.-.- J.A.-.-"


@pytest.fixture(scope="module")
def board():
    with browser_board() as board:
        yield board


def open_game_board(board, locale="en-GB"):
    """The board as a player opens it to play a game: a record downloads."""
    return open_board(board, DESKTOP, locale=locale, accept_downloads=True)


@pytest.fixture
def page(board):
    page = open_game_board(board)
    yield page
    page.context.close()


def start_game(page, *, seat="0", left="heuristic", right="advisor", pool=False, seed="7", target="1"):
    page.select_option("#game-seat", seat)
    page.select_option("#game-bot1", left)
    page.select_option("#game-bot2", right)
    page.fill("#game-samples", "2")
    page.select_option("#game-kind", "pool" if pool else "deal")
    page.fill("#game-target", target)
    page.fill("#game-seed", seed)
    page.click("#game-start")
    settle(page)


def play_my_move(page):
    """Make the human's move as a player does (the screenshots' move: a call, whist word or
    contract by its button, two cards picked for the discard first, a card by clicking it)."""
    my_move(page)
    assert page.locator("#game-error").is_hidden(), page.inner_text("#game-error")


def play_deal_out(page, moves=80):
    for _ in range(moves):
        if page.get_attribute("body", "data-game") in ("over", "finished"):
            return
        assert page.get_attribute("body", "data-game") == "your-move"
        play_my_move(page)
    pytest.fail("the deal did not end")


def bottom_cards(page, seat_selector):
    return page.eval_on_selector_all(f"{seat_selector} .card", "els => els.map(e => e.dataset.card)")


def test_a_deal_against_two_bots_is_played_to_its_end_downloaded_and_read_back(board, page, tmp_path):
    start_game(page, seat="1", left="heuristic", right="advisor", seed="7")
    assert page.locator("#game-area").is_visible()
    # the bots' hands are hidden while the deal goes on: a count of cards, no card
    for place in ("left", "right"):
        assert page.locator(f"#game-seats .seat.at-{place} .card").count() in (0, 10, 8)  # face up only if shown
    assert page.locator("#game-seats .seat.at-bottom .card").count() >= 10
    play_deal_out(page)
    assert page.inner_text("#game-status") == "The game is over."
    with page.expect_download() as download:
        page.click("#game-download")
    path = tmp_path / "game.json"
    download.value.save_as(path)
    session = load_session(path.read_text())
    record, = session.records
    assert record.state().is_over() and session.players[1] == "you"
    # the bots' hands, shown when the deal is over, are the deal's
    for place, offset in (("bottom", 0), ("left", 1), ("right", 2)):
        seat = (1 + offset - record.first_hand) % 3
        shown = bottom_cards(page, f"#game-seats .seat.at-{place}")
        assert sorted(shown) == sorted(str(c) for c in record.deal.hands[seat]), place
    # the record is a game file of prefsolve score and prefsolve review
    score = CliRunner().invoke(main, ["score", str(path), "--json"])
    assert score.exit_code == 0, score.output
    balances = json.loads(score.stdout)["settlement"]
    assert [balances[p] for p in session.players] == [str(b) for b in session.sheet().settlement()]
    reviewed = review_json(path, "--samples", "2")
    # the review of the deal is one click away, and its marks are the command's
    page.fill("#rv-samples", "2")
    page.fill("#rv-seed", "0")
    page.click("#game-review")
    page.wait_for_selector("body[data-review=done]", timeout=180_000)
    assert shown_marks(page) == expected_marks(reviewed, 1)
    assert page.errors == []


def shown_marks(page):
    return page.eval_on_selector_all(
        "#rv-moves li[data-cost]", "els => Object.fromEntries(els.map(e => [e.dataset.move, "
        "[e.dataset.mark, e.dataset.cost === '' ? null : Number(e.dataset.cost)]]))")


def expected_marks(review, number):
    deal, = [d for d in review["deals"] if d["number"] == number]
    return {str(d["move"]): [d["mark"] or "", d["cost"]] for d in deal["decisions"]}


def test_a_pool_against_the_bots_fills_the_score_sheet_as_on_paper(page):
    start_game(page, pool=True, left="heuristic", right="heuristic", seed="3", target="1")
    deals = 0
    while True:
        play_deal_out(page)
        deals += 1
        sheet = page.locator("#game-sheet svg.sheet")
        assert sheet.is_visible()
        if page.get_attribute("body", "data-game") == "finished":
            break
        page.click("#game-next")
        settle(page)
    assert page.inner_text("#game-status") == "The game is over."
    # each player's region of the sheet writes his pool's running totals; the table under it the same sheet
    rows = page.eval_on_selector_all("#game-totals tr",
                                     "rows => rows.slice(1).map(r => [...r.cells].map(c => c.innerText))")
    assert len(rows) == 3
    for name, pool, *_ in rows:
        player = {"you": "you"}.get(name, name)
        written = page.locator(f'#game-sheet g[data-player="{player}"] .sheet-pool').text_content()
        assert written.split(".")[-1] == pool or (pool == "0" and written == "—")
    # on a phone the game, its sheet and its table stay within the page's width
    page.set_viewport_size({"width": 390, "height": 844})
    assert page.evaluate("[document.documentElement.scrollWidth, document.documentElement.clientWidth]") == [390, 390]
    assert page.locator("#game-sheet svg.sheet").bounding_box()["width"] <= 390
    assert page.errors == []


def test_a_reviewed_game_shows_the_marks_of_review_json_and_steps_and_branches(page):
    expected = review_json(RECORD, "--samples", "3", "--seed", "1")
    page.set_input_files("#rv-file", str(RECORD))       # the record's file opened
    page.wait_for_function("() => document.querySelector('#rv-text').value.length > 0")
    assert json.loads(page.input_value("#rv-text")) == json.loads(RECORD.read_text())
    page.fill("#rv-samples", "3")
    page.fill("#rv-seed", "1")
    page.click("#rv-run")
    page.wait_for_selector("body[data-review=done]", timeout=180_000)
    session = load_session(RECORD.read_text())
    for number in range(1, len(session.records) + 1):
        page.select_option("#rv-deal", index=number - 1)
        assert shown_marks(page) == expected_marks(expected, number), (number, page.input_value("#rv-deal"))
        balances = ", ".join(f"{p} {'+' if b > 0 else ''}{b:g}" for p, b in
                             zip(expected["deals"][number - 1]["players"], expected["deals"][number - 1]["balances"]))
        assert page.inner_text("#rv-balance") == f"The deal's result in whists: {balances}"
    summary = page.eval_on_selector_all("#rv-summary tr[data-player]", "rs => rs.map(r => r.dataset.player)")
    assert summary == [s["player"] for s in expected["summary"]]
    # stepping: the buttons and the arrow keys; the hands are those of the record replayed
    page.select_option("#rv-deal", index=0)
    record = session.records[0]

    def hands_shown():
        return [sorted(page.eval_on_selector_all(f'#rv-hands .rv-seat[data-seat="{s}"] .hand > .card:not(.on-table)',
                                                 "els => els.map(e => e.dataset.card)")) for s in range(3)]

    def hands_at(step):
        state = record.state(upto=step)
        return [sorted(str(c) for c in state.holding(s)) for s in range(3)]

    assert hands_shown() == hands_at(0)
    for _ in range(12):
        page.click("#rv-next")
    assert page.get_attribute("#panel-review", "data-step") == "12" and hands_shown() == hands_at(12)
    page.click("#rv-prev")
    page.focus("#rv-moves li[aria-current=step] button")
    page.keyboard.press("ArrowDown")
    page.keyboard.press("ArrowDown")
    assert page.get_attribute("#panel-review", "data-step") == "13" and hands_shown() == hands_at(13)
    page.click("#rv-last")
    assert page.get_attribute("#panel-review", "data-step") == str(len(record.moves))
    # branching: from a point of the play, the board takes the position and plays on by clicks
    first_card = next(i for i, m in enumerate(record.moves) if m.kind == "card")
    page.click(f'#rv-moves li[data-move="{first_card + 2}"] button')      # after the opening lead
    position = page.get_attribute("#rv-branch", "data-position")
    assert position
    page.click("#rv-branch")
    settle(page)
    assert page.input_value("#position-text") == position
    assert page.locator("#seats .seat.moving button.card.best").count() >= 1
    page.locator("#seats .seat.moving button.card:not([disabled])").first.click()
    settle(page)
    assert page.input_value("#position-text") != position
    assert page.errors == []


def test_the_board_in_russian_with_its_language_switch_and_russian_rank_letters(board):
    page = open_game_board(board, locale="ru-RU")
    try:
        assert page.locator("#lang").is_visible()
        assert page.eval_on_selector_all("#lang option", "os => os.map(o => o.textContent)") == ["Русский", "English"]
        assert page.input_value("#lang") == "ru"
        assert page.inner_text("#panel-game h2").lower() == "игра с ботами"
        assert page.inner_text("#panel-review h2").lower() == "разбор игры"
        assert page.inner_text("#panel-deal h2").lower() == "сдача"
        # the cards show Т К Д В
        ranks = page.eval_on_selector_all("#seats .card .rank", "els => els.map(e => e.textContent)")
        assert "Т" in ranks and "A" not in ranks
        start_game(page, left="heuristic", right="heuristic", seed="5")
        words = page.eval_on_selector_all("#game-choices button.choice", "els => els.map(e => e.textContent)")
        assert words[0] == "пас" and "мизер" in words and "6♠" in words
        assert page.inner_text("#game-status") in ("Ваш ход.", "Ваша карта.")
        # the game's server errors come in Russian too
        error = page.evaluate("""async () => {
            const r = await fetch('/api/game/move', {method: 'POST', headers: {'content-type': 'application/json',
              'accept-language': 'ru'}, body: JSON.stringify({game: 'nope', move: 'pass'})});
            return [r.status, (await r.json()).error]; }""")
        assert error[0] == 400 and "нет игры" in error[1]
        page.errors.remove("Failed to load resource: the server responded with a status of 400 (Bad Request)")
        # switching to English: the page speaks English, with Latin letters
        page.select_option("#lang", "en")
        page.wait_for_selector("body[data-ready=true]")
        page.wait_for_function("document.documentElement.lang === 'en'")
        page.wait_for_selector("body[data-ready=true]")
        assert page.inner_text("#panel-game h2").lower() == "play against the bots"
        # the letters are a choice of their own
        page.select_option("#rank-letters", "russian")
        page.wait_for_function("document.documentElement.lang === 'en'")
        page.wait_for_selector("body[data-ready=true]")
        ranks = page.eval_on_selector_all("#seats .card .rank", "els => els.map(e => e.textContent)")
        assert "Т" in ranks and page.errors == []
    finally:
        page.context.close()


def test_a_deal_against_the_bots_is_played_with_the_keyboard_alone(page):
    start_game(page, left="heuristic", right="heuristic", seed="11")
    assert page.get_attribute("body", "data-game") == "your-move"
    page.focus("#game-start")
    page.keyboard.press("Shift+Tab")      # leave the start button; the game puts the focus on your choice
    page.evaluate("document.activeElement.blur()")
    # the first choice takes the focus from Tab: the options before it are the game's setup
    page.keyboard.press("Tab")
    while page.evaluate("!document.activeElement.closest('#game-choices, #game-seats')"):
        page.keyboard.press("Tab")
    cards = 0
    for _ in range(80):
        if page.get_attribute("body", "data-game") in ("over", "finished"):
            break
        focused = page.evaluate("({cls: document.activeElement.className, card: document.activeElement.dataset.card"
                                " || null, inside: !!document.activeElement.closest('#game-choices, #game-seats'),"
                                " playing: !document.querySelector('#game-choices button')})")
        assert focused["inside"], focused
        if "selected" in focused["cls"]:      # a card picked for the discard: the next one
            page.keyboard.press("Tab")
            page.keyboard.press("Enter")
            continue
        page.keyboard.press("Enter")
        settle(page)
        cards += focused["card"] is not None and focused["playing"]     # a card played, not one discarded
        assert page.locator("#game-error").is_hidden(), page.inner_text("#game-error")
    assert page.get_attribute("body", "data-game") == "finished" and cards >= 3    # a trick and more
    assert page.evaluate("document.activeElement.id") == "game-download"
    assert page.errors == []


# -- the board in Russian, every word of it -------------------------------------------------

#: What a page in Russian may show in Latin letters, each for its reason:
#: "prefsolve", the program's name, as its commands are typed; "Ctrl", the key as its cap prints it
#: (the tooltips of Undo and Redo); "English", the language switch naming that language in itself, so
#: that a reader of English finds it; "A K Q J", the rank letters switch naming the Latin letters by
#: themselves. The record's players (Ann, Bob, Cid) are names as the file writes them, and a file's
#: path (docs/GAME_FORMAT.md) and a command (the <code> of the position text) are typed as they are:
#: they are taken out before the words are read, as are hands and deals in the dotted notation
#: ("A.KT9.KT97.K7": the placeholders of the fields, a deal a message quotes), which the rank letters
#: switch governs, not the language.
LATIN_ALLOWED = {"prefsolve", "Ctrl", "English"}
LATIN_TEXTS_ALLOWED = {"A K Q J"}

#: Every text a page shows a reader: the visible text nodes, the texts of the choices of a visible
#: <select> (what opening it shows), and the visible elements' placeholders, tooltips (title) and
#: spoken names (aria-label). Commands (<code>) and the fields a user types in are left out.
SHOWN_TEXTS = """() => {
  const out = [];
  const shown = (el) => el.checkVisibility({visibilityProperty: true, opacityProperty: false});
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    const el = node.parentElement;
    if (!el || !node.textContent.trim() || el.closest("script, style, code, textarea")) continue;
    const select = el.closest("select");
    if (select ? shown(select) : shown(el)) out.push(node.textContent.trim());
  }
  for (const el of document.querySelectorAll("[placeholder], [title], [aria-label]")) {
    if (!shown(el)) continue;
    for (const name of ["placeholder", "title", "aria-label"]) {
      if (el.getAttribute(name)) out.push(el.getAttribute(name));
    }
  }
  for (const el of document.querySelectorAll("svg title")) out.push(el.textContent.trim());
  return out;
}"""


def latin_words(page, names=()):
    """The texts of the page holding a word in Latin letters that LATIN_ALLOWED does not allow."""
    found = set()
    for text in page.evaluate(SHOWN_TEXTS):
        if text in LATIN_TEXTS_ALLOWED or text == "Language / Язык":   # the switch of languages, in both
            continue
        text = re.sub(r"\b[\w/]+\.md\b", "", text)
        text = re.sub(r"[AKQJT0-9-]+(\.[AKQJT0-9-]+){3}", "", text)
        words = re.findall(r"[A-Za-z]{2,}", text)
        if any(w not in LATIN_ALLOWED and w not in names for w in words):
            found.add(text)
    return found


def test_the_russian_board_shows_no_english_word_in_any_panel(board):
    """Every panel visited as a player visits it, in Russian: no text holds an English word
    (beyond LATIN_ALLOWED); then the switch to English brings the English back."""
    page = open_game_board(board, locale="ru-RU")
    record_names = set(json.loads(RECORD.read_text())["players"])
    seen = {}

    def look(where):
        for text in latin_words(page, record_names):
            seen.setdefault(text, where)

    try:
        look("the deal shown")
        # the table, a contract played by clicks to its end, a mistake on the way
        page.click('#contracts button[data-declarer="0"][data-strain="D"]')
        settle(page)
        look("a contract chosen")
        for move in range(30):
            cards = page.locator("#seats .seat.moving button.card:not([disabled])")
            if not cards.count():
                break
            worse = page.locator("#seats .seat.moving button.card:not([disabled]):not(.best)")
            (worse.first if move == 1 and worse.count() else cards.first).click()
            settle(page)
            look(f"card {move + 1} played")
        assert page.locator("#seats .seat.moving").count() == 0, "the play ended"
        page.click("#replay")
        look("a replay")
        page.click("#replay")
        settle(page)
        # all-pass in both talon modes
        page.click('#allpass-cells button[data-seat="1"]')
        settle(page)
        look("all-pass")
        page.select_option("#allpass-mode", "ignore")
        settle(page)
        page.click('#allpass-cells button[data-seat="0"]')
        settle(page)
        look("all-pass, the talon ignored")
        page.click("#stop")
        # editing the cards
        page.click("#edit")
        page.locator("#seats .seat .card").first.click()
        look("editing the deal")
        page.click("#edit-cancel")
        # a random deal, a bad deal (the server's message)
        page.click("#deal-random")
        settle(page)
        look("a random deal")
        page.fill("#deal-text", "A.KT9.KT97.K7")
        page.click("#deal-show")
        settle(page)
        assert page.locator("#deal-error").is_visible()
        look("a bad deal")
        page.errors.remove("Failed to load resource: the server responded with a status of 400 (Bad Request)")
        page.fill("#deal-text", SMALL_DEAL)
        page.click("#deal-show")
        settle(page)
        # the analyzer, hopeless contracts hidden and then shown
        run_analysis(page, "A.KT9.KT97.K7", 8, 1)
        page.wait_for_function("() => !document.querySelector('#an-run').disabled")
        look("an analysis")
        page.check("#an-all")
        look("an analysis, every contract")
        page.fill("#an-samples", "5000")
        page.click("#an-run")
        look("an analysis running")
        page.wait_for_function("() => /^[1-9][0-9]* \\/ 5000$/.test(document.querySelector('#an-status').textContent)",
                               timeout=60_000)
        page.click("#an-cancel")
        page.wait_for_function("() => !document.querySelector('#an-run').disabled")
        assert page.inner_text("#an-status") == "отменено"
        look("an analysis cancelled")
        page.click("#copy")
        page.wait_for_function("() => document.querySelector('#copy').textContent !== 'Копировать'")
        look("the position text copied")
        # a deal against the bots, its calls and cards, to its end; then a пуля's sheet
        start_game(page, left="heuristic", right="advisor", seed="5")
        look("a game started")
        for move in range(80):
            if page.get_attribute("body", "data-game") in ("over", "finished"):
                break
            play_my_move(page)
            look(f"game move {move + 1}")
        look("a game over")
        start_game(page, left="random", right="advisor", pool=True, seed="3", target="1")
        look("a pool started")
        play_deal_out(page)
        look("a pool's deal over")
        # the review of a session: every deal, every move
        page.set_input_files("#rv-file", str(RECORD))
        page.wait_for_function("() => document.querySelector('#rv-text').value.length > 0")
        page.fill("#rv-samples", "2")
        page.click("#rv-run")
        page.wait_for_selector("body[data-review=done]", timeout=180_000)
        for number in range(page.locator("#rv-deal option").count()):
            page.select_option("#rv-deal", index=number)
            look(f"review, deal {number + 1}")
            assert page.locator("#rv-moves li").count() > 0 and page.locator("#rv-summary tr").count() > 1
            for step in range(int(page.eval_on_selector("#rv-where", "e => e.textContent.match(/\\d+$/)[0]"))):
                page.click("#rv-next")
                look(f"review, deal {number + 1}, move {step + 1}")
        assert seen == {}, "English under Russian:\n" + "\n".join(f"{w}: {t!r}" for t, w in seen.items())
        # the switch back to English: the same panels speak English again
        page.select_option("#lang", "en")
        page.wait_for_function("document.documentElement.lang === 'en'")
        page.wait_for_selector("body[data-ready=true]")
        settle(page)
        assert page.inner_text("#deal-show") == "Show" and page.inner_text("#an-run") == "Analyze"
        assert page.inner_text(".masthead p").startswith("Exact double-dummy analysis for Preferans")
        assert page.inner_text("#contracts tr:nth-child(2) th") == "Seat 0"
        assert page.inner_text("#status") == "Choose a contract in the table to play it."
        assert page.errors == [], page.errors
    finally:
        page.context.close()
