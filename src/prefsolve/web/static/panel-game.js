// Play against the bots: you in one seat, two players of prefsolve's (advisor at a number
// of samples, heuristic, random) in the others; a single deal or a whole пуля with its score
// sheet drawn as players draw it on paper. The server deals, checks every move by the rules
// (a refused move shows its message) and makes the bots' moves on its solving threads
// (POST /api/game, /api/game/move, /api/game/next); the page only shows what your seat sees.
// When a deal ends the bots' hands are shown, the record downloads as a game file and the
// review of the deal is one click away.

import {api} from "./api.js";
import {cardElement, cardsText, el, handCards, sortCards, SUIT_SYMBOL} from "./cards.js";
import {t} from "./i18n.js";
import {drawSheet} from "./sheet.js";

/** The places round the table, from your seat in play order (clockwise): you, your left, your right. */
const PLACES = ["bottom", "left", "right"];

/** A call, a contract or a word of the game in the page's language: "6♠", "мизер", "пас". */
export function callText(call) {
  if (call === "pass") return t("pass");
  if (call === "misere") return t("misère");
  if (call === "whist") return t("whist");
  if (call === "half") return t("half-whist");
  if (call === "open") return t("open");
  if (call === "closed") return t("closed");
  const here = call.endsWith(" here");
  const bid = here ? call.slice(0, -5) : call;
  const m = /^(\d+)(S|C|D|H|NT)$/.exec(bid);
  if (!m) return call;
  const text = m[1] + (m[2] === "NT" ? t("NT") : SUIT_SYMBOL[m[2]]);
  return here ? t("{bid} here", {bid: text}) : text;
}

/** A player's name as the page shows it: "you" and the board's bots (their player texts,
 * "advisor:samples=20", a second of the same numbered "heuristic (2)") in the page's language; any other
 * name (a record's players) as it is written. */
export function playerName(name) {
  if (name === "you") return t("you");
  const m = /^(heuristic|random|cheater|advisor(?::samples=(\d+))?)( \(\d+\))?$/.exec(name);
  if (!m) return name;
  const words = {heuristic: () => t("heuristic"), random: () => t("random"), cheater: () => t("cheater")};
  const bot = m[1] in words ? words[m[1]]()
    : m[2] === undefined ? t("advisor") : t("advisor:samples={samples}", {samples: m[2]});
  return bot + (m[3] || "");
}

const BOTS = [["heuristic", () => t("heuristic (book rules)")], ["advisor", () => t("advisor (samples)")],
              ["random", () => t("random")]];

function botSelect(id, chosen) {
  const options = BOTS.map(([value, label]) =>
    `<option value="${value}"${value === chosen ? " selected" : ""}>${label()}</option>`).join("");
  return `<select id="${id}">${options}</select>`;
}

export default {
  id: "game",
  get title() { return t("Play against the bots"); },
  column: "main",
  order: 5,
  mount(section, store) {
    // attribute texts, each its own t() call so that the catalogue's extraction finds it
    const attr0 = t("any");
    const attr1 = t("The table");
    const attr2 = t("Your move");
    const attr3 = t("The auction");
    section.insertAdjacentHTML("beforeend", `
      <div class="row options" id="game-setup">
        <label class="inline">${t("Your seat")}
          <select id="game-seat"><option value="0">${t("first hand")}</option><option value="1">${t("second hand")}</option><option value="2">${t("dealer")}</option></select>
        </label>
        <label class="inline">${t("On your left")} ${botSelect("game-bot1", "heuristic")}</label>
        <label class="inline">${t("On your right")} ${botSelect("game-bot2", "advisor")}</label>
        <label class="inline">${t("Advisor's samples")} <input id="game-samples" type="number" min="1" max="500" step="1" value="20"></label>
        <label class="inline">${t("Play")}
          <select id="game-kind"><option value="deal">${t("one deal")}</option><option value="pool">${t("a whole pool (пуля)")}</option></select>
        </label>
        <label class="inline">${t("Pool to")} <input id="game-target" type="number" min="1" max="100" step="1" value="10"></label>
        <label class="inline">${t("Seed")} <input id="game-seed" type="number" min="0" step="1" placeholder="${attr0}"></label>
        <button type="button" class="primary" id="game-start">${t("Deal the cards")}</button>
      </div>
      <p class="error" id="game-error" role="alert" hidden></p>
      <div id="game-area" hidden>
        <p class="contract" id="game-contract"></p>
        <p class="status-line" id="game-status"></p>
        <div class="seats" id="game-seats">
          <div class="felt" id="game-felt" role="group" aria-label="${attr1}">
            <div class="trick" id="game-trick"></div>
            <div class="talon" id="game-talon"></div>
          </div>
        </div>
        <div class="row" id="game-choices" role="group" aria-label="${attr2}"></div>
        <ol class="history" id="game-calls" aria-label="${attr3}"></ol>
        <div class="row" id="game-after" hidden>
          <button type="button" class="primary" id="game-next">${t("Next deal")}</button>
          <a class="button" id="game-download" download="prefsolve-game.json" href="#">${t("Download the record")}</a>
          <button type="button" id="game-review">${t("Review this deal")}</button>
        </div>
        <div id="game-sheet-box" hidden>
          <h3 class="sub">${t("Score sheet")}</h3>
          <div id="game-sheet"></div>
          <div class="scroll-x"><table class="results" id="game-totals"></table></div>
        </div>
      </div>`);
    const q = (id) => section.querySelector(`#${id}`);
    let game = null;          // the server's view of the game (POST /api/game's answer)
    let discard = [];         // the cards picked to discard, while you declare
    let thinking = false;
    let downloadUrl = null;
    let focusNext = null;     // after a render, where the keyboard's focus goes: "move", or a card to keep it on

    const report = (message) => {
      q("game-error").hidden = !message;
      q("game-error").textContent = message || "";
    };

    const send = async (path, body) => {
      thinking = true;
      render();
      try {
        game = await store.task(() => api(path, body));
        discard = [];
        focusNext = "move";
        report(null);
      } catch (error) {
        report(error.message);
      } finally {
        thinking = false;
        render();
      }
    };

    const botSpec = (id) => {
      const name = q(id).value;
      return name === "advisor" ? `advisor:samples=${Number(q("game-samples").value) || 20}` : name;
    };

    q("game-start").addEventListener("click", () => {
      const body = {players: [botSpec("game-bot1"), botSpec("game-bot2")], seat: Number(q("game-seat").value),
                    pool: q("game-kind").value === "pool"};
      if (body.pool) body.settings = [`pool_target=${Number(q("game-target").value) || 10}`];
      if (q("game-seed").value !== "") body.seed = Number(q("game-seed").value);
      send("/api/game", body);
    });
    q("game-next").addEventListener("click", () => send("/api/game/next", {game: game.game}));
    q("game-review").addEventListener("click", () => {
      store.reviewGame = {record: game.record, deal: game.record.deals.length};
      store.emit("review-open");
    });

    const move = (decision) => send("/api/game/move", {game: game.game, move: decision});

    /** The seat (of the deal) of each card played so far. */
    const playedBy = (seen) => {
      const by = {};
      for (const trick of seen.tricks) trick.cards.forEach((card, i) => { by[card] = trick.seats[i]; });
      return by;
    };

    function seatBox(seat, seen) {
      const you = seen.seat;
      const place = PLACES[(seat - you + 3) % 3];
      const box = el("div", `seat at-${place}`);
      box.dataset.seat = String(seat);
      const head = el("div", "seat-head");
      head.appendChild(el("span", "seat-name", playerName(game.names[seat])));
      if (seen.declarer === seat) head.appendChild(el("span", "role role-declarer", t("declarer")));
      if ((game.first_hand + seat) % 3 === game.dealer) head.appendChild(el("span", "dealer", t("dealer")));
      if (seen.tricks.length) head.appendChild(el("span", "won", t("tricks: {count}", {count: seen.tricks_won[seat]})));
      if (!game.over && game.decider !== null && (seen.to_play ?? game.decider) === seat && !thinking) {
        head.appendChild(el("span", "turn", t("to move")));
        box.classList.add("moving");
      }
      box.appendChild(head);
      const hand = el("div", "hand");
      const cards = handOf(seat, seen);
      const options = new Set(seen.kind === "card" && game.your_move ? seen.options : []);
      const declaring = seen.kind === "declaration" && game.your_move && seat === you;
      if (cards === null) {
        const count = 10 - Object.values(playedBy(seen)).filter((s) => s === seat).length;
        hand.appendChild(el("span", "empty backs", t("{count} cards", {count})));
      } else {
        for (const card of cards) {
          const playable = options.has(card);
          const button = cardElement(card, {static: !(playable || declaring), selected: discard.includes(card)});
          if (playable && !thinking) button.addEventListener("click", () => move(card));
          else if (declaring && !thinking) {
            button.addEventListener("click", () => {
              discard = discard.includes(card) ? discard.filter((c) => c !== card)
                : [...discard, card].slice(-2);
              focusNext = discard.length === 2 ? "move" : card;
              render();
            });
          } else if (!playable && !declaring && box.classList.contains("moving") && seat === you) {
            button.classList.add("idle");
          }
          hand.appendChild(button);
        }
        if (!cards.length) hand.appendChild(el("span", "empty", t("no cards left")));
      }
      box.appendChild(hand);
      return box;
    }

    /** The cards a seat shows: yours (the declarer's twelve while he discards), a hand lying face up,
     * every hand as dealt once the deal is over; null for a hidden hand. */
    function handOf(seat, seen) {
      if (game.over) {
        const hands = seen.deal.split(/\s+/).slice(0, 3).map(handCards);
        return sortCards(hands[seat]);
      }
      if (seat === seen.seat) return handCards(seen.hand);
      if (seen.shown[String(seat)] !== undefined) {
        const by = playedBy(seen);
        return handCards(seen.shown[String(seat)]).filter((c) => by[c] === undefined);
      }
      return null;
    }

    function renderChoices(seen) {
      const box = q("game-choices");
      box.replaceChildren();
      if (!game.your_move || thinking || seen.kind === "card") return;
      const prompt = {call: t("Your call:"), whist: t("Whist or pass?"), defence: t("Open or closed?"),
                      declaration: discard.length === 2 || seen.hand.split(".").join("").length < 12
                        ? t("Declare:") : t("Pick two cards to discard, then declare:")}[seen.kind];
      box.appendChild(el("span", "prompt", prompt));
      for (const option of seen.options) {
        const button = el("button", "choice", callText(option));
        button.type = "button";
        button.dataset.option = option;
        if (seen.kind === "declaration") {
          const twelve = handCards(seen.hand).length === 12;
          button.disabled = twelve && discard.length !== 2;
          button.addEventListener("click", () => move({contract: option, discard: twelve ? discard : null}));
        } else {
          button.addEventListener("click", () => move(option));
        }
        box.appendChild(button);
      }
      if (seen.kind === "declaration" && seen.can_concede) {
        const button = el("button", "choice", t("Concede (без трёх)"));
        button.type = "button";
        button.dataset.option = "concede";
        button.addEventListener("click", () => move({contract: seen.bid, conceded: true}));
        box.appendChild(button);
      }
    }

    function renderFelt(seen) {
      const trick = q("game-trick");
      trick.replaceChildren();
      const current = seen.tricks.length ? seen.tricks[seen.tricks.length - 1] : null;
      if (current && !game.over) {
        current.cards.forEach((card, i) => {
          const slot = el("div", `slot at-${PLACES[(current.seats[i] - seen.seat + 3) % 3]}`);
          slot.appendChild(cardElement(card, {static: true}));
          trick.appendChild(slot);
        });
        if (current.talon_card) {
          const slot = el("div", "slot at-top");
          slot.appendChild(cardElement(current.talon_card, {static: true}));
          trick.appendChild(slot);
        }
      }
      if (game.over) {
        const lines = [];
        if (game.balances) {
          game.balances.forEach((b, seat) => lines.push(`${playerName(game.players[seat])}: ${b}`));
        } else if (game.forfeit) {
          lines.push(game.forfeit.reason_said || game.forfeit.reason);    // said in the page's language
        }
        trick.appendChild(el("div", "result", t("The deal is over. Whists: {list}", {list: lines.join(", ")})));
      }
      const talon = q("game-talon");
      talon.replaceChildren();
      if (seen.talon && seen.talon !== "-.-.-.-") {
        talon.appendChild(el("span", "talon-label", t("Talon (прикуп)")));
        for (const card of handCards(seen.talon)) talon.appendChild(cardElement(card, {static: true}));
      }
      if (seen.discard) {
        talon.appendChild(el("span", "talon-label", t("Discard (снос): {cards}", {cards: cardsText(seen.discard)})));
      }
    }

    function contractLine(seen) {
      if (seen.strain === "allpass") return t("All-pass (распасы)");
      if (seen.contract) {
        return t("{player} plays {contract}", {player: playerName(game.names[seen.declarer]),
                                               contract: callText(seen.contract)});
      }
      return game.pool ? t("Pool: deal {number}", {number: game.number}) : t("Auction");
    }

    function status(seen) {
      if (thinking) return t("The bots are thinking…");
      if (game.over) return game.finished ? t("The game is over.") : t("The deal is over.");
      if (game.your_move) return seen.kind === "card" ? t("Your card.") : t("Your move.");
      return t("{player} to move", {player: playerName(game.names[game.decider])});
    }

    function renderCalls(seen) {
      const list = q("game-calls");
      list.replaceChildren();
      const said = (calls, seats) => calls.forEach((call, i) => {
        const item = el("li", "");
        item.appendChild(el("span", "trick-no", playerName(game.names[seats[i]])));
        item.appendChild(el("span", "chip", callText(call)));
        list.appendChild(item);
      });
      said(seen.calls, game.call_seats);
      said(seen.whist_calls, game.whist_seats);
    }

    function renderSheet() {
      const box = q("game-sheet-box");
      box.hidden = !game.pool && !game.over;
      if (box.hidden) return;
      q("game-sheet").replaceChildren(drawSheet(game.sheet, playerName, game.you));
      const totals = q("game-totals");
      totals.replaceChildren();
      const head = el("tr");
      for (const text of [t("Player"), t("Pool (пуля)"), t("Mountain (гора)"), t("Whists (висты)"), t("Balance")]) {
        head.appendChild(el("th", "", text));
      }
      totals.appendChild(head);
      for (const name of game.sheet.players) {
        const row = el("tr");
        const line = game.sheet.sheet[name];
        const whists = Object.entries(line.whists).map(([other, n]) => `${playerName(other)} ${n}`).join(", ");
        for (const text of [playerName(name), line.pool, line.mountain, whists, game.sheet.settlement[name]]) {
          row.appendChild(el("td", "num", String(text)));
        }
        totals.appendChild(row);
      }
    }

    function render() {
      q("game-area").hidden = game === null;
      q("game-start").disabled = thinking;
      if (game === null) return;
      const seen = game.view;
      q("game-contract").textContent = contractLine(seen);
      q("game-status").textContent = status(seen);
      const seats = q("game-seats");
      for (const box of seats.querySelectorAll(".seat")) box.remove();
      for (let seat = 0; seat < 3; seat++) seats.insertBefore(seatBox(seat, seen), q("game-felt"));
      renderFelt(seen);
      renderChoices(seen);
      renderCalls(seen);
      renderSheet();
      q("game-after").hidden = !game.over;
      q("game-next").hidden = game.finished;
      if (downloadUrl) URL.revokeObjectURL(downloadUrl);
      downloadUrl = URL.createObjectURL(new Blob([JSON.stringify(game.record, null, 1)],
                                                 {type: "application/json"}));
      q("game-download").href = downloadUrl;
      document.body.dataset.game = game.over ? (game.finished ? "finished" : "over")
        : (game.your_move ? "your-move" : "waiting");
      placeFocus();
    }

    /** After your move the focus goes to your next choice (a call's button, a card you may play), or at
     * the end of the deal to Next deal or the download; while you discard, it stays on the card picked. */
    function placeFocus() {
      const where = focusNext;
      focusNext = null;
      if (where === null || thinking) return;
      let target = null;
      if (where !== "move") target = section.querySelector(`#game-seats .seat.at-bottom button.card[data-card="${where}"]`);
      if (!target && game.over) target = q(game.finished ? "game-download" : "game-next");
      if (!target) {
        target = section.querySelector("#game-choices button.choice:not([disabled])")
          || section.querySelector("#game-seats button.card");
      }
      if (target) target.focus();
    }
  },
};
