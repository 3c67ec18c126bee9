// The board: the three hands and the talon drawn as cards, the trick on the
// table, and play by clicking. Each legal card of the seat to move shows its
// value (the counted seat's total tricks if it is played now, best play
// after); the best cards are ringed; a played mistake shows its cost. In
// edit mode a card is picked and then moved by choosing another hand.

import {STRAIN_LABEL, cardElement, cardSymbol, cardsText, dealText, el, parseDeal, sortCards, handCards} from "./cards.js";

function header(position) {
  if (position.strain === "allpass") {
    const talon = position.turn.length ? `the talon leads: ${cardsText(position.turn)}` : `seat ${position.leader} leads`;
    return `All-pass · tricks counted for seat ${position.seat} · ${talon}`;
  }
  const strain = STRAIN_LABEL[position.strain];
  const trumps = ["S", "C", "D", "H"].includes(position.strain) ? `${strain} trumps` : strain;
  return `Declarer seat ${position.declarer} · ${trumps} · seat ${position.leader} leads`;
}

export default {
  id: "board",
  title: "Board",
  column: "main",
  order: 3,
  mount(section, store) {
    section.insertAdjacentHTML("beforeend", `
      <p class="contract" id="contract"></p>
      <div class="table-top">
        <div class="seats" id="seats"></div>
        <div class="felt" id="felt" data-zone="talon">
          <div class="felt-title" id="felt-title"></div>
          <div class="trick" id="trick"></div>
          <div class="talon" id="talon"></div>
        </div>
      </div>
      <p class="note" id="play-note" hidden></p>
      <p class="error" id="play-error" role="alert" hidden></p>
      <div class="row controls">
        <button type="button" id="undo" title="Take back the last card">↶ Undo</button>
        <button type="button" id="redo" title="Play the card taken back again">Redo ↷</button>
        <button type="button" id="stop" title="Back to the deal">Stop</button>
        <span class="grow"></span>
        <button type="button" id="edit" title="Move cards between the hands">Edit cards</button>
        <button type="button" class="primary" id="edit-apply" hidden>Apply</button>
        <button type="button" id="edit-cancel" hidden>Cancel</button>
      </div>
      <p class="hint" id="edit-hint" hidden>Pick a card, then pick the hand (or the talon) it goes to.</p>
      <p class="error" id="edit-error" role="alert" hidden></p>
      <p class="legend" id="legend"></p>
      <ol class="history" id="history"></ol>
      <div class="copy-row">
        <label class="field-label" for="position-text">Position text (paste it back, or give it to <code>prefsolve play</code>)</label>
        <div class="row">
          <input id="position-text" readonly spellcheck="false">
          <button type="button" id="copy">Copy</button>
        </div>
      </div>`);
    const q = (id) => section.querySelector(`#${id}`);
    const edit = {on: false, zones: null, picked: null};

    const render = () => {
      const position = store.position;
      const editing = edit.on;
      q("contract").textContent = editing ? "Editing the deal"
        : position ? header(position) : store.deal ? "Choose a contract in the table to play it." : "";
      renderSeats(position, editing);
      renderFelt(position, editing);
      renderNote(position);
      renderHistory(position);
      const playing = Boolean(position) && !editing;
      q("undo").disabled = !playing || !store.played.length;
      q("redo").disabled = !playing || !store.redoStack.length;
      q("stop").disabled = !playing;
      q("edit").hidden = editing;
      q("edit-apply").hidden = q("edit-cancel").hidden = q("edit-hint").hidden = !editing;
      q("position-text").value = position ? position.position : (store.deal || "");
      q("legend").textContent = position && !editing ? legend(position) : "";
    };

    const legend = (position) => {
      const whose = position.strain === "allpass" ? `seat ${position.seat}'s` : "the declarer's";
      return `Each card the player to move may play shows ${whose} total tricks if it is played now and everyone ` +
        "plays perfectly afterwards; the best cards are ringed in green. A card that lost tricks shows its cost.";
    };

    const roles = (position, seat) => {
      if (!position) return "";
      if (position.strain === "allpass") return seat === position.seat ? "counted" : "";
      return seat === position.declarer ? "declarer" : "defender";
    };

    const renderSeats = (position, editing) => {
      const seats = q("seats");
      seats.replaceChildren();
      const deal = store.deal ? parseDeal(store.deal) : null;
      for (let seat = 0; seat < 3; seat++) {
        const box = el("div", "seat");
        box.dataset.seat = String(seat);
        const head = el("div", "seat-head");
        head.appendChild(el("span", "seat-name", `Seat ${seat}`));
        const role = roles(position, seat);
        if (role) head.appendChild(el("span", `role role-${role}`, role));
        if (position && !editing) {
          const won = el("span", "won", `${position.tricks_won[seat]} won`);
          won.dataset.won = String(position.tricks_won[seat]);
          head.appendChild(won);
          if (position.to_move === seat) head.appendChild(el("span", "turn", "to play"));
        }
        box.appendChild(head);
        const hand = el("div", "hand");
        hand.id = `hand-${seat}`;
        let cards;
        if (editing) {
          cards = sortCards(edit.zones[seat]);
          box.dataset.zone = String(seat);
          box.classList.add("zone");
        } else if (position) {
          cards = handCards(position.hands[seat]);
        } else {
          cards = deal ? deal.hands[seat] : [];
        }
        const moving = position && !editing && position.to_move === seat;
        if (moving) box.classList.add("moving");
        for (const card of cards) {
          let node;
          if (editing) {
            node = cardElement(card, {selected: edit.picked === card});
            node.addEventListener("click", (event) => {
              event.stopPropagation();
              pick(card, seat);
            });
          } else if (moving) {
            const value = position.values[card];
            const legal = value !== undefined;
            node = cardElement(card, legal ? {value, best: position.best_cards.includes(card)} : {disabled: true});
            if (legal) node.addEventListener("click", () => store.play(card));
          } else {
            node = cardElement(card, {static: true});
          }
          hand.appendChild(node);
        }
        if (!cards.length) hand.appendChild(el("span", "empty", "no cards"));
        box.appendChild(hand);
        if (editing) box.addEventListener("click", () => moveTo(seat));
        seats.appendChild(box);
      }
    };

    const renderFelt = (position, editing) => {
      const felt = q("felt");
      const trick = q("trick");
      const talon = q("talon");
      trick.replaceChildren();
      talon.replaceChildren();
      felt.classList.toggle("zone", editing);
      const deal = store.deal ? parseDeal(store.deal) : null;
      if (editing) {
        q("felt-title").textContent = "Talon";
        for (const card of sortCards(edit.zones.talon)) {
          const node = cardElement(card, {selected: edit.picked === card});
          node.addEventListener("click", (event) => {
            event.stopPropagation();
            pick(card, "talon");
          });
          talon.appendChild(node);
        }
        if (!edit.zones.talon.length) talon.appendChild(el("span", "empty", "no talon"));
        return;
      }
      if (!position) {
        q("felt-title").textContent = deal && deal.talon ? "Talon" : "";
        for (const card of (deal && deal.talon) || []) talon.appendChild(cardElement(card, {static: true}));
        return;
      }
      const current = position.trick;
      q("felt-title").textContent = current ? `Trick ${position.played_tricks.length + 1}` : "The play is over";
      if (current) {
        if (current.talon_card) trick.appendChild(slot(current.talon_card, "talon", null));
        current.cards.forEach((card, i) => trick.appendChild(slot(card, `seat ${current.seats[i]}`, mistakeOf(position, card))));
        if (!current.cards.length && !current.talon_card) trick.appendChild(el("span", "empty", `seat ${position.to_move} leads`));
      } else {
        const counted = position.declarer ?? position.seat;
        const total = position.tricks_won[counted];
        trick.appendChild(el("span", "result", `${position.strain === "allpass" ? `Seat ${counted}` : "The declarer"} took ${total} trick${total === 1 ? "" : "s"}`));
      }
      if (position.talon_mode === "take" && position.discard) {
        talon.appendChild(el("span", "talon-label", `Talon ${cardsText(deal.talon)} taken; discard`));
        for (const card of position.discard) talon.appendChild(cardElement(card, {static: true}));
      } else if (position.turn && position.turn.length) {
        talon.appendChild(el("span", "talon-label", "Talon turned"));
        for (const card of position.turn) talon.appendChild(cardElement(card, {static: true}));
      } else if (deal && deal.talon) {
        talon.appendChild(el("span", "talon-label", "Talon out of play"));
        for (const card of deal.talon) talon.appendChild(cardElement(card, {static: true}));
      }
    };

    const slot = (card, label, cost) => {
      const box = el("div", "slot");
      box.appendChild(cardElement(card, {static: true, mistake: cost || undefined}));
      box.appendChild(el("span", "slot-label", label));
      return box;
    };

    const mistakeOf = (position, card) => {
      const found = position.mistakes.find((m) => m.card === card);
      return found ? found.cost : 0;
    };

    const renderNote = (position) => {
      const note = q("play-note");
      const last = position && store.played.length ? position.mistakes.find((m) => m.move === store.played.length) : null;
      note.hidden = !last || edit.on;
      if (last) {
        note.textContent = `Seat ${last.seat} ${cardSymbol(last.card)} lost ${last.cost} trick${last.cost === 1 ? "" : "s"}; ` +
          `best was ${cardsText(last.best_cards)}.`;
      }
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
        item.appendChild(el("span", "winner", `→ seat ${trick.winner}`));
        list.appendChild(item);
      });
    };

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
    q("stop").addEventListener("click", () => store.stop());
    q("edit").addEventListener("click", () => {
      if (!store.deal) return;
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
        q("copy").textContent = "Copied";
      } catch (_) {
        q("copy").textContent = "Select and copy";
      }
      setTimeout(() => { q("copy").textContent = "Copy"; }, 1500);
    });
    document.addEventListener("keydown", (event) => {
      if (event.target.closest("input, textarea, select")) return;
      if ((event.ctrlKey || event.metaKey) && event.key === "z") { event.preventDefault(); store.undo(); }
      if ((event.ctrlKey || event.metaKey) && event.key === "y") { event.preventDefault(); store.redo(); }
    });
    store.on("deal", render);
    store.on("play", render);
    store.on("error", report);
  },
};
