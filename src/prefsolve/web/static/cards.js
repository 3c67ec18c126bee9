// Cards, hands and deals as the page shows them: suits in the order ♠ ♣ ♦ ♥,
// ranks high to low, ♠ ♣ dark and ♦ ♥ red. A card is its letter text ("SA", "CT").
// These functions read only the canonical texts the server sends back (the
// deal of /api/table, the cards of /api/play); what a user types, in any
// notation prefsolve reads (Latin or Russian, docs/GLOSSARY.md), goes to the
// server as it was typed and is parsed there, by the parsers of the command line.
// The words (strains, spoken card names, "2 tricks") are said in the page's language.

import {t} from "./i18n.js";

export const SUITS = ["S", "C", "D", "H"];
export const RANKS = ["A", "K", "Q", "J", "T", "9", "8", "7"];
export const SUIT_SYMBOL = {S: "♠", C: "♣", D: "♦", H: "♥"};
export const STRAINS = ["S", "C", "D", "H", "NT", "misere"];
/** The strains as the page shows them, in its language (read when shown: the language is known by then). */
export const STRAIN_LABEL = {
  S: "♠", C: "♣", D: "♦", H: "♥",
  get NT() { return t("NT"); },
  get misere() { return t("Misère"); },
  get allpass() { return t("All-pass"); },
};
/** Spoken names, for screen readers: "ace of spades", "no trumps" (the suits as "of ..." names them). */
export const SUIT_NAME = {
  get S() { return t("spades"); }, get C() { return t("clubs"); },
  get D() { return t("diamonds"); }, get H() { return t("hearts"); },
};
export const RANK_NAME = {
  get A() { return t("ace"); }, get K() { return t("king"); }, get Q() { return t("queen"); },
  get J() { return t("jack"); }, get T() { return t("ten"); }, get 9() { return t("nine"); },
  get 8() { return t("eight"); }, get 7() { return t("seven"); },
};
/** The strains' spoken names. */
export const STRAIN_NAME = {
  get S() { return t("spades"); }, get C() { return t("clubs"); },
  get D() { return t("diamonds"); }, get H() { return t("hearts"); },
  get NT() { return t("no trumps"); }, get misere() { return t("misère"); }, get allpass() { return t("all-pass"); },
};

/** The letters a card's rank is shown with: Latin (A K Q J) or Russian (Т К Д В), each as its switch shows it. */
export const RANK_LETTERS = {latin: "A K Q J", russian: "Т К Д В"};
const RUSSIAN_RANKS = {A: "Т", K: "К", Q: "Д", J: "В", T: "10"};
const LATIN_RANKS = {T: "10"};
const LETTERS_KEY = "prefsolve.ranks";

/** The letters chosen (saved), else the Russian ones on a page that speaks Russian. */
export function rankLetters() {
  let saved = null;
  try { saved = localStorage.getItem(LETTERS_KEY); } catch (_) { /* storage off */ }
  if (saved in RANK_LETTERS) return saved;
  return document.documentElement.lang === "ru" ? "russian" : "latin";
}

/** Choose the letters of the ranks (saved for the next visit). */
export function setRankLetters(letters) {
  try { localStorage.setItem(LETTERS_KEY, letters); } catch (_) { /* storage off: this visit only */ }
}

let RANK_SHOWN = LATIN_RANKS;

/** Show the ranks in the letters chosen; called once the page's language is known. */
export function useRankLetters() {
  RANK_SHOWN = rankLetters() === "russian" ? RUSSIAN_RANKS : LATIN_RANKS;
}

/** "SA" → {suit: "S", rank: "A"}. */
export function splitCard(card) {
  return {suit: card[0], rank: card.slice(1)};
}

/** "ST" → "♠10". */
export function cardSymbol(card) {
  const {suit, rank} = splitCard(card);
  return SUIT_SYMBOL[suit] + (RANK_SHOWN[rank] || rank);
}

/** "ST" → "ten of spades". */
export function cardName(card) {
  const {suit, rank} = splitCard(card);
  return t("{rank} of {suit}", {rank: RANK_NAME[rank], suit: SUIT_NAME[suit]});
}

/** Spoken names of cards: "eight of spades and eight of clubs". */
export function cardsName(cards) {
  const names = (cards || []).map(cardName);
  return names.length > 1 ? t("{cards} and {card}", {cards: names.slice(0, -1).join(", "), card: names[names.length - 1]})
    : names.join("");
}

/** "1 trick", "2 tricks". The page has no plural forms of its own: a count other than one is said
 * in the form that fits every count ("взяток: 3" in Russian). */
export function tricksText(n) {
  return n === 1 ? t("{count} trick", {count: n}) : t("{count} tricks", {count: n});
}

export function isRed(card) {
  return card[0] === "D" || card[0] === "H";
}

/** The cards of a dotted hand "A.KT9.KT97.K7" (♠.♣.♦.♥), in hand order. */
export function handCards(text) {
  const parts = text.split(".");
  const cards = [];
  parts.forEach((ranks, i) => {
    if (ranks === "-") return;
    for (const rank of ranks) cards.push(SUITS[i] + rank);
  });
  return cards;
}

/** Cards in hand order: suits ♠ ♣ ♦ ♥, ranks high to low. */
export function sortCards(cards) {
  const key = (c) => SUITS.indexOf(c[0]) * 8 + RANKS.indexOf(c.slice(1));
  return [...cards].sort((a, b) => key(a) - key(b));
}

/** The dotted text of a set of cards. */
export function handText(cards) {
  return SUITS.map((suit) => {
    const ranks = sortCards(cards.filter((c) => c[0] === suit)).map((c) => c.slice(1)).join("");
    return ranks || "-";
  }).join(".");
}

/** A deal's parts: {hands: [cards, cards, cards], talon: cards | null}. */
export function parseDeal(text) {
  const parts = text.trim().split(/\s+/);
  return {hands: parts.slice(0, 3).map(handCards), talon: parts.length > 3 ? handCards(parts[3]) : null};
}

/** The deal text of hands and a talon (the talon left out when it is empty). */
export function dealText(hands, talon) {
  const parts = hands.map(handText);
  if (talon && talon.length) parts.push(handText(talon));
  return parts.join(" ");
}

/**
 * A card drawn as a button (or, static, as a tile): rank over suit, in the suit's colour.
 * options: value and cost (the card's value, and the tricks it loses for the side to move
 * against the best card, shown on it: "0", "−1"), best, mistake (a played card's cost),
 * disabled, selected, label (its spoken name, when more than the card's).
 */
export function cardElement(card, options = {}) {
  const el = document.createElement(options.static ? "span" : "button");
  if (!options.static) el.type = "button";
  const {suit, rank} = splitCard(card);
  el.className = "card " + (isRed(card) ? "red" : "dark");
  el.dataset.card = card;
  if (options.static) el.setAttribute("role", "img");
  el.setAttribute("aria-label", options.label || cardName(card));
  el.innerHTML = `<span class="rank" aria-hidden="true">${RANK_SHOWN[rank] || rank}</span>` +
    `<span class="suit" aria-hidden="true">${SUIT_SYMBOL[suit]}</span>`;
  if (options.cost !== undefined) {
    const badge = document.createElement("span");
    badge.className = "value";
    badge.setAttribute("aria-hidden", "true");
    badge.textContent = options.cost ? `−${options.cost}` : "0";
    el.appendChild(badge);
    el.dataset.value = String(options.value);
    el.dataset.cost = String(options.cost);
  }
  if (options.label) el.title = options.label;
  if (options.best) el.classList.add("best");
  if (options.mistake) {
    const mark = document.createElement("span");
    mark.className = "cost";
    mark.textContent = `−${options.mistake}`;
    mark.setAttribute("aria-hidden", "true");
    el.appendChild(mark);
    el.classList.add("mistake");
  }
  if (options.disabled) {
    el.disabled = true;
    el.classList.add("idle");
  }
  if (options.selected) el.classList.add("selected");
  return el;
}

/** A short text of cards: "♠8 ♣8". */
export function cardsText(cards) {
  return (cards || []).map(cardSymbol).join(" ");
}

/** An element with a class and text. */
export function el(tag, className, text) {
  const node = document.createElement(tag);
  if (className) node.className = className;
  if (text !== undefined) node.textContent = text;
  return node;
}
