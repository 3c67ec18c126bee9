// The board: a store of the state and the panels that show it. A panel is
// a module whose default export is {id, title, column, order, mount(section, store)};
// adding one (an advice panel, say) is one more entry in PANELS.

import {api} from "./api.js";
import {LANGUAGES, language, ready as languageReady, setLanguage, t} from "./i18n.js";
import {RANK_LETTERS, rankLetters, setRankLetters, useRankLetters} from "./cards.js";
import {Store} from "./store.js";
import dealPanel from "./panel-deal.js";
import boardPanel from "./panel-board.js";
import tablePanel from "./panel-table.js";
import analyzerPanel from "./panel-analyzer.js";
import gamePanel from "./panel-game.js";
import reviewPanel from "./panel-review.js";

export const PANELS = [dealPanel, boardPanel, tablePanel, analyzerPanel, gamePanel, reviewPanel];

/** The example deal shown when the page opens (the command line's example). */
export const EXAMPLE_DEAL = "A.KT9.KT97.K7 JT97.A7.8.Q98 KQ.J8.AQJ.AJT 8.Q.-.-";

async function main() {
  await languageReady;
  document.title = t("prefsolve board");
  useRankLetters();
  pageTexts();
  masthead();
  const store = new Store();
  const root = document.getElementById("panels");
  const columns = {};
  for (const name of ["main", "side"]) {
    columns[name] = document.createElement("div");
    columns[name].className = `column column-${name}`;
    root.appendChild(columns[name]);
  }
  for (const panel of PANELS) {
    const section = document.createElement("section");
    section.className = `panel panel-${panel.id}`;
    section.id = `panel-${panel.id}`;
    section.style.order = String(panel.order);
    const heading = document.createElement("h2");
    heading.textContent = panel.title;
    section.appendChild(heading);
    columns[panel.column].appendChild(section);
    panel.mount(section, store);
  }
  try {
    store.info = await api("/api/info");
    store.emit("info");
  } catch (error) {
    store.report("deal", error.message);
  }
  await store.load(EXAMPLE_DEAL);
  document.body.dataset.ready = "true";
}

/** The page's own texts (index.html's, in English for a browser without scripts) in the page's language. */
function pageTexts() {
  document.querySelector(".masthead h1 span").textContent = t("board");
  document.querySelector(".masthead p").textContent =
    t("Exact double-dummy analysis for Preferans: paste a deal, see every contract, play it card by card.");
  const foot = document.querySelector(".foot");
  const link = foot.querySelector("a");
  link.textContent = t("API info");
  foot.replaceChildren(t("Runs on this computer; nothing is sent elsewhere.") + " ", link);
}

/** The masthead's switches: the page's language (Русский / English) and the letters of the cards' ranks. */
function masthead() {
  const box = document.createElement("div");
  box.className = "switches";
  const lang = document.createElement("select");
  lang.id = "lang";
  lang.setAttribute("aria-label", "Language / Язык");
  for (const [code, name] of Object.entries(LANGUAGES)) lang.add(new Option(name, code, false, code === language()));
  lang.addEventListener("change", async () => {
    await setLanguage(lang.value);
    location.reload();
  });
  const letters = document.createElement("select");
  letters.id = "rank-letters";
  letters.setAttribute("aria-label", t("Card letters"));
  for (const [code, shown] of Object.entries(RANK_LETTERS)) {
    letters.add(new Option(shown, code, false, code === rankLetters()));
  }
  letters.addEventListener("change", () => {
    setRankLetters(letters.value);
    location.reload();
  });
  box.append(lang, letters);
  document.querySelector(".masthead").appendChild(box);
}

main();
