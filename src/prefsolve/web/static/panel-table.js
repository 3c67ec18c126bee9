// The table of every contract: the declarer's tricks for each declarer and
// strain with the best discard, and all-pass for each seat. Choosing a cell
// sets up that contract (after the discard) on the board.
import {STRAINS, STRAIN_LABEL, STRAIN_NAME, cardsName, cardsText, el, tricksText} from "./cards.js";
import {t} from "./i18n.js";

export default {
  id: "table",
  get title() { return t("All contracts"); },
  column: "side",
  order: 2,
  mount(section, store) {
    section.insertAdjacentHTML("beforeend", `
      <p class="caption">${t("The declarer's tricks with best play, after his best discard (shown under the number); in misère, the tricks forced on him. Choose a contract to play it.")}</p>
      <div class="scroll-x"><table class="contracts" id="contracts"></table></div>
      <div class="allpass">
        <div class="row">
          <strong>${t("All-pass")}</strong>
          <span class="caption">${t("each seat's fewest sure tricks")}</span>
          <span class="grow"></span>
          <label class="inline" id="allpass-mode-label">${t("Talon")}
            <select id="allpass-mode"><option value="lead">${t("leads")}</option><option value="ignore">${t("ignored")}</option></select>
          </label>
        </div>
        <div class="allpass-cells" id="allpass-cells"></div>
      </div>
      <p class="error" id="table-error" role="alert" hidden></p>`);
    const grid = section.querySelector("#contracts");
    const cells = section.querySelector("#allpass-cells");
    const mode = section.querySelector("#allpass-mode");

    const render = () => {
      grid.replaceChildren();
      cells.replaceChildren();
      const table = store.table;
      if (!table) return;
      const head = el("tr");
      head.appendChild(el("th", "", ""));
      for (const strain of STRAINS) {
        const th = el("th", `strain strain-${strain}`, STRAIN_LABEL[strain]);
        th.scope = "col";
        th.setAttribute("aria-label", STRAIN_NAME[strain]);
        head.appendChild(th);
      }
      grid.appendChild(head);
      const current = store.position;
      for (let declarer = 0; declarer < 3; declarer++) {
        const row = el("tr");
        const th = el("th", "", t("Seat {seat}", {seat: declarer}));
        th.scope = "row";
        row.appendChild(th);
        for (const strain of STRAINS) {
          const td = el("td");
          const button = el("button", "cell");
          button.type = "button";
          const tricks = table.tricks[declarer][strain];
          const discard = table.discards[declarer][strain];
          button.dataset.declarer = String(declarer);
          button.dataset.strain = strain;
          button.dataset.tricks = String(tricks);
          button.dataset.discard = discard ? discard.join(" ") : "";
          button.appendChild(el("span", "tricks", String(tricks)));
          if (discard) button.appendChild(el("span", "discard", cardsText(discard)));
          const tricksSaid = tricksText(tricks);
          button.title = discard
            ? t("Seat {seat} in {strain}: {tricks}, discarding {cards}", {seat: declarer, strain: STRAIN_LABEL[strain],
                                                                           tricks: tricksSaid, cards: cardsText(discard)})
            : t("Seat {seat} in {strain}: {tricks}", {seat: declarer, strain: STRAIN_LABEL[strain], tricks: tricksSaid});
          button.setAttribute("aria-label", discard
            ? t("Seat {seat} in {strain}: {tricks}, discarding {cards}", {seat: declarer, strain: STRAIN_NAME[strain],
                                                                           tricks: tricksSaid, cards: cardsName(discard)})
            : t("Seat {seat} in {strain}: {tricks}", {seat: declarer, strain: STRAIN_NAME[strain], tricks: tricksSaid}));
          if (current && current.strain === strain && current.declarer === declarer) {
            button.classList.add("current");
            button.setAttribute("aria-current", "true");
          }
          button.addEventListener("click", () => {
            store.focusPlay = "board";
            store.startContract(declarer, strain);
          });
          td.appendChild(button);
          row.appendChild(td);
        }
        grid.appendChild(row);
      }
      const allpass = store.allpass;
      const hasTalon = store.deal.trim().split(/\s+/).length > 3;
      section.querySelector("#allpass-mode-label").hidden = !hasTalon;
      mode.value = store.allpassMode;
      if (!allpass) return;
      allpass.tricks.forEach((tricks, seat) => {
        const button = el("button", "cell allpass-cell");
        button.type = "button";
        button.dataset.seat = String(seat);
        button.dataset.tricks = String(tricks);
        button.appendChild(el("span", "seat-label", t("Seat {seat}", {seat})));
        button.appendChild(el("span", "tricks", String(tricks)));
        button.setAttribute("aria-label", t("All-pass, seat {seat}: {tricks} with best play", {seat, tricks: tricksText(tricks)}));
        if (current && current.strain === "allpass" && current.seat === seat) {
          button.classList.add("current");
          button.setAttribute("aria-current", "true");
        }
        button.addEventListener("click", () => {
          store.focusPlay = "board";
          store.startAllpass(seat);
        });
        cells.appendChild(button);
      });
    };

    mode.addEventListener("change", () => store.setAllpassMode(mode.value));
    store.on("deal", render);
    store.on("play", render);
    store.on("error", () => {
      const box = section.querySelector("#table-error");
      box.hidden = !store.errors.table;
      box.textContent = store.errors.table || "";
    });
  },
};
