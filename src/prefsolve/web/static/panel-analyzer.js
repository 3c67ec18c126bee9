// The analyzer for one hand: what each contract is worth over sampled
// layouts of the unseen cards, with progress while it runs and a cancel button.
// The chart and the table leave out hopeless contracts (P(make) under
// HOPELESS) unless "all contracts" is ticked; the recommended one always shows.
import {apiLines} from "./api.js";
import {analysisChart, contractLabel} from "./chart.js";
import {el, parseDeal, handText} from "./cards.js";
import {t} from "./i18n.js";

/** A contract made less often than this is hopeless: hidden unless all are asked for. */
export const HOPELESS = 0.05;

/** One contract's figures, whichever names the analyzer's JSON gives them. */
function figures(key, stats) {
  return {key, p_make: stats.p_make, p_make_se: stats.p_make_se ?? stats.se ?? 0,
          expected: stats.expected, expected_se: stats.expected_se ?? 0};
}

/** A rules profile's name in the page's language (its canonical name goes to the server). */
export function profileName(name) {
  const names = {classic: () => t("classic"), sochi: () => t("sochi"), leningrad: () => t("leningrad"),
                 rostov: () => t("rostov")};
  return name in names ? names[name]() : name;
}

function advice(result) {
  const rec = result.recommendation || {};
  const best = rec.contract;
  const bestStats = best && result.contracts[best];
  const head = bestStats ? t("best: {contract} (expected {expected} whists, P(make) {p}%)", {
    contract: contractLabel(best), expected: `${bestStats.expected >= 0 ? "+" : ""}${bestStats.expected.toFixed(1)}`,
    p: (bestStats.p_make * 100).toFixed(0)}) : "";
  if (rec.max_bid) return t("Bid up to {contract}; {best}", {contract: contractLabel(rec.max_bid), best: head});
  return t("Pass: no contract is expected to gain; {best}", {best: head});
}

export default {
  id: "analyzer",
  get title() { return t("Analyzer"); },
  column: "side",
  order: 4,
  mount(section, store) {
    // attribute texts, each its own t() call so that the catalogue's extraction finds it
    const attr0 = t("Take the hand of a seat of the deal");
    const attr1 = t("any");
    section.insertAdjacentHTML("beforeend", `
      <p class="caption">${t("What each contract is worth with one hand, over random layouts of the unseen cards, each solved exactly.")}</p>
      <label class="field-label" for="an-hand">${t("Hand (10 cards)")}</label>
      <div class="row">
        <input id="an-hand" spellcheck="false" autocomplete="off" placeholder="A.KT9.KT97.K7">
        <select id="an-from" aria-label="${attr0}">
          <option value="0">${t("seat {seat}'s", {seat: 0})}</option><option value="1">${t("seat {seat}'s", {seat: 1})}</option><option value="2">${t("seat {seat}'s", {seat: 2})}</option>
        </select>
      </div>
      <p class="error" id="analyze-error" role="alert" hidden></p>
      <div class="row options">
        <label class="inline">${t("Seat")} <select id="an-seat"><option>0</option><option>1</option><option>2</option></select></label>
        <label class="inline">${t("Samples")} <input id="an-samples" type="number" min="1" step="1" value="200" inputmode="numeric"></label>
        <label class="inline">${t("Seed")} <input id="an-seed" type="number" min="0" step="1" placeholder="${attr1}" inputmode="numeric"></label>
        <label class="inline">${t("Rules")} <select id="an-rules"></select></label>
      </div>
      <div class="row">
        <button type="button" class="primary" id="an-run">${t("Analyze")}</button>
        <button type="button" id="an-cancel" disabled>${t("Cancel")}</button>
        <progress id="an-progress" max="1" value="0" hidden></progress>
        <span class="status" id="an-status"></span>
      </div>
      <p class="recommendation" id="an-advice" hidden></p>
      <div class="row" id="an-filter" hidden>
        <label class="inline"><input type="checkbox" id="an-all"> ${t("all contracts")}</label>
        <span class="status" id="an-hidden"></span>
      </div>
      <div id="an-chart"></div>
      <div class="scroll-y"><table class="results" id="an-results"></table></div>`);
    const q = (id) => section.querySelector(`#${id}`);
    let controller = null;
    let last = null;        // the last result shown, drawn again when the filter changes

    const fillHand = () => {
      if (!store.deal) return;
      const deal = parseDeal(store.deal);
      const seat = Number(q("an-from").value);
      if (deal.hands[seat].length === 10) {
        q("an-hand").value = handText(deal.hands[seat]);
        q("an-seat").value = String(seat);
      }
    };

    const showError = (message) => {
      q("analyze-error").hidden = !message;
      q("analyze-error").textContent = message || "";
      q("an-hand").classList.toggle("invalid", Boolean(message));
    };

    const render = (result) => {
      last = result;
      const marked = result.recommendation && result.recommendation.contract;
      const every = Object.entries(result.contracts).map(([key, stats]) => figures(key, stats));
      const hopeless = every.filter((row) => row.p_make < HOPELESS && row.key !== marked);
      const rows = q("an-all").checked ? every : every.filter((row) => !hopeless.includes(row));
      q("an-filter").hidden = !hopeless.length;
      q("an-hidden").textContent = q("an-all").checked ? ""
        : hopeless.length === 1 ? t("{count} hopeless contract (P(make) under {percent}%) hidden", {count: 1, percent: HOPELESS * 100})
          : t("{count} hopeless contracts (P(make) under {percent}%) hidden", {count: hopeless.length, percent: HOPELESS * 100});
      q("an-advice").hidden = false;
      q("an-advice").textContent = t("{advice} — {samples} samples, seed {seed}, {rules} rules.", {
        advice: advice(result), samples: result.samples, seed: result.seed, rules: profileName(result.rules)});
      q("an-chart").replaceChildren(analysisChart(rows, marked));
      const table = q("an-results");
      table.replaceChildren();
      const head = el("tr");
      for (const title of [t("contract"), t("P(make)"), t("expected whists")]) head.appendChild(el("th", "", title));
      table.appendChild(head);
      for (const row of rows) {
        const tr = el("tr", row.key === marked ? "marked" : "");
        tr.dataset.contract = row.key;
        tr.appendChild(el("td", "", contractLabel(row.key)));
        tr.appendChild(el("td", "num", `${(row.p_make * 100).toFixed(1)}% ± ${(row.p_make_se * 100).toFixed(1)}`));
        tr.appendChild(el("td", "num", `${row.expected >= 0 ? "+" : ""}${row.expected.toFixed(1)} ± ${row.expected_se.toFixed(1)}`));
        table.appendChild(tr);
      }
    };

    const finish = (status) => {
      controller = null;
      q("an-run").disabled = false;
      q("an-cancel").disabled = true;
      q("an-status").textContent = status;
      q("an-progress").hidden = true;
    };

    q("an-from").addEventListener("change", fillHand);
    q("an-all").addEventListener("change", () => { if (last) render(last); });
    q("an-run").addEventListener("click", async () => {
      showError(null);
      const samples = Number(q("an-samples").value);
      const body = {hand: q("an-hand").value, seat: Number(q("an-seat").value),
                    samples: Number.isInteger(samples) ? samples : q("an-samples").value,
                    rules: q("an-rules").value, stream: true};
      if (q("an-seed").value !== "") body.seed = Number(q("an-seed").value);
      controller = new AbortController();
      q("an-run").disabled = true;
      q("an-cancel").disabled = false;
      q("an-progress").hidden = false;
      q("an-progress").value = 0;
      q("an-status").textContent = t("starting…");
      let ended = "";
      try {
        await apiLines("/api/analyze", body, (line) => {
          if (line.done !== undefined) {
            q("an-progress").value = line.done / line.samples;
            q("an-status").textContent = `${line.done} / ${line.samples}`;
          } else if (line.result) {
            render(line.result);
            ended = t("done");
          } else if (line.error) {
            showError(line.error);
            ended = "";
          } else if (line.cancelled) {
            ended = t("cancelled");
          }
        }, controller.signal);
        finish(ended);
      } catch (error) {
        if (error.name === "AbortError") {
          finish(t("cancelled"));
        } else {
          showError(error.message);
          finish("");
        }
      }
    });
    q("an-cancel").addEventListener("click", () => { if (controller) controller.abort(); });
    store.on("info", () => {
      const rules = q("an-rules");
      rules.replaceChildren(...store.info.profiles.map((name) => {
        const option = el("option", "", profileName(name));
        option.value = name;
        return option;
      }));
      rules.value = store.info.profiles.includes("sochi") ? "sochi" : store.info.profiles[0];
      q("an-samples").max = String(store.info.limits.samples);
    });
    store.on("deal", fillHand);
  },
};
