// The page's language (docs/TRANSLATING.md): t("English text {field}", {field: value})
// gives the text in the chosen language, its {named} fields filled in. The English
// text is the message; the translations come from the server's compiled catalogue
// (GET /api/messages?lang=ru), so the page holds no dictionary of its own.

/** The languages of the board, each named in itself (for the switch). */
export const LANGUAGES = {ru: "Русский", en: "English"};
const KEY = "prefsolve.lang";

/** The saved choice, else the browser's first preferred language the board speaks, else English. */
export function preferredLanguage() {
  let saved = null;
  try { saved = localStorage.getItem(KEY); } catch (_) { /* storage off: no saved choice */ }
  if (saved in LANGUAGES) return saved;
  for (const tag of navigator.languages || [navigator.language || ""]) {
    const base = String(tag).toLowerCase().split(/[-_]/)[0];
    if (base in LANGUAGES) return base;
  }
  return "en";
}

let current = "en";
let messages = {};

/** The language the page speaks now. */
export function language() {
  return current;
}

/** `message` in the page's language, each {name} replaced by fields[name]. */
export function t(message, fields = {}) {
  const text = Object.prototype.hasOwnProperty.call(messages, message) ? messages[message] : message;
  return text.replace(/\{(\w+)\}/g, (whole, name) => (name in fields ? String(fields[name]) : whole));
}

/** Speak `lang` (saved for the next visit): its catalogue is fetched from the server. */
export async function setLanguage(lang, {save = true} = {}) {
  if (!(lang in LANGUAGES)) lang = "en";
  let found = {};
  if (lang !== "en") {
    const response = await fetch(`/api/messages?lang=${encodeURIComponent(lang)}`, {credentials: "same-origin"});
    if (response.ok) found = (await response.json()).messages || {};
  }
  current = lang;
  messages = found;
  document.documentElement.lang = lang;
  if (save) {
    try { localStorage.setItem(KEY, lang); } catch (_) { /* storage off: the choice lasts this visit */ }
  }
  return lang;
}

/** The page's language on opening: the saved or preferred one, not saved until the user chooses. */
export const ready = setLanguage(preferredLanguage(), {save: false});
