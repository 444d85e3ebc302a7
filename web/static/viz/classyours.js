// @ts-check
// ratelab: "Yours" in class mode, from the signed-in learner's build.
//
// In class mode the learner's code is on the server, not in exercises/:
// the server builds the lab's WebAssembly with it (internal/yours) and
// serves each build under a URL of its own. This module asks the endpoint
// named by the page's state line (data-yours-api) for the learner's build,
// says where it is on that line ("building your code…", ready, or the
// compiler's lines), and hands it to remote.js (awaitBuild), so that a
// visualization switched to Yours runs the learner's code in the worker
// beside the reference. Until the build is ready, runs of Yours wait for
// it; if it fails, they stop with its message.
//
// It asks again every BUSY_MS while the build is under way, and every
// IDLE_MS while the page is shown, so that code submitted or checked in
// another tab reaches Yours here: a new build restarts the runs of Yours
// on it; the reference runs on undisturbed.

import { awaitBuild } from "./remote.js";

/** BUSY_MS is how often the page asks while the build is under way. */
const BUSY_MS = 1500;
/** IDLE_MS is how often the page asks once it is ready or failed. */
const IDLE_MS = 20000;
/** EXEC is Go's loader, served with the lab. */
const EXEC = "/static/wasm_exec.js";

/**
 * @typedef {object} Answer what the endpoint answers
 * @property {"ready" | "building" | "failed"} state
 * @property {string} [wasm] the build's URL, once ready
 * @property {string} [error] why it failed
 * @property {string} [note] of a ready build: the exercises it runs as their stub, and why
 */

/**
 * @typedef {object} Pending a build the runs of Yours wait for
 * @property {(url: string) => void} resolve
 * @property {(err: Error) => void} reject
 */

const line = /** @type {HTMLElement | null} */ (document.querySelector("[data-yours-api]"));
if (line) follow(line, line.getAttribute("data-yours-api") || "");

/**
 * follow keeps line, and the build Yours runs from, up to date with the
 * learner's build as api answers it.
 * @param {HTMLElement} line
 * @param {string} api
 */
function follow(line, api) {
  /** @type {Pending | null} the build runs of Yours wait for, until it settles */
  let pending = null;
  let current = ""; // the URL Yours runs from now
  let refused = false; // runs of Yours are refused: the last answer was a failure

  /** wait makes new runs of Yours wait for the next build. */
  function wait() {
    if (pending) return;
    /** @type {Pending} */
    const p = { resolve: () => {}, reject: () => {} };
    awaitBuild(new Promise((resolve, reject) => { p.resolve = resolve; p.reject = reject; }), EXEC);
    pending = p;
  }

  /**
   * say writes the line: its state, a sentence, and the compiler's lines
   * if any.
   * @param {string} state
   * @param {string} text
   * @param {string} [detail]
   */
  function say(state, text, detail) {
    line.setAttribute("data-state", state);
    const p = document.createElement("p");
    p.textContent = text;
    /** @type {HTMLElement[]} */
    const nodes = [p];
    if (detail) {
      const pre = document.createElement("pre");
      pre.setAttribute("data-testid", "yours-error");
      pre.textContent = detail;
      nodes.push(pre);
    }
    line.replaceChildren(...nodes);
  }

  async function ask() {
    /** @type {Answer} */
    let a;
    try {
      const resp = await fetch(api, { headers: { Accept: "application/json" }, credentials: "same-origin", cache: "no-store" });
      const body = await resp.json();
      if (!resp.ok) throw new Error(body && body.error ? body.error : "the server answered " + resp.status);
      a = /** @type {Answer} */ (body);
    } catch (e) {
      const why = e instanceof Error ? e.message : String(e);
      say("failed", "Yours: the server could not be asked for your code's build: " + why);
      refuse("the server could not be asked for your code's build: " + why);
      later(IDLE_MS);
      return;
    }
    if (a.state === "ready" && a.wasm) {
      if (a.wasm !== current || refused) {
        current = a.wasm;
        refused = false;
        wait(); // a new build: runs of Yours restart on it
        if (pending) pending.resolve(a.wasm);
        pending = null;
      }
      if (a.note) {
        const i = a.note.indexOf("\n");
        say("partial", i < 0 ? a.note : a.note.slice(0, i), i < 0 ? "" : a.note.slice(i + 1));
      } else {
        say("ready", "Yours runs your code: each exercise's latest submission that compiled, or its stub where you have none. Switch a visualization to Yours to watch it.");
      }
      later(IDLE_MS);
    } else if (a.state === "failed") {
      say("failed", "Your code does not build for the browser, so Yours cannot run it:", a.error || "");
      refuse("your code does not build for the browser: " + firstLine(a.error || ""));
      later(IDLE_MS);
    } else {
      say("building", "Yours: building your code… (a few seconds; Yours starts once it is built)");
      wait();
      later(BUSY_MS);
    }
  }

  /**
   * refuse makes new runs of Yours fail with why, until a build is ready.
   * @param {string} why
   */
  function refuse(why) {
    wait();
    if (pending) pending.reject(new Error(why));
    pending = null;
    refused = true;
  }

  let timer = 0; // the next ask's, one at a time

  /** @param {number} ms */
  function later(ms) {
    clearTimeout(timer);
    timer = setTimeout(() => {
      if (document.visibilityState === "hidden") {
        document.addEventListener("visibilitychange", () => ask(), { once: true });
        return;
      }
      ask();
    }, ms);
  }

  wait(); // from the start: Yours is the learner's build, never the server's stubs
  ask();

  // A Check graded beside the editor changes the code Yours builds (its
  // latest that compiled): once its score shows, ask at once, not at the
  // next IDLE_MS, so that a Replay of its report waits for that build
  // instead of running the one before.
  // Only the editor is watched: a lesson's visualizations, which change
  // the page at every frame, are not.
  const editor = document.querySelector("[data-editor]");
  /** @type {Element | null} */
  let seen = null;
  if (editor) new MutationObserver(() => {
    const score = editor.querySelector("[data-testid=editor-out] [data-testid=check-result] [data-testid=score]");
    if (score && score !== seen) {
      seen = score;
      later(0);
    }
  }).observe(editor, { childList: true, subtree: true });
}

/**
 * firstLine is the first line of text.
 * @param {string} text
 */
function firstLine(text) {
  const i = text.indexOf("\n");
  return i < 0 ? text : text.slice(0, i) + " …";
}
