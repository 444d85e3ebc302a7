// @ts-check
// ratelab: replay a failed check's counterexample in the browser.
//
// The exercise page marks each replayable counterexample with
// <div class="replay" data-replay="<exercise>" data-replay-cx="<JSON>" hidden>
// (the report's counterexample: setup, setup_call, steps with name and args).
// This script shows those boxes, and on a click of their Replay button runs
// the counterexample in the lab's WebAssembly (ratelab.replay.run, see
// lab/replay): on the reference and on Yours (the code in exercises/ as
// the lab last built it), and draws the step table: the call, what yours
// returned, what the reference returned, the first differing step marked,
// and beside each step the reference's state.
//
// Clicks are delegated from document and new boxes are shown as they come,
// so it keeps working after live.js replaces the report.
//
// The replay runs in the Web Worker that runs Yours (viz/remote.js): the
// page stays responsive if Yours never returns, and after remote.js's
// deadline the replay says so.

import { ensureCSS, h } from "./viz/common.js";
import { DEADLINE_MS, Hung, replay, defaultBuild } from "./viz/remote.js";

const WASM = "/static/lab.wasm";
const EXEC = "/static/wasm_exec.js";

/**
 * @typedef {{label: string, text: string, value?: number, max?: number, bars?: number[]}} Field
 * @typedef {{call: string, got: string, want: string, differs: boolean, state: Field[]}} Step
 * @typedef {{exercise: string, setup: string, error?: string, yours?: string, yoursStep: number,
 *   start: Field[] | null, steps: Step[] | null, first: number}} Result
 */

ensureCSS(new URL("/static/replay.css", location.href).href);

/** reveal shows the replay boxes under root: the script that runs them is here. */
function reveal() {
  for (const el of document.querySelectorAll(".replay[hidden]")) /** @type {HTMLElement} */ (el).hidden = false;
}
reveal();
new MutationObserver(reveal).observe(document.body, { childList: true, subtree: true });

document.addEventListener("click", (ev) => {
  const t = ev.target;
  const btn = t instanceof Element ? t.closest(".replay-button") : null;
  if (!(btn instanceof HTMLButtonElement)) return;
  const box = btn.closest("[data-replay]");
  const out = box && box.querySelector(".replay-out");
  if (!box || !(out instanceof HTMLElement)) return;
  if (btn.getAttribute("aria-expanded") === "true") {
    out.replaceChildren();
    btn.setAttribute("aria-expanded", "false");
    btn.textContent = "Replay";
    return;
  }
  btn.setAttribute("aria-expanded", "true");
  btn.textContent = "Hide the replay";
  out.replaceChildren(h("p", { class: "muted", text: "Replaying…" }));
  run(box.getAttribute("data-replay") || "", box.getAttribute("data-replay-cx") || "{}").then(
    (res) => out.replaceChildren(render(res)),
    (err) => out.replaceChildren(h("p", { class: "replay-error", "data-testid": "replay-error", text: "Could not replay: " + (err instanceof Error ? err.message : String(err)) })),
  );
});

/**
 * run replays cx (JSON text) of exercise in the lab's WebAssembly, in
 * Yours' worker. The replay is one call that runs the reference and Yours
 * together, so when Yours does not return the step it hung at is not
 * known: the error says it did not return.
 * @param {string} exercise
 * @param {string} cx
 * @returns {Promise<Result>}
 */
async function run(exercise, cx) {
  defaultBuild(WASM, EXEC); // unless a visualization or live.js set one
  let text;
  try {
    text = await replay(exercise, cx);
  } catch (err) {
    if (err instanceof Hung) throw new Error("Yours did not return within " + DEADLINE_MS / 1000 + " s: an endless loop?");
    if (err instanceof Error && err.message.includes("no ratelab.replay")) throw new Error("this lab.wasm was built before replays: run make run, which builds it again");
    throw err;
  }
  return /** @type {Result} */ (JSON.parse(text));
}

/**
 * render draws a replay: a line on Yours, then the step table.
 * @param {Result} res
 * @returns {HTMLElement}
 */
function render(res) {
  if (res.error) return h("p", { class: "replay-error", "data-testid": "replay-error", text: "Cannot replay: " + res.error });
  const steps = res.steps || [];
  /** @type {(Node | string)[]} */
  const head = [];
  if (res.yours) {
    const at = res.yoursStep >= 0 ? " at step " + (res.yoursStep + 1) : " in New";
    head.push(h("p", { class: "replay-yours", "data-testid": "replay-yours", text: "Yours stopped" + at + ": " + res.yours + "." }));
  }
  head.push(h("p", { "data-testid": "replay-summary", text: res.first >= 0
    ? "Step " + (res.first + 1) + " is the first where yours and the reference differ."
    : res.yours ? "Yours could not be run to the end; the reference's answers and state are shown."
    : "Yours and the reference agree on every step: your code has changed since this grade. Grade again." }));

  const rows = [h("tr", { class: "replay-start", "data-testid": "replay-start" }, [
    h("td", { class: "num", text: "" }),
    h("td", { class: "call", "data-label": "Setup" }, [h("code", null, nums(res.setup))]),
    h("td", { text: "" }),
    h("td", { text: "" }),
    h("td", { class: "replay-state", "data-label": "State (reference)" }, state(res.start || [])),
  ])];
  steps.forEach((s, i) => {
    const first = i === res.first;
    const cls = first ? "replay-first" : s.differs ? "replay-differs" : "";
    /** @type {Record<string, string>} */
    const attrs = { "data-testid": first ? "replay-first-diff" : "replay-step" };
    if (cls) attrs.class = cls;
    rows.push(h("tr", attrs, [
      h("td", { class: "num", "data-label": "#", text: String(i + 1) }),
      h("td", { class: "call", "data-label": "Call" }, [h("code", null, nums(s.call))]),
      h("td", { class: "got", "data-label": "Got (yours)" }, [h("code", null, nums(s.got === "" ? "—" : s.got)), ...(first ? [h("span", { class: "replay-mark", text: "differs" })] : [])]),
      h("td", { "data-label": "Want (reference)" }, [h("code", null, nums(s.want))]),
      h("td", { class: "replay-state", "data-label": "State (reference)" }, state(s.state || [])),
    ]));
  });
  const table = h("table", { class: "replay-table stackable" }, [
    h("caption", { text: "Replayed here: yours against the reference, with the reference's state after each call" }),
    h("thead", null, [h("tr", null, [
      h("th", { scope: "col", class: "num", text: "#" }),
      h("th", { scope: "col", text: "Call" }),
      h("th", { scope: "col", text: "Got (yours)" }),
      h("th", { scope: "col", text: "Want (reference)" }),
      h("th", { scope: "col", text: "State (reference)" }),
    ])]),
    h("tbody", null, rows),
  ]);
  return h("div", { class: "replay-result", "data-testid": "replay-result" }, [...head, h("div", { class: "table-scroll", role: "region", "aria-label": "The replay, step by step", tabindex: "0" }, [table])]);
}

/**
 * state draws fields: a label, its text, and a meter or a row of bars.
 * @param {Field[]} fields
 * @returns {HTMLElement[]}
 */
function state(fields) {
  return fields.map((f) => {
    /** @type {(Node | string)[]} */
    const kids = [h("span", { class: "replay-label", text: f.label }), " ", h("span", { class: "replay-text" }, nums(f.text))];
    const max = f.max || 0;
    if (f.bars && f.bars.length > 0) {
      const bars = h("span", { class: "replay-bars", role: "img", "aria-label": f.label + ": " + f.bars.join(", ") });
      f.bars.forEach((v, i) => {
        const bar = h("span", { class: i === (f.bars || []).length - 1 ? "replay-bar replay-bar-now" : "replay-bar", title: String(v) });
        bar.style.height = (max > 0 ? Math.min(100, (100 * v) / max) : 0).toFixed(1) + "%";
        bars.appendChild(bar);
      });
      kids.push(bars);
    } else if (max > 0) {
      const m = h("meter", { min: "0", max: String(max), value: String(Math.min(max, Math.max(0, f.value || 0))), "aria-label": f.label });
      kids.push(" ", m);
    }
    return h("div", { class: "replay-field", "data-field": f.label }, kids);
  });
}

/**
 * nums is text with each number (digits, with the _ , . inside it) in a
 * span that does not wrap: a narrow cell breaks a line between numbers,
 * never inside one.
 * @param {string} text
 * @returns {(Node | string)[]}
 */
function nums(text) {
  /** @type {(Node | string)[]} */
  const out = [];
  let at = 0;
  for (const m of text.matchAll(/\d(?:[\d_,.]*\d)?/g)) {
    const i = m.index || 0;
    if (i > at) out.push(text.slice(at, i));
    out.push(h("span", { class: "nowrap", text: m[0] }));
    at = i + m[0].length;
  }
  if (at < text.length) out.push(text.slice(at));
  return out;
}
