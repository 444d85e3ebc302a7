// @ts-check
// ratelab: what the lab's visualizations share (limiters.js, governor.js,
// gradient2.js), as a native ES module they import.
//
// It holds the one loader of the lab's WebAssembly build for the whole page
// (see wasm/doc.go), the small DOM and canvas helpers, the base class Viz
// with what every visualization does alike, and register, which mounts each
// kind into its <div data-viz="kind"> elements.
//
// The reference runs on the main thread, from the lab.wasm loaded here.
// "Yours" runs in a Web Worker (remote.js, worker.js), so that learner code
// that never returns cannot freeze the page: the API loadWasm resolves with
// makes a config with impl "yours" into a promise of a stand-in run whose
// calls answer with promises. Visualizations therefore await every run
// call (awaiting a reference run's plain answer costs nothing), and Viz
// makes one call at a time per visualization (see Viz.serial).
//
// No build step: the browser loads these files as they are. They are
// type-checked by tsc from JSDoc (make lint-js); the types of the global
// `ratelab` are in lab.d.ts, those of wasm_exec.js's `Go` in wasm_exec.d.ts.

import { Building, DEADLINE_MS, Freed, Hung, Lost, NoStart, defaultBuild, rebuilt, withYours } from "./remote.js";

// ---- loading, once per page --------------------------------------------------

/** @type {Promise<lab.API> | null} */
let loading = null; // one promise of the ratelab API for the whole page

/**
 * loadScript loads a classic script and resolves once it has run.
 * @param {string} src
 * @returns {Promise<void>}
 */
function loadScript(src) {
  return new Promise((resolve, reject) => {
    const s = document.createElement("script");
    s.src = src;
    s.onload = () => resolve();
    s.onerror = () => reject(new Error("could not load " + src));
    document.head.appendChild(s);
  });
}

/**
 * loadWasm returns the promise of the ratelab API, whichever visualization
 * asks first: the build at wasmURL is fetched and started once, from the
 * URLs of that first call, and Yours will run in a worker from yoursURL
 * (lab.wasm; wasmURL is often a week's build, the reference alone). The
 * API's constructors make Yours' runs in the worker (remote.js's
 * withYours).
 * @param {string} wasmURL
 * @param {string} execURL wasm_exec.js, loaded only if `Go` is not defined
 * @param {string} [yoursURL] the build Yours runs from; wasmURL if not given
 * @returns {Promise<lab.API>}
 */
export function loadWasm(wasmURL, execURL, yoursURL = wasmURL) {
  if (loading) return loading;
  firstURLs = { wasm: wasmURL, exec: execURL, yours: yoursURL };
  defaultBuild(yoursURL, execURL);
  loading = (globalThis.ratelab ? Promise.resolve(globalThis.ratelab) : startWasm(wasmURL, execURL)).then(withYours);
  return loading;
}

/** @type {{wasm: string, exec: string, yours: string} | null} the URLs the page's builds came from */
let firstURLs = null;

/**
 * earlyInstance instantiates the build the page's head began to fetch and
 * compile (see ratelabEarlyWasm) if it is wasmURL and it compiled; null
 * otherwise, and startWasm fetches it itself. The head starts it before
 * the page is laid out and its scripts run, so that it is compiled, or
 * nearly, when the visualizations ask for it.
 * @param {string} wasmURL
 * @param {Go} go
 * @returns {Promise<WebAssembly.Instance | null>}
 */
async function earlyInstance(wasmURL, go) {
  const early = globalThis.ratelabEarlyWasm;
  if (!early || early.url !== wasmURL) return null;
  const module = await early.module.catch(() => null);
  return module && WebAssembly.instantiate(module, go.importObject);
}

/**
 * startWasm fetches and starts a lab.wasm and returns its API. A second
 * one started beside the first (a newer "Yours" build) takes over
 * globalThis.ratelab; the first keeps serving the runs made with it.
 * @param {string} wasmURL
 * @param {string} execURL wasm_exec.js, loaded only if `Go` is not defined
 * @returns {Promise<lab.API>}
 */
async function startWasm(wasmURL, execURL) {
  if (typeof WebAssembly !== "object") throw new Error("this browser has no WebAssembly");
  if (typeof Go === "undefined") await loadScript(execURL);
  const go = new Go();
  let instance = await earlyInstance(wasmURL, go);
  if (!instance) {
    try {
      instance = (await WebAssembly.instantiateStreaming(fetch(wasmURL), go.importObject)).instance;
    } catch (e) {
      // Wrong MIME type or an old browser: fetch the bytes instead.
      const resp = await fetch(wasmURL);
      if (!resp.ok) throw new Error("could not load " + wasmURL + " (" + resp.status + ")");
      instance = (await WebAssembly.instantiate(await resp.arrayBuffer(), go.importObject)).instance;
    }
  }
  const before = globalThis.ratelab;
  go.run(instance); // runs main until it blocks; it sets globalThis.ratelab
  if (!globalThis.ratelab || globalThis.ratelab === before) throw new Error("lab.wasm did not start");
  return globalThis.ratelab;
}

// A new "Yours" build (web/static/live.js dispatches ratelab:yours when the
// server has rebuilt builds after a save): if it is the page's, remote.js
// starts Yours' worker on it, and a visualization showing "Yours" restarts
// at once. When the
// page draws the reference from a week's build, which no save changes,
// that is all; when it draws it from lab.wasm, the new build starts beside
// the running one too and every visualization makes its next run with it.
// Runs of the reference go on undisturbed.
document.addEventListener("ratelab:yours", (ev) => {
  if (!firstURLs || !loading) return; // no visualization on this page
  const detail = /** @type {CustomEvent<{version?: number, files?: string[]}>} */ (ev).detail || {};
  if (!rebuilt(firstURLs.yours, detail)) return; // another week's build
  if (firstURLs.wasm !== firstURLs.yours) {
    loading.then((api) => { for (const viz of every) viz.swap(api); }, () => {});
    return;
  }
  const url = firstURLs.wasm + (firstURLs.wasm.includes("?") ? "&" : "?") + "v=" + String(detail.version ?? Date.now());
  loading = startWasm(url, firstURLs.exec).then(withYours);
  loading.then((api) => { for (const viz of every) viz.swap(api); }, (err) => { for (const viz of every) viz.fail(err); });
});

/**
 * writeHint says how the learner's code of exercise gets into Yours: in
 * class mode the server builds what they submit (classyours.js); under
 * `make run` the lab watches exercises/ and each save rebuilds it (the page
 * loads live.js); elsewhere make run builds it.
 * @param {string} exercise
 * @returns {string}
 */
export function writeHint(exercise) {
  if (document.querySelector("[data-yours-api]")) return "Submit your " + exercise + ": once it is graded, Yours runs it here.";
  const live = !!document.querySelector('script[src$="/live.js"]');
  return live ? "Write exercises/" + exercise + ": each save rebuilds Yours here." : "Write exercises/" + exercise + ", then run make run.";
}

/**
 * staleHint says what to do about a lab.wasm older than the page's
 * scripts: make run builds it again.
 * @param {string} what what the old build lacks
 * @returns {string}
 */
export function staleHint(what) {
  return "This lab.wasm predates " + what + ": run make run, which builds it again.";
}

/**
 * ensureCSS links the stylesheet at href (absolute), unless the page
 * already links it.
 * @param {string} href
 */
export function ensureCSS(href) {
  const links = document.querySelectorAll('link[rel="stylesheet"]');
  for (const l of links) if (/** @type {HTMLLinkElement} */ (l).href === href) return;
  const l = document.createElement("link");
  l.rel = "stylesheet";
  l.href = href;
  document.head.appendChild(l);
}

// ---- small DOM helpers ---------------------------------------------------------

/**
 * h makes an element: attrs "text" and "class" set its text and class
 * name, the others are attributes; children are nodes or strings.
 * @template {keyof HTMLElementTagNameMap} K
 * @param {K} tag
 * @param {Record<string, string> | null} [attrs]
 * @param {(Node | string)[]} [children]
 * @returns {HTMLElementTagNameMap[K]}
 */
export function h(tag, attrs, children) {
  const el = document.createElement(tag);
  if (attrs) {
    for (const k in attrs) {
      if (k === "text") el.textContent = attrs[k];
      else if (k === "class") el.className = attrs[k];
      else el.setAttribute(k, attrs[k]);
    }
  }
  for (const c of children || []) el.appendChild(typeof c === "string" ? document.createTextNode(c) : c);
  return el;
}

/**
 * select makes a <select> of options, [value, label] pairs, set to value.
 * @param {string} testid
 * @param {[string, string][]} options
 * @param {string} value
 * @returns {HTMLSelectElement}
 */
export function select(testid, options, value) {
  const s = h("select", { "data-testid": testid });
  setOptions(s, options, value);
  return s;
}

/**
 * setOptions replaces the options of s with options, [value, label] pairs,
 * and sets it to value.
 * @param {HTMLSelectElement} s
 * @param {[string, string][]} options
 * @param {string} value
 */
export function setOptions(s, options, value) {
  s.textContent = "";
  for (const [v, label] of options) s.appendChild(h("option", { value: v, text: label }));
  s.value = value;
}

/**
 * field labels a control.
 * @param {string} label
 * @param {HTMLElement} control
 */
export function field(label, control) {
  return h("label", { class: "viz-field" }, [h("span", { class: "viz-label", text: label }), control]);
}

/**
 * @typedef {object} Figure one of the headline figures
 * @property {HTMLDivElement} box
 * @property {HTMLSpanElement} value
 * @property {HTMLSpanElement} note
 */

/**
 * figure makes one of the headline figures: a label, a value (data-testid
 * testid) and a note under it.
 * @param {string} prefix
 * @param {string} testid
 * @param {string} label
 * @param {string} note
 * @returns {Figure}
 */
export function figure(prefix, testid, label, note) {
  const value = h("span", { class: prefix + "-fig-value", "data-testid": testid, text: "–" });
  const noteEl = h("span", { class: prefix + "-fig-note", text: note });
  const box = h("div", { class: prefix + "-fig " + prefix + "-fig-" + testid }, [h("span", { class: prefix + "-fig-label", text: label }), value, noteEl]);
  return { box, value, note: noteEl };
}

/**
 * key makes one entry of a chart's legend: a swatch and its text.
 * @param {string} prefix
 * @param {string} swatch
 * @param {string} text
 */
export function key(prefix, swatch, text) {
  return h("span", { class: "viz-key" }, [h("span", { class: prefix + "-swatch " + prefix + "-sw-" + swatch }), " " + text]);
}

/**
 * helpers returns field, and figure and key bound to a visualization's
 * class prefix (rlv, rgv, rg2, …), as its script uses them.
 * @param {string} prefix
 */
export function helpers(prefix) {
  return {
    field,
    /** @param {string} testid @param {string} label @param {string} note */
    figure: (testid, label, note) => figure(prefix, testid, label, note),
    /** @param {string} swatch @param {string} text */
    key: (swatch, text) => key(prefix, swatch, text),
  };
}

/** @typedef {Record<string, string>} ColorVars colour name: the custom property it is read from */
/** @typedef {Record<string, string>} Colors colour name: CSS colour */

/**
 * BASE_COLORS are the colours every visualization has, lab.css's: its
 * text and its background.
 * @type {ColorVars}
 */
const BASE_COLORS = { text: "--viz-text", bg: "--viz-bg" };

/**
 * readColors returns, for each name of vars and of BASE_COLORS, the value
 * of its custom property on el. Each colour is declared once, in the
 * stylesheets, for the light and the dark scheme (web's
 * TestVizColorsAreDeclared checks that every one is).
 * @param {Element} el
 * @param {ColorVars} vars
 * @returns {Colors}
 */
export function readColors(el, vars) {
  const cs = getComputedStyle(el);
  /** @type {Colors} */
  const out = {};
  for (const [name, prop] of Object.entries({ ...BASE_COLORS, ...vars })) out[name] = cs.getPropertyValue(prop).trim();
  return out;
}

// ---- canvas helpers --------------------------------------------------------------

/**
 * sizeCanvas matches the canvas's pixels to its CSS size and the device
 * pixel ratio, and returns its context in CSS pixels with the size, or
 * null while the canvas is not laid out.
 * @param {HTMLCanvasElement} canvas
 * @returns {{g: CanvasRenderingContext2D, w: number, h: number} | null}
 */
export function sizeCanvas(canvas) {
  const dpr = window.devicePixelRatio || 1;
  const cw = canvas.clientWidth, ch = canvas.clientHeight;
  if (!cw || !ch) return null;
  if (canvas.width !== Math.round(cw * dpr) || canvas.height !== Math.round(ch * dpr)) {
    canvas.width = Math.round(cw * dpr);
    canvas.height = Math.round(ch * dpr);
  }
  const g = canvas.getContext("2d");
  if (!g) return null;
  g.setTransform(dpr, 0, 0, dpr, 0, 0);
  return { g, w: cw, h: ch };
}

/**
 * niceStep rounds a grid step up to 1, 2, 2.5 or 5 times a power of ten.
 * @param {number} x
 */
export function niceStep(x) {
  const p = Math.pow(10, Math.floor(Math.log10(Math.max(x, 1e-9))));
  const m = x / p;
  return (m <= 1 ? 1 : m <= 2 ? 2 : m <= 2.5 ? 2.5 : m <= 5 ? 5 : 10) * p;
}

/** DESCRIBE_MS is the least time between two changes of a canvas's text alternative. */
export const DESCRIBE_MS = 1000;

/** @type {WeakMap<HTMLCanvasElement, {name: string, summary: () => string, last: number, timer: number}>} */
const described = new WeakMap();

/**
 * describe keeps the text alternative of a chart (its canvas, role=img)
 * saying what it shows now: the canvas's aria-label becomes its first
 * aria-label (the chart's name, "GCRA timeline"), a colon and summary(),
 * which says it in words from the figures the page already shows. Call it
 * whenever the chart is drawn: it is cheap, and it asks summary at most
 * once every DESCRIBE_MS, so that a screen reader is not flooded and the
 * frame pays nothing. A draw inside that time is written when it ends, so
 * the label catches up with a run that pauses or finishes within
 * DESCRIBE_MS.
 * @param {HTMLCanvasElement} canvas
 * @param {() => string} summary
 */
export function describe(canvas, summary) {
  let d = described.get(canvas);
  if (!d) {
    d = { name: canvas.getAttribute("aria-label") || "Chart", summary, last: -Infinity, timer: 0 };
    described.set(canvas, d);
  }
  d.summary = summary;
  if (d.timer) return;
  const due = d.last + DESCRIBE_MS - performance.now();
  const st = d;
  const write = () => {
    st.timer = 0;
    st.last = performance.now();
    const text = st.name + ": " + st.summary();
    if (canvas.getAttribute("aria-label") !== text) canvas.setAttribute("aria-label", text);
  };
  if (due <= 0) write();
  else st.timer = window.setTimeout(write, due);
}

/**
 * stoppedNote writes why a run stopped across a chart, from (x, y).
 * @param {CanvasRenderingContext2D} g
 * @param {string} color
 * @param {string} status
 * @param {number} x
 * @param {number} y
 */
export function stoppedNote(g, color, status, x, y) {
  g.fillStyle = color;
  g.font = "13px system-ui, sans-serif";
  g.textBaseline = "middle";
  g.fillText("stopped: " + status, x, y);
}

// ---- what every visualization does alike ---------------------------------------------

/** @type {WeakSet<object>} the runs freed, so that none is freed twice */
const freedRuns = new WeakSet();

/**
 * freeRun frees a run once.
 * @param {{free(): unknown}} run
 */
function freeRun(run) {
  if (freedRuns.has(run)) return;
  freedRuns.add(run);
  run.free();
}

/**
 * grouped writes a number rounded to a whole one as prose does, in groups
 * of three: 220,491. It writes what toLocaleString("en") writes of the
 * rounded number, without that call's cost: its first call on a page
 * loads the browser's locale data, tens of milliseconds before the first
 * frame. Numbers String writes in exponent form (from 1e21 on), and
 * infinities, are left to toLocaleString: no count of the lab gets there.
 * @param {number} n
 */
export function grouped(n) {
  const r = Math.round(n);
  let s = String(Math.abs(r));
  if (!/^\d+$/.test(s)) return r.toLocaleString("en");
  for (let i = s.length - 3; i > 0; i -= 3) s = s.slice(0, i) + "," + s.slice(i);
  return (r < 0 || Object.is(r, -0) ? "-" : "") + s;
}

/**
 * formatSimSeconds writes a simulated time in ns as seconds, to the
 * millisecond without trailing zeros: 3200000000 is "3.2".
 * @param {number} ns
 */
export function formatSimSeconds(ns) {
  return String(+(ns / 1e9).toFixed(3));
}

/** SLOW_MS is how long a call of the run may take before the status says the page is waiting for it. */
const SLOW_MS = 250;
/** WAITING is what the ready dot says meanwhile. */
const WAITING = "waiting for Yours…";
/** LOADING is what the ready dot says until lab.wasm has started and the first frame is drawn. */
const LOADING = "loading…";
/** FIRST_FRAME names the performance mark set when the page's first visualization has drawn its first frame. */
const FIRST_FRAME = "ratelab:first-frame";

/**
 * Viz is what every visualization does alike. A visualization extends it:
 * its constructor builds into root what it shows, with the status line's
 * status and readyDot and the error line made here, and sets el (what it
 * built); its start(api) runs once lab.wasm has started, then calls begin.
 * It overrides makeRun, which makes a new run (with newRun) and sets the
 * visualization up for it, tick(dt), which advances the run by dt real
 * milliseconds and draws, and simNs, the run's simulated time.
 *
 * A run of Yours lives in a worker: its calls answer later, with promises.
 * So makeRun and tick await every run call, and Viz runs them one at a time
 * (serial): a frame's batch is not asked for before the previous one
 * answered, and restart (which any control calls) waits its turn, except
 * that it frees the run at once so that a call still waiting on it gives
 * up. A call of Yours that does not answer within remote.js's deadline
 * stops the run with a message naming the call and the simulated time; the
 * visualization's controls keep working, and other runs go on.
 * @template {{free(): void}} S the run, as lab.wasm returns it
 */
export class Viz {
  /**
   * @param {HTMLElement} root the mount element
   * @param {ColorVars} colorVars the colours, for readColors
   * @param {number} maxDtMs the most real time one frame advances
   */
  constructor(root, colorVars, maxDtMs) {
    this.root = root;
    this.colorVars = colorVars;
    this.maxDtMs = maxDtMs;
    /** The implementation and its status, or why the visualization could not start. */
    this.status = h("span", { class: "viz-impl", "data-testid": "impl-status", text: "Loading…" });
    /** Why the settings make no run, hidden when they do. */
    this.error = h("p", { class: "viz-error", role: "alert", "data-testid": "viz-error", hidden: "" });
    /** "loading…", "live", "paused", "done", "stopped" or WAITING (see showDot); data-testid viz-ready once a frame is drawn. */
    this.readyDot = h("span", { class: "viz-ready viz-paused", text: LOADING });
    /** Whether stop stopped the run of Yours: the dot says "stopped" until a new run starts. */
    this.halted = false;
    /** @type {(HTMLInputElement | HTMLSelectElement | HTMLButtonElement)[]} the controls lock disabled, which unlock enables */
    this.locked = [];
    /** The learner's code a run of Yours calls, for messages (see yoursCode); each visualization sets it. */
    this.code = "exercises/";
    /** What the visualization built in root (its constructor sets it). */
    this.el = h("div");
    /** @type {Colors} */
    this.colors = {};
    /** @type {lab.API | null} */
    this.api = null;
    /** @type {lab.Run<S> | null} the run; a stand-in whose calls answer with promises for Yours */
    this.sim = null;
    this.lastFrame = 0;
    this.ready = false;
    /** @type {{impl?: string} | undefined} the settings (each visualization's own) */
    this.cfg = undefined;
    /** @type {Promise<void>} the last of the operations on runs, which run one at a time */
    this.chain = Promise.resolve();
    /** How many operations are queued or running. */
    this.queued = 0;
    /** When the operation running now started (performance.now()). */
    this.opStarted = 0;
    /** What the ready dot said before it said WAITING. */
    this.dotBefore = "";
    /**
     * Whether what the visualization shows changed since it last drew: new
     * figures, Pause pressed, its size or colours. A visualization that
     * draws only when something changed (not every frame: a paused run, or
     * a frame too short for the next bin, would draw the same picture
     * again) sets it and clears it when it draws.
     */
    this.changed = true;
    /** Whether the frame loop stopped asking for frames while idle (see frame). */
    this.sleeping = false;
    /** Whether the run is paused (see setPaused). */
    this.paused = false;
    /** Where a run's step writes its batch (see batchRoom); floats reads it as float64 values. */
    this.bytes = new Uint8Array(0);
    this.floats = new Float64Array(0);
  }

  readColors() {
    this.colors = readColors(this.el, this.colorVars);
    this.invalidate();
  }

  /**
   * showDot writes what the ready dot says: word ("live", "paused",
   * "done", "held"), unless the page has no frame yet ("loading…") or
   * Yours was stopped ("stopped"). The dot is green only while live.
   * @param {string} word
   */
  showDot(word) {
    if (this.halted) word = "stopped";
    else if (!this.ready) word = LOADING;
    if (this.readyDot.textContent === WAITING) { this.dotBefore = word; return; }
    this.readyDot.textContent = word;
    this.readyDot.classList.toggle("viz-paused", word !== "live");
  }

  /**
   * setPaused pauses the run (p) or plays it, and says which on the Pause
   * button (data-testid pause; "Play" while paused); a visualization that
   * writes its ready dot when it draws says it at the next frame.
   * @param {boolean} p
   */
  setPaused(p) {
    this.paused = p;
    for (const b of this.el.querySelectorAll('[data-testid="pause"]')) {
      b.textContent = p ? "Play" : "Pause";
      b.setAttribute("aria-pressed", p ? "true" : "false");
    }
    this.invalidate();
  }

  /**
   * batchRoom makes bytes hold at least n bytes, the most a run's step
   * writes, with floats over the same memory.
   * @param {number} n
   */
  batchRoom(n) {
    if (this.bytes.length >= n) return;
    this.bytes = new Uint8Array(n);
    this.floats = new Float64Array(this.bytes.buffer, 0, Math.floor(n / 8));
  }

  /**
   * lock disables the visualization's controls until lab.wasm has started
   * (unlock, in begin): before it, a control changed would read settings
   * whose options have not come yet, and the first run would be made from
   * them.
   */
  lock() {
    for (const el of this.el.querySelectorAll("input, select, button")) {
      const c = /** @type {HTMLInputElement | HTMLSelectElement | HTMLButtonElement} */ (el);
      if (c.disabled) continue;
      c.disabled = true;
      this.locked.push(c);
    }
  }

  unlock() {
    for (const c of this.locked) c.disabled = false;
    this.locked = [];
  }

  /**
   * runControls enables or disables the buttons that act on a run (Pause,
   * Step): a stopped run has nothing for them to do. Restart and the
   * settings stay: they make a new run.
   * @param {boolean} on
   */
  runControls(on) {
    for (const el of this.el.querySelectorAll('[data-testid="pause"], [data-testid="step"]')) {
      /** @type {HTMLButtonElement} */ (el).disabled = !on;
    }
  }

  /**
   * invalidate notes that what the visualization shows changed outside a
   * run's call (Pause pressed, a lane shown, a new size) and wakes the frame
   * loop if it sleeps, so that the next frame draws it.
   */
  invalidate() {
    this.changed = true;
    this.wake();
  }

  /** wake starts the frame loop again if it sleeps. */
  wake() {
    if (!this.sleeping) return;
    this.sleeping = false;
    requestAnimationFrame((t) => this.frame(t));
  }

  /**
   * idle reports whether the run has nothing to do until a control is
   * used: paused or stopped. A visualization that overrides it must draw
   * only when changed is set (and clear it then): the frame loop sleeps
   * while idle reports true and nothing changed.
   * @returns {boolean}
   */
  idle() {
    return false;
  }

  /**
   * newRun frees the run there is and returns a new one, made by make; or,
   * if the settings do not make one, null after showing why, after prefix.
   * @param {() => S | lab.Failure | Promise<lab.Run<S> | lab.Failure>} make
   * @param {string} prefix
   * @returns {Promise<lab.Run<S> | null>}
   */
  async newRun(make, prefix) {
    if (!this.api) return null;
    if (this.sim) { freeRun(this.sim); this.sim = null; }
    const s = await make();
    if ("error" in s) {
      this.showError(prefix + s.error);
      return null;
    }
    this.showError("");
    if (this.halted) {
      this.halted = false;
      this.runControls(true);
    }
    this.sim = /** @type {lab.Run<S>} */ (s);
    return this.sim;
  }

  /** @param {string} msg */
  showError(msg) {
    this.error.textContent = msg;
    this.error.hidden = !msg;
  }

  /**
   * restart makes a new run from the settings: it frees the run there is
   * now and queues makeRun.
   * @returns {Promise<void>}
   */
  restart() {
    if (this.sim) freeRun(this.sim);
    return this.serial(() => this.makeRun());
  }

  /**
   * makeRun makes a new run from the settings (with newRun) and shows it.
   * @returns {Promise<void>}
   */
  async makeRun() {}

  /**
   * tick advances the run by dt real milliseconds and draws.
   * @param {number} dt
   * @returns {Promise<void>}
   */
  async tick(dt) {}

  /**
   * simNs returns the run's simulated time in nanoseconds, as far as the
   * page knows it: the time a run of Yours had reached when a call hung.
   * @returns {number}
   */
  simNs() {
    return 0;
  }

  /**
   * serial queues op after the operations on runs already queued and
   * returns when it has run. Its errors end at runFailed.
   * @param {() => Promise<void> | void} op
   * @returns {Promise<void>}
   */
  serial(op) {
    this.queued++;
    this.wake();
    const p = this.chain.then(() => {
      this.opStarted = performance.now();
      return op();
    }).catch((err) => this.runFailed(err)).finally(() => {
      this.queued--;
      if (this.readyDot.textContent === WAITING) this.readyDot.textContent = this.dotBefore;
    });
    this.chain = p;
    return p;
  }

  /**
   * runFailed handles what a run's call threw: nothing for a run freed
   * meanwhile; a new run for one whose worker was replaced (another run
   * hung, or a new build came); the stop for one that hung or whose worker
   * could not start; a new run once the build comes for one asked for
   * while the learner's code is being built (class mode); anything else
   * is reported as an uncaught error, and stops a run of Yours.
   * @param {unknown} err
   */
  runFailed(err) {
    if (err instanceof Freed) return;
    if (err instanceof Lost) {
      if (this.cfg && this.cfg.impl === "yours") this.restart();
      return;
    }
    if (err instanceof Hung) {
      this.hung("Your code (" + this.yoursCode() + ") did not return within " + DEADLINE_MS / 1000 + " s at t = " +
        formatSimSeconds(this.simNs()) + " s: an endless loop?");
      return;
    }
    if (err instanceof NoStart) {
      this.stop(err.message);
      return;
    }
    if (err instanceof Building) {
      this.building(err.ready);
      return;
    }
    reportError(err);
    // Not again every frame: a run of Yours that throws (its Go program
    // ended, say) stops.
    if (this.cfg && this.cfg.impl === "yours" && this.sim) this.stop("Yours failed: " + (err instanceof Error ? err.message : String(err)));
  }

  /**
   * yoursCode names, for the learner, the code of theirs a run of Yours
   * calls: the folder and its methods, e.g. "exercises/gateway: Gateway.Open,
   * Admit, Reload" (this.code, which each visualization sets; one whose
   * code depends on its settings overrides this). The worker cannot tell
   * which call hung, only that the run's batch did not return.
   * @returns {string}
   */
  yoursCode() {
    return this.code;
  }

  /**
   * building says that Yours waits for the server to build the learner's
   * code (class mode), and makes the run once it is built if Yours is
   * still chosen then.
   * @param {Promise<void>} ready
   */
  building(ready) {
    this.status.textContent = "Yours: waiting for your code's build…";
    this.showError("");
    this.showDot("waiting"); // no run: the figures are the last run's
    ready.then(() => { if (this.cfg && this.cfg.impl === "yours") this.restart(); });
  }

  /**
   * hung handles a run of Yours that did not return in time, saying why:
   * it stops the run. A visualization whose run shows the lab's own code
   * beside the learner's may override it to go on with the lab's.
   * @param {string} why
   */
  hung(why) {
    this.stop(why);
  }

  /**
   * stop stops the run of Yours, which hung or could not start, saying
   * why: the visualization no longer steps it, and Pause and Step are
   * disabled until a setting or Restart makes a new run.
   * @param {string} why
   */
  stop(why) {
    if (this.sim) { freeRun(this.sim); this.sim = null; }
    this.halted = true;
    this.status.textContent = "Yours: stopped";
    this.status.classList.add("viz-bad");
    this.showError(why);
    this.runControls(false);
    this.showDot("stopped");
  }

  /**
   * swap makes the visualization's next runs with api, a newer build of
   * lab.wasm ("Yours" rebuilt after a save); a run of "Yours" restarts on
   * it now, one of the reference goes on.
   * @param {lab.API} api
   */
  swap(api) {
    if (!this.api) return; // not started yet: start will get it
    this.api = api;
    if (this.cfg && this.cfg.impl === "yours") this.restart();
  }

  /**
   * start runs once lab.wasm has started.
   * @param {lab.API} api
   */
  start(api) {
    this.api = api;
    this.begin();
  }

  /**
   * begin runs once the API is there: the colours, the first run, the
   * frame loop; the colours again when the colour scheme changes.
   */
  begin() {
    this.unlock();
    this.readColors();
    // A new size (a window or phone turned, a lane shown) needs a redraw
    // even while nothing else changes. Taking the mount off the page
    // resizes it to nothing, which wakes a sleeping loop to free the run.
    new ResizeObserver(() => this.invalidate()).observe(this.el);
    this.restart();
    if (window.matchMedia) {
      const mq = window.matchMedia("(prefers-color-scheme: dark)");
      if (mq.addEventListener) mq.addEventListener("change", () => this.readColors());
    }
    requestAnimationFrame((t) => this.frame(t));
  }

  /**
   * frame queues a tick, unless an operation on the run is still under
   * way: then the next frame advances by the real time since this one's,
   * and after SLOW_MS the ready dot says the page is waiting for Yours (a
   * run of the reference answers within the frame).
   *
   * Once the first frame is drawn, while the run is idle (paused, say) and
   * nothing changed, the loop sleeps: it asks for no more frames, which
   * would each cost the browser a frame's work to draw nothing new, until
   * invalidate or an operation on the run (Step, Restart, a setting) wakes
   * it.
   * @param {number} ts
   */
  frame(ts) {
    if (!this.root.isConnected) { if (this.sim) freeRun(this.sim); return; }
    if (this.queued > 0 && performance.now() - this.opStarted > SLOW_MS && this.readyDot.textContent !== WAITING) {
      this.dotBefore = this.readyDot.textContent || "";
      this.readyDot.textContent = WAITING;
    }
    if (this.ready && this.queued === 0 && !this.changed && this.idle()) {
      this.sleeping = true;
      this.lastFrame = 0; // the frame that wakes it advances by one frame's time, not the sleep's
      return;
    }
    if (this.sim && this.queued === 0) {
      const dt = this.lastFrame ? Math.min(ts - this.lastFrame, this.maxDtMs) : 1000 / 60;
      this.lastFrame = ts;
      this.serial(async () => {
        await this.tick(dt);
        if (!this.ready) this.markReady();
      });
    }
    requestAnimationFrame((t) => this.frame(t));
  }

  /**
   * markReady says the first frame is drawn: data-testid viz-ready on the
   * ready dot, data-viz-ready on the mount, and, for the page's first
   * visualization to draw, the performance mark FIRST_FRAME (what
   * internal/browsertest's TestPageWeight times from navigation start).
   */
  markReady() {
    if (performance.getEntriesByName(FIRST_FRAME, "mark").length === 0) performance.mark(FIRST_FRAME);
    this.ready = true;
    if (this.readyDot.textContent === LOADING) this.showDot("live");
    this.readyDot.setAttribute("data-testid", "viz-ready");
    this.root.setAttribute("data-viz-ready", "");
    for (const f of this.fallbacks()) f.hidden = true;
  }

  /** @param {unknown} err */
  fail(err) {
    const msg = String(err instanceof Error ? err.message : err);
    this.status.textContent = "The visualization could not start.";
    this.showError(msg);
    for (const f of this.fallbacks()) f.textContent = "The live visualization could not start: " + msg;
  }

  /** fallbacks returns the mount's fallback lines, which say what is happening until it runs. */
  fallbacks() {
    return /** @type {NodeListOf<HTMLElement>} */ (this.root.querySelectorAll("[data-viz-fallback]"));
  }
}

// ---- mounting ----------------------------------------------------------------------

/** @typedef {Viz<{free(): void}>} AnyViz */
/** @typedef {new (root: HTMLElement) => AnyViz} VizClass */
/** @typedef {{mount(root: HTMLElement): AnyViz, mountAll(): void}} Kind */

/** @type {Map<string, Kind>} kind: its mount functions */
const kinds = new Map();

/** @type {WeakMap<Element, AnyViz>} the visualization mounted into each element */
const mounted = new WeakMap();
/** @type {Set<AnyViz>} every visualization mounted on the page */
const every = new Set();

/**
 * register makes the visualization kind mount into every
 * <div data-viz="kind"> once the document is parsed, linking kind.css from
 * this folder. new VizClass(root) builds one into root; its start(api) runs
 * once lab.wasm has started, its fail(err) if it could not. It returns that
 * kind's {mount, mountAll}.
 * @param {string} kind
 * @param {VizClass} VizClass
 * @returns {Kind}
 */
export function register(kind, VizClass) {
  /** @param {HTMLElement} root */
  function mount(root) {
    const had = mounted.get(root);
    if (had) return had;
    const viz = new VizClass(root);
    viz.lock();
    mounted.set(root, viz);
    every.add(viz);
    const wasm = root.getAttribute("data-wasm") || "/static/lab.wasm";
    const exec = root.getAttribute("data-wasm-exec") || "/static/wasm_exec.js";
    const yours = root.getAttribute("data-yours-wasm") || "/static/lab.wasm";
    loadWasm(wasm, exec, yours).then((api) => viz.start(api), (err) => viz.fail(err));
    return viz;
  }

  function mountAll() {
    ensureCSS(new URL(kind + ".css", import.meta.url).href);
    for (const el of document.querySelectorAll('[data-viz="' + kind + '"]')) mount(/** @type {HTMLElement} */ (el));
  }

  const k = { mount, mountAll };
  kinds.set(kind, k);
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", mountAll);
  else mountAll();
  return k;
}

/**
 * mount mounts root by its data-viz, once that kind's module has run.
 * @param {HTMLElement} root
 * @returns {AnyViz | null}
 */
export function mount(root) {
  const k = kinds.get(root.getAttribute("data-viz") || "");
  return k ? k.mount(root) : null;
}

/** mountAll mounts every visualization of a kind whose module has run. */
export function mountAll() {
  for (const k of kinds.values()) k.mountAll();
}
