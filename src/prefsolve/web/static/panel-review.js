// The review viewer: open a game record or session (pasted, or a file), step through it move by
// move with each decision's mark and cost beside it (the review of `prefsolve review`, priced on
// the server: POST /api/review) and the chart of the whists each player lost over the deal; from
// any point of the play, try another card on the board (its play by clicking). The steps come
// from POST /api/replay: the record replayed by the rules.

import {api, apiLines} from "./api.js";
import {cardElement, cardSymbol, cardsText, el, handCards} from "./cards.js";
import {t} from "./i18n.js";
import {callText, playerName} from "./panel-game.js";

const NS = "http://www.w3.org/2000/svg";
const MARK_WORD = {inaccuracy: () => t("inaccuracy"), mistake: () => t("mistake"), blunder: () => t("blunder")};
const COLOURS = ["#1d4ed8", "#b45309", "#047857"];

/** A move's decision as the page shows it: "6♠", "пас", "7♥, снос ♠8 ♣8", "♠A". */
export function decisionText(kind, decision) {
  if (kind === "card") return cardSymbol(decision);
  if (kind === "declaration") {
    let text = callText(decision.contract);
    if (decision.discard) text += ", " + t("discard {cards}", {cards: cardsText(decision.discard)});
    if (decision.conceded) text += ", " + t("conceded");
    return text;
  }
  return callText(String(decision));
}

function svgNode(tag, attrs = {}, text) {
  const n = document.createElementNS(NS, tag);
  for (const [k, v] of Object.entries(attrs)) n.setAttribute(k, String(v));
  if (text !== undefined) n.textContent = text;
  return n;
}

/** The chart of a deal: each player's whists lost so far, move by move; the current move marked. */
function drawChart(deal, decisions, current) {
  const W = 520;
  const H = 170;
  const L = 40;
  const B = 24;
  const moves = deal.steps.length - 1;
  const players = [...new Set(deal.players)];
  const lost = Object.fromEntries(players.map((p) => [p, [0]]));
  for (let m = 1; m <= moves; m++) {
    for (const p of players) lost[p].push(lost[p][m - 1]);
    const d = decisions[m];
    if (d && d.cost !== null) lost[d.player][m] += d.cost;
  }
  const top = Math.max(1, ...players.map((p) => lost[p][moves]));
  const x = (m) => L + (W - L - 10) * (m / Math.max(1, moves));
  const y = (v) => 22 + (H - B - 22) * (1 - v / top);
  const svg = svgNode("svg", {viewBox: `0 0 ${W} ${H}`, class: "chart review-chart", role: "img",
                              "aria-label": t("Whists lost by each player over the deal")});
  for (const v of [0, top / 2, top]) {
    svg.appendChild(svgNode("line", {x1: L, x2: W - 10, y1: y(v), y2: y(v), class: "grid"}));
    svg.appendChild(svgNode("text", {x: L - 4, y: y(v) + 3, "text-anchor": "end", class: "label"},
                            v.toFixed(1)));
  }
  svg.appendChild(svgNode("text", {x: L, y: H - 6, class: "axis-title"}, t("move")));
  svg.appendChild(svgNode("line", {x1: x(current), x2: x(current), y1: 4, y2: H - B, class: "now"}));
  players.forEach((p, i) => {
    const points = lost[p].map((v, m) => `${x(m).toFixed(1)},${y(v).toFixed(1)}`).join(" ");
    svg.appendChild(svgNode("polyline", {points, fill: "none", stroke: COLOURS[i % 3], "stroke-width": 2,
                                         "data-player": p}));
    // the legend along the top, each player in his line's colour with his whists lost in the deal
    svg.appendChild(svgNode("text", {x: L + 6 + i * 160, y: 14, fill: COLOURS[i % 3], class: "label legend"},
                            `${playerName(p)}: ${lost[p][moves].toFixed(2)}`));
  });
  return svg;
}

export default {
  id: "review",
  get title() { return t("Review a game"); },
  column: "side",
  order: 6,
  mount(section, store) {
    // attribute texts, each its own t() call so that the catalogue's extraction finds it
    const attr0 = t("Open a game file");
    const attr1 = t("First move");
    const attr2 = t("Previous move");
    const attr3 = t("Next move");
    const attr4 = t("Last move");
    const attr5 = t("The moves, with their marks and costs");
    section.insertAdjacentHTML("beforeend", `
      <label class="field-label" for="rv-text">${t("A game record or session (docs/GAME_FORMAT.md): paste it or open its file")}</label>
      <textarea id="rv-text" rows="3" spellcheck="false" autocomplete="off"></textarea>
      <div class="row options">
        <input id="rv-file" type="file" accept=".json,.jsonl,application/json" aria-label="${attr0}">
        <label class="inline">${t("Samples")} <input id="rv-samples" type="number" min="1" max="500" step="1" value="20"></label>
        <label class="inline">${t("Seed")} <input id="rv-seed" type="number" min="0" step="1" value="0"></label>
        <button type="button" class="primary" id="rv-run">${t("Review")}</button>
        <button type="button" id="rv-cancel" hidden>${t("Cancel")}</button>
        <progress id="rv-progress" max="1" value="0" hidden></progress>
      </div>
      <p class="error" id="rv-error" role="alert" hidden></p>
      <div id="rv-result" hidden>
        <div class="row">
          <label class="inline">${t("Deal")} <select id="rv-deal"></select></label>
          <span class="grow"></span>
          <button type="button" id="rv-first" aria-label="${attr1}">«</button>
          <button type="button" id="rv-prev" aria-label="${attr2}">◀</button>
          <span id="rv-where" class="status"></span>
          <button type="button" id="rv-next" aria-label="${attr3}">▶</button>
          <button type="button" id="rv-last" aria-label="${attr4}">»</button>
        </div>
        <p class="contract" id="rv-contract"></p>
        <p class="status-line" id="rv-now"></p>
        <div id="rv-hands" class="rv-hands"></div>
        <div class="row"><button type="button" id="rv-branch">${t("Try another card from here")}</button></div>
        <div id="rv-chart"></div>
        <p class="caption" id="rv-balance"></p>
        <ol class="rv-moves" id="rv-moves" aria-label="${attr5}"></ol>
        <div class="scroll-x"><table class="results" id="rv-summary"></table></div>
      </div>`);
    const q = (id) => section.querySelector(`#${id}`);
    let replayed = null;    // /api/replay's answer
    let review = null;      // /api/review's answer (review --json)
    let dealIndex = 0;
    let step = 0;
    let controller = null;

    const report = (message) => {
      q("rv-error").hidden = !message;
      q("rv-error").textContent = message || "";
    };

    /** The decisions of the deal shown, by move number. */
    const decisionsOf = (number) => {
      const out = {};
      for (const deal of review ? review.deals : []) {
        if (deal.number !== number) continue;
        for (const d of deal.decisions) out[d.move] = d;
      }
      return out;
    };

    async function run(dealWanted = 1) {
      const text = q("rv-text").value.trim();
      report(null);
      try {
        replayed = await store.task(() => api("/api/replay", {game: text}));
      } catch (error) {
        report(error.message);
        return;
      }
      review = null;
      dealIndex = Math.max(0, Math.min(replayed.deals.length - 1, dealWanted - 1));
      step = 0;
      render();
      controller = new AbortController();
      q("rv-cancel").hidden = false;
      q("rv-progress").hidden = false;
      q("rv-progress").value = 0;
      q("rv-run").disabled = true;
      document.body.dataset.review = "running";
      try {
        await apiLines("/api/review", {game: text, samples: Number(q("rv-samples").value) || 20,
                                       seed: Number(q("rv-seed").value) || 0, stream: true}, (line) => {
          if (line.done !== undefined) q("rv-progress").value = line.samples ? line.done / line.samples : 0;
          if (line.result) review = line.result;
          if (line.error) report(line.error);
        }, controller.signal);
      } catch (error) {
        if (error.name !== "AbortError") report(error.message);
      } finally {
        q("rv-cancel").hidden = true;
        q("rv-progress").hidden = true;
        q("rv-run").disabled = false;
        controller = null;
        document.body.dataset.review = review ? "done" : "stopped";
        render();
      }
    }

    q("rv-run").addEventListener("click", () => run());
    q("rv-cancel").addEventListener("click", () => controller && controller.abort());
    q("rv-file").addEventListener("change", async () => {
      const file = q("rv-file").files[0];
      if (file) q("rv-text").value = await file.text();
    });
    q("rv-deal").addEventListener("change", () => {
      dealIndex = Number(q("rv-deal").value);
      step = 0;
      render();
    });
    const go = (to) => {
      if (!replayed) return;
      const last = replayed.deals[dealIndex].steps.length - 1;
      step = Math.max(0, Math.min(last, to));
      render();
    };
    q("rv-first").addEventListener("click", () => go(0));
    q("rv-prev").addEventListener("click", () => go(step - 1));
    q("rv-next").addEventListener("click", () => go(step + 1));
    q("rv-last").addEventListener("click", () => go(Infinity));
    q("rv-moves").addEventListener("keydown", (event) => {
      const by = {ArrowDown: 1, ArrowRight: 1, ArrowUp: -1, ArrowLeft: -1}[event.key];
      if (by === undefined) return;
      event.preventDefault();
      go(step + by);
      const current = q("rv-moves").querySelector("[aria-current=step] button");
      if (current) current.focus();
    });
    q("rv-branch").addEventListener("click", async () => {
      const position = replayed.deals[dealIndex].steps[step].position;
      await store.load(position);
      const board = document.getElementById("panel-board");
      if (board) board.scrollIntoView({block: "start"});
    });
    store.on("review-open", () => {
      q("rv-text").value = JSON.stringify(store.reviewGame.record);
      section.scrollIntoView({block: "start"});
      run(store.reviewGame.deal);
    });

    function renderHands(deal, now) {
      const box = q("rv-hands");
      box.replaceChildren();
      now.hands.forEach((hand, seat) => {
        const row = el("div", "rv-seat");
        row.dataset.seat = String(seat);
        const head = el("span", "seat-name", playerName(deal.players[seat]));
        row.appendChild(head);
        if (now.declarer === seat) row.appendChild(el("span", "role role-declarer", t("declarer")));
        if (now.tricks.length) row.appendChild(el("span", "won", t("tricks: {count}", {count: now.tricks_won[seat]})));
        const cards = el("span", "hand");
        for (const card of handCards(hand)) cards.appendChild(cardElement(card, {static: true}));
        const trick = now.tricks.length ? now.tricks[now.tricks.length - 1] : null;
        if (trick && trick.winner === null) {
          const i = trick.seats.indexOf(seat);
          if (i >= 0) {
            const played = cardElement(trick.cards[i], {static: true});
            played.classList.add("on-table");
            cards.appendChild(el("span", "rv-played", t("on the table:")));
            cards.appendChild(played);
          }
        }
        row.appendChild(cards);
        box.appendChild(row);
      });
    }

    function moveItem(deal, s, decision) {
      const move = deal.steps[s].move;
      const item = el("li", "rv-move");
      item.dataset.move = String(move.number);
      if (s === step) item.setAttribute("aria-current", "step");
      const button = el("button", "rv-goto");
      button.type = "button";
      button.tabIndex = s === step ? 0 : -1;
      const who = playerName(deal.players[move.by]);
      button.textContent = `${move.number}. ${who}: ${decisionText(move.kind, move.decision)}`;
      button.addEventListener("click", () => go(s));
      item.appendChild(button);
      if (decision) {
        item.dataset.cost = decision.cost === null ? "" : String(decision.cost);
        item.dataset.mark = decision.mark || "";
        if (decision.cost !== null) {
          const cost = el("span", `rv-cost${decision.mark ? " mark-" + decision.mark : ""}`,
                          decision.cost ? `−${decision.cost.toFixed(2)}` : "0");
          cost.title = t("whists lost against the best option (± {se})", {se: (decision.cost_se || 0).toFixed(2)});
          item.appendChild(cost);
        }
        if (decision.mark) item.appendChild(el("span", `rv-mark mark-${decision.mark}`, MARK_WORD[decision.mark]()));
        if (decision.cost) {
          item.appendChild(el("span", "rv-best", t("best: {option}", {option: decisionText(move.kind, decision.best)})));
        }
        // why the decision is not priced, said by the server in the page's language (the JSON's note is English)
        if (decision.note) item.appendChild(el("span", "rv-forced", decision.note_said || decision.note));
        if (decision.dd_cost) item.appendChild(el("span", "rv-dd", t("double-dummy: −{tricks}", {tricks: decision.dd_cost})));
      } else if (move.forced) {
        item.appendChild(el("span", "rv-forced", t("forced")));
      }
      return item;
    }

    function renderSummary() {
      const table = q("rv-summary");
      table.replaceChildren();
      if (!review) return;
      const head = el("tr");
      for (const text of [t("Player"), t("Decisions"), t("Best"), t("Whists lost"), t("Mistakes")]) {
        head.appendChild(el("th", "", text));
      }
      table.appendChild(head);
      for (const s of review.summary) {
        const row = el("tr");
        row.dataset.player = s.player;
        const marks = Object.entries(s.marks).filter(([, n]) => n).map(([m, n]) => `${MARK_WORD[m]()} ${n}`);
        for (const text of [playerName(s.player), s.decisions, s.best, `${s.cost.toFixed(2)} ± ${s.cost_se.toFixed(2)}`,
                            marks.join(", ") || "—"]) {
          row.appendChild(el("td", "num", String(text)));
        }
        table.appendChild(row);
      }
    }

    function render() {
      q("rv-result").hidden = !replayed;
      if (!replayed) return;
      const select = q("rv-deal");
      if (select.options.length !== replayed.deals.length) {
        select.replaceChildren(...replayed.deals.map((d, i) => new Option(String(d.number), String(i))));
      }
      select.value = String(dealIndex);
      const deal = replayed.deals[dealIndex];
      const now = deal.steps[step];
      const decisions = decisionsOf(deal.number);
      q("rv-where").textContent = t("move {step} of {moves}", {step, moves: deal.steps.length - 1});
      q("rv-contract").textContent = now.strain === "allpass" ? t("All-pass (распасы)")
        : now.contract ? t("{player} plays {contract}", {player: playerName(deal.players[now.declarer]),
                                                         contract: callText(now.contract)})
          : t("Auction");
      const made = now.move;
      const d = made ? decisions[made.number] : null;
      q("rv-now").textContent = !made ? t("The deal as dealt. Talon (прикуп): {cards}", {cards: cardsText(handCards(deal.talon || "-.-.-.-"))})
        : `${playerName(deal.players[made.by])}: ${decisionText(made.kind, made.decision)}` +
          (d && d.mark ? ` — ${MARK_WORD[d.mark]()}` : "");
      renderHands(deal, now);
      q("rv-branch").disabled = !now.position;
      q("rv-branch").dataset.position = now.position || "";
      q("rv-chart").replaceChildren(drawChart(deal, decisions, step));
      const reviewed = review ? review.deals.find((r) => r.number === deal.number) : null;
      q("rv-balance").textContent = reviewed && reviewed.balances
        ? t("The deal's result in whists: {list}", {list: reviewed.balances.map((b, seat) =>
          `${playerName(deal.players[seat])} ${b > 0 ? "+" : ""}${b}`).join(", ")}) : "";
      const list = q("rv-moves");
      list.replaceChildren();
      for (let s = 1; s < deal.steps.length; s++) list.appendChild(moveItem(deal, s, decisions[deal.steps[s].move.number]));
      renderSummary();
      section.dataset.step = String(step);
    }
  },
};
