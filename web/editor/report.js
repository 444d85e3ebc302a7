// @ts-check
// A Check's report beside the editor (class mode). The server's answer is
// {"check": ID, "result": {…report.Exercise…}}; if it also holds "report",
// HTML rendered by the server's own templates (as the live pages receive
// it, Replay included), that is shown as is. Otherwise the result is drawn
// here, plainly: status, score, the message, and every check that needs
// attention with its message, hint and counterexample.

/**
 * @typedef {object} Step
 * @property {string} call
 * @property {string} got
 * @property {string} want
 */

/**
 * @typedef {object} Check
 * @property {string} id
 * @property {string} title
 * @property {string} status
 * @property {number} score
 * @property {number} max_score
 * @property {string} [message]
 * @property {string} [hint]
 * @property {{setup: string, steps: Step[]} | null} [counterexample]
 */

/**
 * @typedef {object} Result
 * @property {string} id
 * @property {string} status
 * @property {number} score
 * @property {number} max_score
 * @property {string} [message]
 * @property {Check[]} [checks]
 */

/** The words the pages use for a status (page.statusLabel). */
/** @type {Record<string, string>} */
const LABEL = {
  passed: "passed", failed: "failed", error: "error", not_started: "not started", timeout: "timed out", skipped: "skipped",
};

/**
 * el makes an element with a class and children.
 * @param {string} tag
 * @param {string} cls
 * @param {...(Node | string)} children
 */
function el(tag, cls, ...children) {
  const e = document.createElement(tag);
  if (cls) e.className = cls;
  e.append(...children);
  return e;
}

/** @param {number} n */
function num(n) {
  return Number.isInteger(n) ? String(n) : n.toFixed(1);
}

/** @param {string} status */
function badge(status) {
  const known = Object.hasOwn(LABEL, status);
  return el("span", "badge badge--" + (known ? status : "not_started"), known ? LABEL[status] : status);
}

/**
 * gradeWords says a graded submission as its page does: "passed · 31 / 35",
 * then, when it was late, how its penalty was counted and the score that
 * counts ("late by 1 day 2 h (−10% per started day: 2 days late, −20%):
 * counts 24.8"). sub is GET /class/submissions/:id's JSON.
 * @param {{result?: Result | null, error?: string, late?: string, counts?: number}} sub
 * @returns {string}
 */
export function gradeWords(sub) {
  const r = sub.result;
  if (!r) return "not graded: " + (sub.error || "no result");
  let s = (Object.hasOwn(LABEL, r.status) ? LABEL[r.status] : r.status) + " · " + num(r.score) + " / " + num(r.max_score);
  if (sub.late) s += " · " + sub.late;
  if (typeof sub.counts === "number") s += ": counts " + num(sub.counts);
  return s;
}

/**
 * renderResult draws a graded exercise.
 * @param {Result} r
 * @returns {HTMLElement}
 */
export function renderResult(r) {
  const box = el("div", "editor-result");
  box.setAttribute("data-testid", "check-report");
  box.append(el("div", "summary-bar", badge(r.status), " ",
    el("span", "score", num(r.score), " ", el("small", "", "/ " + num(r.max_score) + " points"))));
  if (r.message) {
    const [head, ...rest] = r.message.split("\n");
    const note = el("div", "note trap", el("p", "", el("strong", "", (LABEL[r.status] || r.status) + ": "), head));
    if (rest.length) {
      const pre = el("pre", "", rest.join("\n"));
      pre.tabIndex = 0;
      note.append(pre);
    }
    box.append(note);
  }
  const checks = r.checks || [];
  const attention = checks.filter((c) => c.status !== "passed");
  const passed = checks.length - attention.length;
  if (attention.length) {
    const list = el("ol", "checks");
    for (const c of attention) list.append(el("li", "", renderCheck(c)));
    box.append(el("h3", "", "Needs attention"), list);
  }
  if (checks.length) {
    box.append(el("p", "muted", passed + " of " + checks.length + " checks passed."));
  }
  return box;
}

/** @param {Check} c */
function renderCheck(c) {
  const card = el("article", "card check check--" + c.status,
    el("div", "check-head", badge(c.status), " ", el("h4", "", c.title || c.id), " ",
      el("span", "points", num(c.score) + " / " + num(c.max_score) + " pts")));
  if (c.message) card.append(el("p", "", c.message));
  if (c.hint && c.status !== "passed") card.append(el("p", "hint", el("strong", "", "Hint: "), c.hint));
  const cx = c.counterexample;
  if (cx && cx.steps && cx.steps.length) {
    const rows = cx.steps.map((s, i) => el("tr", "", el("td", "num", String(i + 1)), el("td", "call", el("code", "", s.call)),
      el("td", "", el("code", "", s.got)), el("td", "", el("code", "", s.want))));
    const head = el("tr", "", ...["#", "Call", "Got", "Want"].map((h) => {
      const th = el("th", "", h);
      th.setAttribute("scope", "col");
      return th;
    }));
    const scroll = el("div", "table-scroll", el("table", "", el("thead", "", head), el("tbody", "", ...rows)));
    scroll.setAttribute("role", "region");
    scroll.setAttribute("aria-label", "The counterexample's calls");
    scroll.tabIndex = 0;
    card.append(el("p", "cx-setup", "Start with ", el("code", "", cx.setup), ", then make these calls in order."), scroll);
  }
  return card;
}
