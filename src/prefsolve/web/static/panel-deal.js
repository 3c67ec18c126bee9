// The deal panel: paste a deal or a position text, or deal a random one by seed.

import {t} from "./i18n.js";

/** The options of a choice of seat: "seat 0", "seat 1", "seat 2". */
export function seatOptions() {
  return [0, 1, 2].map((seat) => `<option value="${seat}">${t("seat {seat}", {seat})}</option>`).join("");
}

export default {
  id: "deal",
  get title() { return t("Deal"); },
  column: "main",
  order: 1,
  mount(section, store) {
    // attribute texts, each its own t() call so that the catalogue's extraction finds it
    const attr0 = t("any");
    section.insertAdjacentHTML("beforeend", `
      <label class="field-label" for="deal-text">${t("A deal, or a position text that prefsolve printed")}</label>
      <textarea id="deal-text" rows="2" spellcheck="false" autocomplete="off"
        placeholder="A.KT9.KT97.K7 JT97.A7.8.Q98 KQ.J8.AQJ.AJT 8.Q.-.-"></textarea>
      <p class="error" id="deal-error" role="alert" hidden></p>
      <div class="row">
        <button type="button" class="primary" id="deal-show">${t("Show")}</button>
        <span class="grow"></span>
        <label class="inline">${t("Seed")} <input id="deal-seed" type="number" min="0" step="1" inputmode="numeric" placeholder="${attr0}"></label>
        <button type="button" id="deal-random">${t("Random deal")}</button>
        <label class="inline">${t("Leader")}
          <select id="deal-leader">${seatOptions()}</select>
        </label>
      </div>`);
    const text = section.querySelector("#deal-text");
    const error = section.querySelector("#deal-error");
    const seed = section.querySelector("#deal-seed");
    const leader = section.querySelector("#deal-leader");
    section.querySelector("#deal-show").addEventListener("click", () => store.load(text.value));
    text.addEventListener("keydown", (event) => {
      if (event.key === "Enter" && !event.shiftKey) {
        event.preventDefault();
        store.load(text.value);
      }
    });
    section.querySelector("#deal-random").addEventListener("click", async () => {
      const answer = await store.randomDeal(seed.value);
      if (answer.ok && seed.value === "") seed.placeholder = t("was {seed}", {seed: answer.seed});
    });
    leader.addEventListener("change", () => store.setLeader(Number(leader.value)));
    store.on("deal", () => {
      if (!text.value.includes(";") || store.position === null) text.value = store.deal;
      leader.value = String(store.leader);
    });
    store.on("error", () => {
      const message = store.errors.deal;
      error.hidden = !message;
      error.textContent = message || "";
      text.classList.toggle("invalid", Boolean(message));
    });
  },
};
