// The board's state and the actions that change it. Panels read the state,
// call the actions and listen for "deal" (a new deal or table), "play" (a new
// position) and "view" (another seat at the bottom of the table); an action
// that fails reports to the field it came from.

import {api} from "./api.js";

/** The seat that deals: seat 0 is first hand, on the dealer's left, so in a deal of three it is seat 2. */
export const DEALER = 2;
/** Milliseconds between two cards of a replay. */
export const REPLAY_STEP = 700;

export class Store {
  constructor() {
    this.deal = null;        // the deal text, as /api/table gives it
    this.table = null;       // /api/table's answer (table --json)
    this.allpass = null;     // /api/allpass's answer (allpass --json)
    this.allpassMode = "lead";
    this.leader = 0;
    this.setup = null;       // the position's fields without the played cards
    this.played = [];        // the cards played, in order
    this.redoStack = [];     // cards taken back, the last first to come back
    this.position = null;    // /api/play's answer (play --json)
    this.busy = false;
    this.viewSeat = 0;       // the seat drawn at the bottom of the table
    this.focusPlay = null;   // "card" or "board": where the next position takes the keyboard's focus
    this.replaying = false;  // a replay steps through the cards taken back, one every REPLAY_STEP ms
    this.info = null;
    this.listeners = {};
    this.errors = {};        // field → message
  }

  /** Run an action that asks the server; while any runs, the page's body carries data-busy. */
  async task(action) {
    this.pending = (this.pending || 0) + 1;
    document.body.dataset.busy = "true";
    try {
      return await action();
    } finally {
      if (--this.pending === 0) delete document.body.dataset.busy;
    }
  }

  on(event, listener) {
    (this.listeners[event] ||= []).push(listener);
  }

  emit(event) {
    for (const listener of this.listeners[event] || []) listener(this);
  }

  /** Show `message` next to `field` (null clears it). */
  report(field, message) {
    this.errors[field] = message;
    this.emit("error");
  }

  /** Load a deal text or a position text (str(Position)); errors go next to `field`. */
  load(text, field = "deal") {
    return this.task(() => this.loadNow(text, field));
  }

  async loadNow(text, field) {
    text = (text || "").trim();
    try {
      if (text.includes(";")) {
        const position = await api("/api/play", {position: text});
        this.leader = position.leader;
        await this.loadDeal(position.deal);
        this.setup = setupOf(position);
        this.played = [...position.played];
        this.redoStack = [];
        this.position = position;
      } else {
        await this.loadDeal(text);
        this.setup = null;
        this.played = [];
        this.redoStack = [];
        this.position = null;
      }
      this.report(field, null);
    } catch (error) {
      this.report(field, error.message);
      return false;
    }
    this.emit("deal");
    this.emit("play");
    return true;
  }

  async loadDeal(text) {
    const table = await api("/api/table", {deal: text, leader: this.leader});
    this.table = table;
    this.deal = table.deal;
    this.allpass = await this.allpassTable();
  }

  async allpassTable() {
    const hasTalon = this.deal.trim().split(/\s+/).length > 3;
    const mode = hasTalon ? this.allpassMode : "ignore";
    return api("/api/allpass", {deal: this.deal, talon_mode: mode});
  }

  setAllpassMode(mode) {
    return this.task(() => this.setAllpassModeNow(mode));
  }

  async setAllpassModeNow(mode) {
    this.allpassMode = mode;
    try {
      this.allpass = await this.allpassTable();
      this.report("table", null);
    } catch (error) {
      this.report("table", error.message);
    }
    this.emit("deal");
  }

  async setLeader(leader) {
    this.leader = leader;
    if (this.deal) await this.load(this.deal);
  }

  /** A random deal by seed (or a fresh seed when none is given). */
  randomDeal(seed) {
    return this.task(() => this.randomDealNow(seed));
  }

  async randomDealNow(seed) {
    const query = seed === "" || seed === null || seed === undefined ? "" : `?seed=${encodeURIComponent(seed)}`;
    try {
      const answer = await api(`/api/deal${query}`);
      return {ok: await this.loadNow(answer.deal, "deal"), seed: answer.seed};
    } catch (error) {
      this.report("deal", error.message);
      return {ok: false};
    }
  }

  /** Draw `seat` at the bottom of the table. */
  setViewSeat(seat) {
    this.viewSeat = seat;
    this.emit("view");
  }

  /** Play a contract of the table, after the declarer's best discard. */
  async startContract(declarer, strain) {
    const discard = this.table.discards[declarer][strain];
    await this.start({deal: this.deal, declarer, strain, leader: this.table.leader,
                      talon_mode: this.table.talon_mode, discard});
  }

  /** Play all-pass, counting `seat`'s tricks. */
  async startAllpass(seat) {
    await this.start({deal: this.deal, seat, strain: "allpass", leader: this.leader,
                      talon_mode: this.allpass.talon_mode});
  }

  async start(setup) {
    this.stopReplay();
    const before = [this.setup, this.played, this.redoStack];
    this.setup = setup;
    this.played = [];
    this.redoStack = [];
    if (!(await this.refresh("play"))) [this.setup, this.played, this.redoStack] = before;
  }

  /** Ask the server for the position after the played cards. */
  refresh(field) {
    return this.task(() => this.refreshNow(field));
  }

  async refreshNow(field) {
    this.busy = true;
    try {
      const body = {...this.setup, played: this.played};
      for (const key of Object.keys(body)) if (body[key] === null || body[key] === undefined) delete body[key];
      this.position = await api("/api/play", body);
      this.report(field, null);
      return true;
    } catch (error) {
      this.report(field, error.message);
      this.focusPlay = null;
      return false;
    } finally {
      this.busy = false;
      this.emit("play");
    }
  }

  async play(card) {
    if (this.busy || !this.position) return;
    this.stopReplay();
    this.played.push(card);
    const redo = this.redoStack;
    this.redoStack = [];
    if (!(await this.refresh("play"))) {
      this.played.pop();
      this.redoStack = redo;
    }
  }

  async undo() {
    if (this.busy || !this.played.length) return;
    this.stopReplay();
    this.redoStack.push(this.played.pop());
    await this.refresh("play");
  }

  async redo(replay = false) {
    if (this.busy || !this.redoStack.length) return;
    if (!replay) this.stopReplay();
    this.played.push(this.redoStack.pop());
    await this.refresh("play");
  }

  /** Replay the play: from the start when it is over (else from here), a card every REPLAY_STEP ms. */
  async replay() {
    if (this.busy || !this.position || this.replaying) return;
    if (this.position.trick === null) {
      this.redoStack = [...this.played].reverse();
      this.played = [];
      if (!(await this.refresh("play"))) return;
    }
    this.replaying = true;
    this.emit("play");
    while (this.replaying && this.redoStack.length) {
      await new Promise((resolve) => setTimeout(resolve, REPLAY_STEP));
      if (this.replaying) await this.redo(true);
    }
    this.stopReplay();
  }

  stopReplay() {
    if (!this.replaying) return;
    this.replaying = false;
    this.emit("play");
  }

  /** Back to the deal without a contract. */
  stop() {
    this.stopReplay();
    this.setup = null;
    this.position = null;
    this.played = [];
    this.redoStack = [];
    this.emit("play");
  }
}

/** The fields of a position (play --json) that /api/play takes, without the played cards. */
function setupOf(position) {
  const setup = {deal: position.deal, strain: position.strain, leader: position.leader,
                 talon_mode: position.talon_mode};
  if (position.declarer !== null) setup.declarer = position.declarer;
  if (position.seat !== null) setup.seat = position.seat;
  if (position.discard) setup.discard = position.discard;
  if (position.turn && position.turn.length) setup.turn = position.turn;
  return setup;
}
