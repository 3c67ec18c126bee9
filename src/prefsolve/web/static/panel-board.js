// The board: the three hands around the green table (the seat chosen at the
// bottom, the next seat in play on its left, the one after on its right; the
// dealer marked), the trick on the table with each card by the seat that
// played it, and play by clicking or with the keyboard. Each legal card of the
// seat to move shows its cost: the tricks it loses for that seat's side against
// the best card ("0" on the best cards, which are ringed); a played mistake
// keeps its cost. A finished play shows the hands again, and Replay plays it once more.
// In edit mode a card is picked and then moved by choosing another hand.
import {STRAIN_LABEL, cardElement, cardName, cardSymbol, cardsText, dealText, el, parseDeal, sortCards, handCards,
        tricksText} from "./cards.js";
import {DEALER} from "./store.js";
import {t} from "./i18n.js";
import {seatOptions} from "./panel-deal.js";

/** The places round the table, by seat in play order from the bottom one: play goes clockwise. */
const PLACES = ["bottom", "left", "right"];

/** Where `seat` sits when `view` is at the bottom. */
export function placeOf(seat, view) {
  return PLACES[(seat - view + 3) % 3];
}

/** The roles of the seats, as the page says them. */
const ROLE_WORD = {declarer: () => t("declarer"), defender: () => t("defender"), counted: () => t("counted")};

/** The phone layout (one column): choosing a contract scrolls to the board. */
const NARROW = "(max-width: 899px)";

function header(position) {
  if (position.strain === "allpass") {
    const talon = position.turn.length ? t("the talon leads: {cards}", {cards: cardsText(position.turn)})
      : t("seat {seat} leads", {seat: position.leader});
    return t("All-pass · tricks counted for seat {seat} · {lead}", {seat: position.seat, lead: talon});
  }
  const strain = STRAIN_LABEL[position.strain];
  const trumps = ["S", "C", "D", "H"].includes(position.strain) ? t("{suit} trumps", {suit: strain}) : strain;
  return t("Declarer seat {declarer} · {strain} · seat {seat} leads", {declarer: position.declarer, strain: trumps,
                                                                       seat: position.leader});
}

/** Whose tricks the values count: "the declarer", or in all-pass "seat 1". */
function counted(position) {
  return position.strain === "allpass" ? t("seat {seat}", {seat: position.seat}) : t("the declarer");
}

/** A legal card's cost: the tricks it loses for the side to move against the best card (0 for a best card). */
function costOf(position, card) {
  return Math.abs(position.values[card] - position.values[position.best_cards[0]]);
}

/** The seat that played each card of the play so far. */
function seatsOfCards(position) {
  const seats = {};
  for (const trick of [...position.played_tricks, ...(position.trick ? [position.trick] : [])]) {
    trick.cards.forEach((card, i) => { seats[card] = trick.seats[i]; });
  }
  return seats;
}

/** The hands as the play began (after the declarer's discard): what is left and what was played. */
function handsAtStart(position) {
  const hands = position.hands.map(handCards);
  const seats = seatsOfCards(position);
  for (const card of position.played) if (seats[card] !== undefined) hands[seats[card]].push(card);
  return hands.map(sortCards);
}

export default {
  id: "board",
  get title() { return t("Board"); },
  column: "main",
  order: 3,
  mount(section, store) {
    // attribute texts, each its own t() call so that the catalogue's extraction finds it
    const attr0 = t("The table");
    const attr1 = t("Take back the last card (Ctrl+Z)");
    const attr2 = t("Play the card taken back again (Ctrl+Y)");
    const attr3 = t("Play the deal again, card by card");
    const attr4 = t("Back to the deal");
    const attr5 = t("Move cards between the hands");
    const attr6 = t("Tricks played");
    section.insertAdjacentHTML("beforeend", `
      <p class="contract" id="contract"></p>
      <p class="status-line" id="status" role="status" aria-live="polite"></p>
      <div class="seats" id="seats">
        <div class="felt" id="felt" data-zone="talon" role="group" aria-label="${attr0}">
          <div class="felt-title" id="felt-title"></div>
          <div class="trick" id="trick"></div>
          <div class="talon" id="talon"></div>
        </div>
      </div>
      <p class="error" id="play-error" role="alert" hidden></p>
      <div class="row controls">
        <button type="button" id="undo" title="${attr1}">${t("↶ Undo")}</button>
        <button type="button" id="redo" title="${attr2}">${t("Redo ↷")}</button>
        <button type="button" id="replay" title="${attr3}">${t("▶ Replay")}</button>
        <button type="button" id="stop" title="${attr4}">${t("Stop")}</button>
        <span class="grow"></span>
        <label class="inline">${t("At the bottom")}
          <select id="view-seat">${seatOptions()}</select>
        </label>
        <button type="button" id="edit" title="${attr5}">${t("Edit cards")}</button>
        <button type="button" class="primary" id="edit-apply" hidden>${t("Apply")}</button>
        <button type="button" id="edit-cancel" hidden>${t("Cancel")}</button>
      </div>
      <p class="hint" id="edit-hint" hidden>${t("Pick a card, then pick the hand (or the talon) it goes to.")}</p>
      <p class="error" id="edit-error" role="alert" hidden></p>
      <p class="legend" id="legend"></p>
      <ol class="history" id="history" aria-label="${attr6}"></ol>
      <div class="copy-row">
        <label class="field-label" for="position-text">${t("Position text (paste it back, or give it to {command})", {command: "<code>prefsolve play</code>"})}</label>
        <div class="row">
          <input id="position-text" readonly spellcheck="false">
          <button type="button" id="copy">${t("Copy")}</button>
        </div>
      </div>`);
    const q = (id) => section.querySelector(`#${id}`);
    const edit = {on: false, zones: null, picked: null};

    const render = () => {
      const position = store.position;
      const editing = edit.on;
      q("contract").textContent = editing ? t("Editing the deal")
        : position ? header(position) : store.deal ? t("Choose a contract in the table to play it.") : "";
      renderSeats(position, editing);
      renderFelt(position, editing);
      renderStatus(position, editing);
      renderHistory(position);
      const playing = Boolean(position) && !editing;
      q("undo").disabled = !playing || !store.played.length;
      q("redo").disabled = !playing || !store.redoStack.length;
      q("replay").disabled = !playing || !(store.replaying || store.redoStack.length || position.trick === null);
      q("replay").textContent = store.replaying ? t("⏸ Pause") : t("▶ Replay");
      q("stop").disabled = !playing;
      q("view-seat").value = String(store.viewSeat);
      q("edit").hidden = editing;
      q("edit-apply").hidden = q("edit-cancel").hidden = q("edit-hint").hidden = !editing;
      q("position-text").value = position ? position.position : (store.deal || "");
      q("legend").textContent = position && !editing ? legend(position) : "";
      takeFocus(position, editing);
    };

    const legend = (position) => {
      return t("Each card the player to move may play shows its cost: the tricks it loses for his side against the best card, if everyone plays perfectly afterwards: 0 on the best cards (ringed in green), −1 on a card that gives a trick away, and so on, for the declarer and the defenders alike. With best play from here {who} takes {tricks}. A played card that lost tricks keeps its cost.",
               {who: counted(position), tricks: tricksText(position.tricks)});
    };

    const roles = (position, seat) => {
      if (!position) return "";
      if (position.strain === "allpass") return seat === position.seat ? "counted" : "";
      return seat === position.declarer ? "declarer" : "defender";
    };

    const cardsOf = (position, editing, seat, deal, startHands) => {
      if (editing) return sortCards(edit.zones[seat]);
      if (startHands) return startHands[seat];
      if (position) return handCards(position.hands[seat]);
      return deal ? deal.hands[seat] : [];
    };

    const playable = (position, card) => {
      const value = position.values[card];
      if (value === undefined) return cardElement(card, {disabled: true});
      const cost = costOf(position, card);
      const outcome = t("{who} takes {tricks}", {who: counted(position), tricks: tricksText(value)});
      // each message its own call, outside another's fields, so that the catalogue's extraction finds it
      const lost = cost ? t("loses {tricks}", {tricks: tricksText(cost)}) : t("best");
      const label = t("{card}: {cost}; {outcome}", {card: cardName(card), cost: lost, outcome});
      const node = cardElement(card, {value, cost, best: position.best_cards.includes(card), label});
      node.addEventListener("click", () => {
        store.focusPlay = "card";
        store.play(card);
      });
      return node;
    };

    const renderSeats = (position, editing) => {
      const seats = q("seats");
      for (const old of seats.querySelectorAll(".seat")) old.remove();
      const deal = store.deal ? parseDeal(store.deal) : null;
      const over = Boolean(position) && !editing && position.trick === null;
      const startHands = over ? handsAtStart(position) : null;
      const boxes = {};
      for (let seat = 0; seat < 3; seat++) {
        const place = placeOf(seat, store.viewSeat);
        const box = el("div", `seat at-${place}`);
        box.dataset.seat = String(seat);
        box.dataset.place = place;
        box.setAttribute("role", "group");
        const head = el("div", "seat-head");
        head.appendChild(el("span", "seat-name", t("Seat {seat}", {seat})));
        const role = roles(position, seat);
        const roleSaid = role ? ROLE_WORD[role]() : "";
        if (role) head.appendChild(el("span", `role role-${role}`, roleSaid));
        if (seat === DEALER) head.appendChild(el("span", "dealer", t("dealer")));
        if (position && !editing) {
          const won = el("span", "won", t("{count} won", {count: position.tricks_won[seat]}));
          won.dataset.won = String(position.tricks_won[seat]);
          head.appendChild(won);
          if (position.to_move === seat && !over) head.appendChild(el("span", "turn", t("to play")));
        }
        box.setAttribute("aria-label", [t("Seat {seat}", {seat}), roleSaid, seat === DEALER ? t("dealer") : ""]
          .filter(Boolean).join(", "));
        box.appendChild(head);
        const hand = el("div", "hand roving");
        hand.id = `hand-${seat}`;
        const moving = position && !editing && !over && position.to_move === seat;
        if (moving) box.classList.add("moving");
        if (over) hand.classList.add("replayed");
        const cards = cardsOf(position, editing, seat, deal, startHands);
        for (const card of cards) {
          let node;
          if (editing) {
            box.dataset.zone = String(seat);
            box.classList.add("zone");
            node = cardElement(card, {selected: edit.picked === card});
            node.addEventListener("click", (event) => {
              event.stopPropagation();
              pick(card, seat);
            });
          } else if (moving) {
            node = playable(position, card);
          } else {
            node = cardElement(card, {static: true});
          }
          hand.appendChild(node);
        }
        if (!cards.length) hand.appendChild(el("span", "empty", t("no cards")));
        rove(hand);
        box.appendChild(hand);
        if (editing) box.addEventListener("click", () => moveTo(seat));
        boxes[place] = box;
      }
      // Reading order: the hands on the left and right, the table, the hand at the bottom.
      seats.insertBefore(boxes.left, q("felt"));
      seats.insertBefore(boxes.right, q("felt"));
      seats.appendChild(boxes.bottom);
    };

    const renderFelt = (position, editing) => {
      const felt = q("felt");
      const trick = q("trick");
      const talon = q("talon");
      trick.replaceChildren();
      talon.replaceChildren();
      talon.classList.remove("roving");
      felt.classList.toggle("zone", editing);
      const deal = store.deal ? parseDeal(store.deal) : null;
      if (editing) {
        q("felt-title").textContent = t("Talon");
        talon.classList.add("roving");
        for (const card of sortCards(edit.zones.talon)) {
          const node = cardElement(card, {selected: edit.picked === card});
          node.addEventListener("click", (event) => {
            event.stopPropagation();
            pick(card, "talon");
          });
          talon.appendChild(node);
        }
        if (!edit.zones.talon.length) talon.appendChild(el("span", "empty", t("no talon")));
        rove(talon);
        return;
      }
      if (!position) {
        q("felt-title").textContent = deal && deal.talon ? t("Talon") : "";
        for (const card of (deal && deal.talon) || []) talon.appendChild(cardElement(card, {static: true}));
        return;
      }
      const current = position.trick;
      q("felt-title").textContent = current ? t("Trick {number}", {number: position.played_tricks.length + 1})
        : t("The play is over");
      if (current) {
        if (current.talon_card) trick.appendChild(slot(current.talon_card, t("talon"), "top", 0));
        current.cards.forEach((card, i) => {
          const seat = current.seats[i];
          trick.appendChild(slot(card, t("seat {seat}", {seat}), placeOf(seat, store.viewSeat), mistakeOf(position, card),
                                 seat));
        });
        if (!current.cards.length && !current.talon_card) {
          trick.appendChild(el("span", `empty lead at-${placeOf(position.to_move, store.viewSeat)}`,
                               t("seat {seat} leads", {seat: position.to_move})));
        }
      } else {
        const seat = position.declarer ?? position.seat;
        const total = position.tricks_won[seat];
        const said = position.strain === "allpass"
          ? t("Seat {seat} took {tricks}", {seat, tricks: tricksText(total)})
          : t("The declarer took {tricks}", {tricks: tricksText(total)});
        trick.appendChild(el("span", "result", said));
      }
      if (position.talon_mode === "take" && position.discard) {
        talon.appendChild(el("span", "talon-label", t("Talon {cards} taken; discard", {cards: cardsText(deal.talon)})));
        for (const card of position.discard) talon.appendChild(cardElement(card, {static: true}));
      } else if (position.turn && position.turn.length) {
        talon.appendChild(el("span", "talon-label", t("Talon turned")));
        for (const card of position.turn) talon.appendChild(cardElement(card, {static: true}));
      } else if (deal && deal.talon) {
        talon.appendChild(el("span", "talon-label", t("Talon out of play")));
        for (const card of deal.talon) talon.appendChild(cardElement(card, {static: true}));
      }
    };

    const slot = (card, label, place, cost, seat) => {
      const box = el("div", `slot at-${place}`);
      box.dataset.seat = seat === undefined ? "talon" : String(seat);
      const spoken = cost ? t("{place}: {card}, lost {tricks}", {place: label, card: cardName(card), tricks: tricksText(cost)})
        : `${label}: ${cardName(card)}`;
      box.appendChild(cardElement(card, {static: true, mistake: cost || undefined, label: spoken}));
      box.appendChild(el("span", "slot-label", label));
      return box;
    };

    const mistakeOf = (position, card) => {
      const found = position.mistakes.find((m) => m.card === card);
      return found ? found.cost : 0;
    };

    // The status line, the page's one live region: the last card played and what comes next.
    const renderStatus = (position, editing) => {
      const line = q("status");
      let text = "";
      let mistake = null;
      if (editing) {
        text = t("Editing the deal.");
      } else if (!position) {
        text = store.deal ? t("Choose a contract in the table to play it.") : "";
      } else {
        const parts = [];
        const n = store.played.length;
        if (n) {
          const card = store.played[n - 1];
          mistake = position.mistakes.find((m) => m.move === n) || null;
          const seat = seatsOfCards(position)[card];
          parts.push(mistake ? t("Seat {seat} played {card} and lost {tricks}; best was {cards}.", {
            seat, card: cardSymbol(card), tricks: tricksText(mistake.cost), cards: cardsText(mistake.best_cards)})
            : t("Seat {seat} played {card}.", {seat, card: cardSymbol(card)}));
        }
        if (position.trick === null) {
          const seat = position.declarer ?? position.seat;
          parts.push(t("The play is over: {who} took {tricks}.", {who: counted(position),
                                                                 tricks: tricksText(position.tricks_won[seat])}));
        } else {
          parts.push(t("Seat {seat} to play; with best play {who} takes {tricks}.", {
            seat: position.to_move, who: counted(position), tricks: tricksText(position.tricks)}));
        }
        text = parts.join(" ");
      }
      if (line.textContent !== text) line.textContent = text;
      line.classList.toggle("mistake", Boolean(mistake));
      line.hidden = !text;
    };

    const renderHistory = (position) => {
      const list = q("history");
      list.replaceChildren();
      if (!position || edit.on) return;
      position.played_tricks.forEach((trick, i) => {
        const item = el("li", "done");
        item.appendChild(el("span", "trick-no", `${i + 1}.`));
        if (trick.talon_card) item.appendChild(el("span", "chip talon-chip", cardSymbol(trick.talon_card)));
        trick.cards.forEach((card) => {
          const cost = mistakeOf(position, card);
          const chip = el("span", `chip ${"DH".includes(card[0]) ? "red" : "dark"}${cost ? " mistake" : ""}`, cardSymbol(card));
          if (cost) chip.appendChild(el("sup", "cost", `−${cost}`));
          item.appendChild(chip);
        });
        item.appendChild(el("span", "winner", t("→ seat {seat}", {seat: trick.winner})));
        list.appendChild(item);
      });
    };

    // The keyboard: one card of a hand is in the tab order; the arrow keys
    // (and Home, End) move within the hand; after a contract is chosen or a card
    // played, the focus goes to the next card that may be played.
    const rove = (hand) => {
      const cards = [...hand.querySelectorAll("button.card:not([disabled])")];
      cards.forEach((card, i) => { card.tabIndex = i === 0 ? 0 : -1; });
    };

    const takeFocus = (position, editing) => {
      const wanted = store.focusPlay;
      if (!wanted || store.busy || editing || !position) return;
      store.focusPlay = null;
      const scroll = wanted === "board" && window.matchMedia(NARROW).matches;
      if (scroll) section.scrollIntoView({block: "start"});
      const target = position.trick === null ? q("replay")
        : q("seats").querySelector(".seat.moving button.card:not([disabled])");
      if (target) target.focus({preventScroll: scroll});
    };

    q("seats").addEventListener("keydown", (event) => {
      const card = event.target.closest("button.card");
      const steps = {ArrowRight: 1, ArrowDown: 1, ArrowLeft: -1, ArrowUp: -1};
      if (!card || !card.closest(".roving") || !(event.key in steps || event.key === "Home" || event.key === "End")) return;
      const cards = [...card.closest(".roving").querySelectorAll("button.card:not([disabled])")];
      const i = cards.indexOf(card);
      const next = event.key === "Home" ? 0 : event.key === "End" ? cards.length - 1
        : (i + steps[event.key] + cards.length) % cards.length;
      event.preventDefault();
      cards.forEach((c, j) => { c.tabIndex = j === next ? 0 : -1; });
      cards[next].focus();
    });

    // A card of the zone holding the picked card picks (or drops) it; a card
    // of another zone moves the picked card there, as a click on the zone does.
    const pick = (card, zone) => {
      const from = edit.picked && [0, 1, 2, "talon"].find((key) => edit.zones[key].includes(edit.picked));
      if (edit.picked && from !== zone) {
        moveTo(zone);
        return;
      }
      edit.picked = edit.picked === card ? null : card;
      render();
    };

    const moveTo = (zone) => {
      if (!edit.picked) return;
      for (const key of [0, 1, 2, "talon"]) edit.zones[key] = edit.zones[key].filter((c) => c !== edit.picked);
      edit.zones[zone].push(edit.picked);
      edit.picked = null;
      render();
    };

    const report = () => {
      for (const field of ["play", "edit"]) {
        const box = q(`${field}-error`);
        box.hidden = !store.errors[field];
        box.textContent = store.errors[field] || "";
      }
    };

    q("felt").addEventListener("click", () => { if (edit.on) moveTo("talon"); });
    q("undo").addEventListener("click", () => store.undo());
    q("redo").addEventListener("click", () => store.redo());
    q("replay").addEventListener("click", () => (store.replaying ? store.stopReplay() : store.replay()));
    q("stop").addEventListener("click", () => store.stop());
    q("view-seat").addEventListener("change", () => store.setViewSeat(Number(q("view-seat").value)));
    q("edit").addEventListener("click", () => {
      if (!store.deal) return;
      store.stopReplay();
      const deal = parseDeal(store.deal);
      edit.zones = {0: deal.hands[0], 1: deal.hands[1], 2: deal.hands[2], talon: deal.talon || []};
      edit.on = true;
      edit.picked = null;
      store.report("edit", null);
      render();
    });
    q("edit-cancel").addEventListener("click", () => {
      edit.on = false;
      store.report("edit", null);
      render();
    });
    q("edit-apply").addEventListener("click", async () => {
      const text = dealText([edit.zones[0], edit.zones[1], edit.zones[2]], edit.zones.talon);
      if (await store.load(text, "edit")) {
        edit.on = false;
        render();
      }
    });
    q("copy").addEventListener("click", async () => {
      const input = q("position-text");
      input.select();
      try {
        await navigator.clipboard.writeText(input.value);
        q("copy").textContent = t("Copied");
      } catch (_) {
        q("copy").textContent = t("Select and copy");
      }
      setTimeout(() => { q("copy").textContent = t("Copy"); }, 1500);
    });
    document.addEventListener("keydown", (event) => {
      if (event.target.closest("input, textarea, select") || !(event.ctrlKey || event.metaKey)) return;
      const step = {z: () => store.undo(), y: () => store.redo()}[event.key];
      if (!step) return;
      event.preventDefault();
      if (event.target.closest("#seats")) store.focusPlay = "card";    // the card played or taken back had it
      step();
    });
    store.on("deal", render);
    store.on("play", render);
    store.on("view", render);
    store.on("error", report);
  },
};
