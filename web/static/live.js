// @ts-check
// The single-learner lab's live loop, in the page: `labserver serve`
// watches exercises/, and on every save rebuilds "Yours", regrades what
// changed and sends what happens on the websocket /live
// (internal/server/live.go). This script updates the grade badges
// (elements marked data-live-grade="<exercise>") and the exercise page's
// report (data-live-report="<exercise>") in place, shows a small status
// panel, and tells the visualizations about new builds with DOM events:
//
//   document.addEventListener("ratelab:yours", (e) => { e.detail.version; e.detail.files });
//     New "Yours" builds are served under /static/, files naming them
//     (lab.wasm, yours-week-N.wasm; all of them when files is absent), as
//     version 1, 2, ... since the server started: fetch one again, e.g.
//     /static/yours-week-1.wasm?v=N.
//   document.addEventListener("ratelab:yours-failed", (e) => { e.detail.message });
//     exercises/ does not compile; the last good build stays served.
//
// and tells the editor (web/editor, on the exercise pages) about saves and
// compile errors:
//
//   document.addEventListener("ratelab:saved", (e) => { e.detail.exercises });
//     A save changed these exercises' files (from any editor, the page's too).
//   document.addEventListener("ratelab:not-built", (e) => { e.detail.exercises; e.detail.message });
//     These exercises do not compile: message holds the compiler's lines.
//   document.addEventListener("ratelab:graded", (e) => { e.detail.exercise });
//     The exercise built and was graded.
//   document.addEventListener("ratelab:live-open", (e) => { e.detail.reopened });
//     The websocket opened, or reopened: saves made while it was closed
//     went unheard.
//
// The layout loads it only in single-learner mode; without it (or without
// JavaScript) the pages are the same, reloaded by hand.

import { EVENT } from "./events.js";
import { morph } from "./morph.js";

/**
 * @typedef {object} Grade
 * @property {string} exercise
 * @property {string} status
 * @property {number} score
 * @property {number} max_score
 * @property {boolean} [pending]
 * @property {string} [label]
 * @property {string} [class]
 * @property {string} [points]
 * @property {string} [when]
 * @property {string} [saved_at]
 */

/**
 * @typedef {object} LiveEvent
 * @property {string} type
 * @property {number} [version]
 * @property {string[]} [files]
 * @property {string[]} [exercises]
 * @property {string} [message]
 * @property {{id: string, status: string}} [check]
 * @property {Grade} [grade]
 * @property {Grade[]} [grades]
 * @property {string} [report]
 */


/** The report container of the exercise page, if this is one. */
const reportEl = document.querySelector("[data-live-report]");
const pageExercise = reportEl ? reportEl.getAttribute("data-live-report") || "" : "";

/** @type {number | null} the Yours build this page knows of */
let version = null;

/** @type {HTMLElement | null} */
let panel = null;

/**
 * The status panel, made on first use: a line of text and, when the code
 * does not compile, the compiler's message.
 * @returns {{line: HTMLElement, error: HTMLElement}}
 */
function statusPanel() {
  if (!panel) {
    panel = document.createElement("aside");
    panel.className = "live-bar";
    panel.setAttribute("data-testid", "live-status");
    panel.setAttribute("role", "status");
    panel.setAttribute("aria-live", "polite");
    panel.setAttribute("aria-label", "Live grading");
    const inner = document.createElement("div");
    inner.className = "wrap";
    const line = document.createElement("p");
    line.setAttribute("data-testid", "live-line");
    const error = document.createElement("pre");
    error.setAttribute("data-testid", "live-build-error");
    error.tabIndex = 0;
    error.hidden = true;
    inner.append(line, error);
    panel.append(inner);
    document.body.append(panel);
    // The page ends above the bar: its bottom padding follows the bar's height.
    const bar = panel;
    new ResizeObserver(() => { document.body.style.paddingBottom = bar.offsetHeight + "px"; }).observe(bar);
  }
  return {
    line: /** @type {HTMLElement} */ (panel.querySelector("[data-testid=live-line]")),
    error: /** @type {HTMLElement} */ (panel.querySelector("[data-testid=live-build-error]")),
  };
}

/** @param {string} text */
function say(text) {
  statusPanel().line.textContent = text;
}

/** The line that told the latest save's grade, "" until there is one. */
let gradedLine = "";

/** @param {string} message the compiler's lines, or "" when it compiles */
function buildError(message) {
  if (!message && !panel) {
    return;
  }
  const { error } = statusPanel();
  error.textContent = message;
  error.hidden = !message;
}

/**
 * Updates every badge of g's exercise: "failed · 20 / 35", and when.
 * @param {Grade} g
 */
function showGrade(g) {
  for (const el of document.querySelectorAll(`[data-live-grade="${CSS.escape(g.exercise)}"]`)) {
    const badge = document.createElement("span");
    badge.className = g.class || "badge";
    badge.textContent = (g.label || g.status) + " · " + (g.points || "");
    const nodes = /** @type {Node[]} */ ([badge]);
    if (g.when && g.saved_at) {
      const time = document.createElement("time");
      time.className = "when";
      time.dateTime = g.saved_at;
      time.textContent = "graded " + g.when;
      nodes.push(document.createTextNode(" "), time);
    }
    el.replaceChildren(...nodes);
    el.setAttribute("data-live-status", g.pending ? "pending" : g.status);
  }
}

/**
 * showReport brings the exercise page's report to the server's rendering
 * of e's grade, in place (morph), so that the focus stays where it was.
 * While a save is graded (check events) a standing grade stays as it is,
 * with a line above it that counts the checks run: it changes once, when
 * the new grade is complete. Without one, the grade so far is shown.
 * @param {LiveEvent} e
 */
function showReport(e) {
  if (!reportEl || !e.report || !e.grade || e.grade.exercise !== pageExercise) return;
  const standing = reportEl.querySelector("[data-testid=report]");
  if (e.type === EVENT.CHECK && standing && standing.getAttribute("data-status") !== "grading") {
    regrading(e.report);
    return;
  }
  regrading("");
  morph(reportEl, e.report);
}

/**
 * regrading says above the standing report how far the grading of a new
 * save is (the "3 of 14 checks run" of report, the grade so far), or takes
 * the line away (report "").
 * @param {string} report
 */
function regrading(report) {
  if (!reportEl) return;
  let line = document.querySelector("[data-testid=regrading]");
  if (!report) {
    if (line) line.remove();
    reportEl.removeAttribute("aria-busy");
    return;
  }
  const tpl = document.createElement("template");
  tpl.innerHTML = report;
  const run = tpl.content.querySelector("[data-testid=score]");
  if (!line) {
    line = document.createElement("p");
    line.className = "regrading";
    line.setAttribute("data-testid", "regrading");
    reportEl.before(line);
  }
  line.textContent = "Grading your latest save: " + (run ? run.textContent.replace(/\s+/g, " ").trim() : "…") +
    ". The grade below stands until the new one is complete.";
  reportEl.setAttribute("aria-busy", "true");
}

/**
 * notBuilt says, above the exercise page's report, that the latest save of
 * exercise does not compile, with the compiler's lines: the report below
 * stays the last grade of code that did. message "" takes the notice away.
 * @param {string} exercise
 * @param {string} message
 */
function notBuilt(exercise, message) {
  if (!reportEl || exercise !== pageExercise) return;
  let box = document.querySelector("[data-testid=not-built]");
  if (!message) {
    if (box) box.remove();
    return;
  }
  if (!box) {
    box = document.createElement("div");
    box.className = "note trap";
    box.setAttribute("data-testid", "not-built");
    box.setAttribute("role", "alert");
    reportEl.before(box);
  }
  const head = document.createElement("p");
  const strong = document.createElement("strong");
  strong.textContent = "Your latest save does not compile";
  head.append(strong, ", so it was not graded: the report below is the grade of your last save that did. The compiler says:");
  const pre = document.createElement("pre");
  pre.tabIndex = 0; // long lines scroll: the keyboard reaches them
  pre.textContent = message;
  box.replaceChildren(head, pre);
}

/**
 * tell dispatches a DOM event for the page's other scripts (the editor).
 * @param {string} type
 * @param {object} detail
 */
function tell(type, detail) {
  document.dispatchEvent(new CustomEvent(type, { detail }));
}

/**
 * @param {number} v
 * @param {string[]} [files] the builds served anew; all of them if absent
 */
function newBuild(v, files) {
  version = v;
  document.dispatchEvent(new CustomEvent("ratelab:yours", { detail: { version: v, files } }));
}

/** @param {LiveEvent} e */
function handle(e) {
  switch (e.type) {
    case EVENT.HELLO:
      document.documentElement.setAttribute("data-live", "open"); // for tests: the page follows the server
      tell("ratelab:live-open", { reopened: opened });
      opened = true;
      if (version !== null && e.version !== undefined && e.version !== version) {
        newBuild(e.version); // built while this page was reconnecting
      }
      version = e.version || 0;
      for (const g of e.grades || []) {
        showGrade(g);
      }
      buildError(e.message || "");
      if (panel) {
        say("Live: saving a file under exercises/ regrades it here.");
      }
      break;
    case EVENT.SAVED:
      tell("ratelab:saved", { exercises: e.exercises || [] });
      gradedLine = "";
      say("Saved " + (e.exercises || []).join(", ") + ": grading, then rebuilding…");
      break;
    case EVENT.BUILT:
      buildError("");
      newBuild(e.version || 0, e.files);
      // A save is graded before it is built: the grade's line stays, told
      // that Yours now runs the new code.
      say((gradedLine ? gradedLine + " " : "") + "Your code is rebuilt: the visualizations' Yours switch runs it.");
      break;
    case EVENT.BUILD_FAILED:
      buildError(e.message || "");
      say("Your code does not compile; the visualizations keep the last build that did:");
      document.dispatchEvent(new CustomEvent("ratelab:yours-failed", { detail: { message: e.message || "" } }));
      break;
    case EVENT.CHECK:
      // The badges keep the standing grade until the new one is complete.
      if (e.grade) {
        say("Grading " + e.grade.exercise + ": " + (e.check ? e.check.id + " " + e.check.status : "") + "…");
      }
      showReport(e);
      break;
    case EVENT.GRADE:
      if (e.grade) {
        tell("ratelab:graded", { exercise: e.grade.exercise });
        notBuilt(e.grade.exercise, "");
        showGrade(e.grade);
        gradedLine = "Graded " + e.grade.exercise + ": " + (e.grade.label || e.grade.status) + " · " + (e.grade.points || "") +
          (e.grade.pending ? " (the benchmarks are to come)." : ".");
        say(gradedLine);
      }
      showReport(e);
      break;
    case EVENT.NOT_BUILT:
      regrading("");
      tell("ratelab:not-built", { exercises: e.exercises || [], message: e.message || "" });
      for (const ex of e.exercises || []) notBuilt(ex, e.message || "");
      say((e.exercises || []).join(", ") + " does not compile: its last grade stands until a save that does.");
      break;
    case EVENT.GRADE_FAILED:
      regrading("");
      say("Could not grade: " + (e.message || "see the terminal running the server."));
      break;
    case EVENT.RESYNC:
      location.reload();
      break;
  }
}

let retry = 1000;

/** whether the websocket has opened before: a later hello is a reopening */
let opened = false;

function connect() {
  const proto = location.protocol === "https:" ? "wss://" : "ws://";
  const query = pageExercise ? "?exercise=" + encodeURIComponent(pageExercise) : "";
  const ws = new WebSocket(proto + location.host + "/live" + query);
  ws.onopen = () => { retry = 1000; };
  ws.onmessage = (m) => handle(/** @type {LiveEvent} */ (JSON.parse(m.data)));
  ws.onclose = () => {
    document.documentElement.setAttribute("data-live", "closed");
    // The server stopped (make run again?): try again, less and less often.
    if (panel) {
      say("Live updates paused: reconnecting to the lab…");
    }
    setTimeout(connect, retry);
    retry = Math.min(retry * 2, 10000);
  };
}

connect();
