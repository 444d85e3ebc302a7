// @ts-check
// ratelab: the operator's console (week 5).
//
// Mounts into every <div data-viz="throttle"> on the page. One throttle
// gate (the throttle exercise: the reference, or yours) in front of four
// addresses' writes, run by lab/throttle through the lab's WebAssembly
// build: a regular address, a whitelisted issuer, an issuer with a limit of
// its own, a heavy one. The operator pauses, degrades and restores the gate
// on the preset's script or with the console's buttons; a keeper runs
// AdjustCongestion every second. Every write is a mark on its address's
// lane, coloured by what decided it; the breaker's state and the global
// MaxCalls, as congestion moves it, run along the same time axis; the
// gate's Status at the time reached is the dashboard beside it.
//
// Each animation frame makes one step call that fills a typed array, and
// every call on the run (step, act, info, free) is awaited: a run of Yours
// may answer with promises (from a Web Worker). The operator's buttons are
// queued and applied at the start of the next frame, at the virtual time
// reached: Go decides everything; this file only shows what happened.
//
// Attributes of the mount element, all optional:
//   data-preset     "busy-day" (default), "degraded-low",
//                   "whitelisted-degraded" or "auto-recovery"
//   data-wasm       URL of the build the reference runs from: the week's (default /static/lab.wasm)
//   data-yours-wasm URL of the build Yours runs from (default /static/lab.wasm)
//   data-wasm-exec  URL of wasm_exec.js (default /static/wasm_exec.js)
//
// A native ES module, no build step.

import { describe, grouped as int, h, helpers, register, select, setOptions, sizeCanvas, staleHint, stoppedNote, Viz, writeHint } from "./common.js";

const { field, figure, key } = helpers("rtv");

const MAX_DT_MS = 250; // a frame never advances more than this much real time
const SPEEDS = ["0.5", "1", "2", "4", "10"]; // virtual seconds per real second
const LOG_LINES = 8; // decisions listed under the timeline

// Numbered as lab/throttle's.
const ACCEPTED = 0, PAUSED = 1, DEGRADED_CAP = 2, RATE_LIMIT = 3, OTHER = 4;
const OUTCOME_IDS = ["accepted", "paused", "degraded", "rate", "other"];
const NORMAL = 0, DEGRADED = 1, PAUSE = 2;
const STATE_IDS = ["normal", "degraded", "paused"];
const HIGH = 2;
const LEVEL_IDS = ["low", "normal", "high"];

/** @type {import("./common.js").ColorVars} */
const COLORS = {
  accepted: "--rtv-accepted",
  paused: "--rtv-paused",
  degraded: "--rtv-degraded",
  rate: "--rtv-rate",
  other: "--rtv-other",
  stNormal: "--rtv-st-normal",
  stDegraded: "--rtv-st-degraded",
  stPaused: "--rtv-st-paused",
  low: "--rtv-low",
  high: "--rtv-high",
  max: "--rtv-max",
  grid: "--rtv-grid",
  future: "--rtv-future",
  bad: "--viz-bad",
};

/**
 * sec writes a virtual time in seconds, to the millisecond without
 * trailing zeros: 3200000000 is "3.2 s".
 * @param {number} ns
 */
function sec(ns) { return String(+(ns / 1e9).toFixed(3)) + " s"; }

/**
 * exact writes a virtual time in seconds to the nanosecond.
 * @param {number} ns
 */
function exact(ns) { return (ns / 1e9).toFixed(9) + " s"; }

/** @param {lab.ThrottleRate} r */
function rateText(r) { return r.maxCalls + " per " + sec(r.windowNs); }

/**
 * @typedef {object} Ev one event, decoded
 * @property {number} at ns
 * @property {number} kind
 * @property {number} addr
 * @property {number} outcome
 * @property {number} state the breaker's state just before
 * @property {number} level the congestion level just before
 * @property {number} max the global MaxCalls just before
 * @property {number} degWrites DegradedWrites just before
 * @property {number} limit the limit in force for the address (0: whitelisted)
 * @property {number} used its accepted writes in that limit's window before the call
 * @property {number} aState
 * @property {number} aLevel
 * @property {number} aMax
 * @property {number} recoverAt
 * @property {number} since
 * @property {number} lastSeen
 */

/**
 * @typedef {object} Period one Degraded or Paused period
 * @property {number} state
 * @property {number} start ns
 * @property {number} recoverAt ns, 0: none pending
 * @property {number} end ns, -1 while it goes on
 * @property {number} lastSeen the last instant the gate was seen in it, for one that ended by itself
 * @property {string} ended "", "ttl" or "operator"
 */

/**
 * @typedef {object} RunState what the run has done so far
 * @property {Ev[]} events
 * @property {number[]} counts Counts[addr][outcome] at addr*5 + outcome
 * @property {number[][]} byState decisions by the state at the call: [state][outcome]
 * @property {number[][]} byLevel decisions by the level at the call: [level][outcome]
 * @property {number} highMoved refusals while High by the rate limit at a global MaxCalls congestion had moved
 * @property {number} highRate refusals while High by the rate limit, under the global limit
 * @property {Period[]} periods
 * @property {{at: number, state: number}[]} states the breaker's state from each instant on
 * @property {{at: number, level: number, max: number}[]} levels the level and MaxCalls from each instant on
 * @property {Float64Array | null} status the gate's Status at now, StatusFields values, or null
 * @property {boolean} stopped
 */

/** @returns {RunState} */
function newRunState() {
  const m = () => [0, 1, 2].map(() => [0, 0, 0, 0, 0]);
  return {
    events: [], counts: [], byState: m(), byLevel: m(), highMoved: 0, highRate: 0,
    periods: [], states: [{ at: 0, state: NORMAL }], levels: [], status: null, stopped: false,
  };
}

// ---- one visualization ---------------------------------------------------------

/** @extends {Viz<lab.ThrottleSim>} */
class ThrottleViz extends Viz {
  /** @param {HTMLElement} root */
  constructor(root) {
    super(root, COLORS, MAX_DT_MS);
    this.code = "exercises/throttle: the Gate's methods";
    /** @type {lab.ThrottleSimConfig} */
    this.cfg = { impl: "reference", preset: root.getAttribute("data-preset") || "", seed: 1 };
    this.speed = 1;
    this.held = false;
    this.tNs = 0;
    this.done = false;
    /** @type {lab.ThrottleInfo | null} */
    this.info = null;
    /** @type {lab.ThrottlePreset | null} */
    this.preset = null;
    this.st = newRunState();
    /** @type {string[]} the operator's buttons pressed since the last frame, applied at its start */
    this.acts = [];
    this.drawnWidth = 0;
    /** events Go has decided and not yet handed over */
    this.pending = 0;
    /** @type {Record<string, import("./common.js").Figure>} */
    this.figs = {};
    /** @type {Record<string, HTMLElement>} the dashboard's values by data-testid */
    this.dashValues = {};
    this.ui = this.build();
  }

  build() {
    const ui = {
      preset: select("preset", [], ""), // its options come with lab.wasm
      impl: select("impl", [["reference", "Reference"], ["yours", "Yours"]], "reference"),
      speed: select("speed", SPEEDS.map((s) => /** @type {[string, string]} */ ([s, s + "× real time"])), String(this.speed)),
      hold: h("button", { type: "button", "data-testid": "hold", "aria-pressed": "false", text: "Hold time" }),
      restart: h("button", { type: "button", "data-testid": "restart", text: "Restart" }),
      clock: h("strong", { "data-testid": "clock", text: "t = 0 s" }),
      opPause: h("button", { type: "button", class: "rtv-op rtv-op-pause", "data-testid": "op-pause", text: "Pause" }),
      opDegrade: h("button", { type: "button", class: "rtv-op rtv-op-degrade", "data-testid": "op-degrade", text: "Degrade" }),
      opNormal: h("button", { type: "button", class: "rtv-op rtv-op-normal", "data-testid": "op-normal", text: "Normal" }),
      opNote: h("p", { class: "viz-muted", "data-testid": "op-note" }),
      story: h("p", { class: "rtv-story", "data-testid": "story" }),
      chart: h("canvas", { class: "rtv-chart", role: "img", "data-testid": "timeline",
        "aria-label": "Timeline of every write by address, coloured by what decided it, under the breaker's state and above the global MaxCalls and congestion level" }),
      dash: h("dl", { class: "rtv-dash-list" }),
      addrs: h("tbody"),
      byState: h("tbody"),
      byLevel: h("tbody"),
      periods: h("tbody"),
      periodNote: h("p", { class: "viz-muted", "data-testid": "period-note" }),
      log: h("ol", { class: "rtv-log", "data-testid": "log", "aria-label": "The latest decisions, newest first" }),
      verdict: h("p", { class: "rtv-verdict", "data-testid": "verdict", "aria-live": "polite" }),
    };
    this.figs = {
      unattributed: figure("unattributed", "Refusals by no rule", "an error that is none of the three"),
      pausedPassed: figure("paused-passed", "Accepted while Paused", "the pause is for everyone"),
      whiteCapped: figure("white-capped", "Whitelisted at the cap", "refused by the degraded cap"),
      highMoved: figure("high-moved", "High: rate-limit refusals", "at a MaxCalls congestion moved"),
    };
    for (const [id, label] of [
      ["status-state", "State"], ["status-recover", "Recovers at"], ["status-degraded", "Degraded writes"],
      ["status-max", "Global MaxCalls"], ["status-level", "Congestion"], ["status-congestion", "Congestion config"],
    ]) {
      const dd = h("dd", { "data-testid": id, text: "–" });
      this.dashValues[id] = dd;
      ui.dash.append(h("dt", { text: label }), dd);
    }
    const controls = h("form", { class: "viz-controls", "aria-label": "Console settings" }, [
      field("Preset", ui.preset),
      field("Gate: code", ui.impl),
      field("Speed", ui.speed),
      h("div", { class: "viz-buttons" }, [ui.hold, ui.restart]),
    ]);
    controls.addEventListener("submit", (e) => e.preventDefault());
    const statusLine = h("div", { class: "viz-statusline" }, [this.status, ui.clock, this.readyDot]);
    const console_ = h("section", { class: "rtv-console", "aria-label": "The operator's switch" }, [
      h("p", { class: "rtv-console-head", text: "Operator" }),
      h("div", { class: "rtv-ops" }, [ui.opPause, ui.opDegrade, ui.opNormal]),
      ui.opNote,
    ]);
    const legend = h("p", { class: "viz-legend" }, [
      key("accepted", "accepted"), key("paused", "refused: paused"), key("degraded", "refused: degraded cap"),
      key("rate", "refused: rate limit"), key("other", "refused by no rule"),
      key("max", "global MaxCalls"), key("high", "congestion High"), key("low", "congestion Low"),
    ]);
    const dashboard = h("section", { class: "rtv-dash", "data-testid": "dashboard", "aria-label": "Status, as the gate reports it now" }, [
      h("p", { class: "rtv-dash-head" }, ["Status(", h("span", { "data-testid": "status-at", text: "0 s" }), ")"]),
      ui.dash,
    ]);
    const addrTable = h("table", { class: "rtv-table", "data-testid": "addresses" }, [
      h("caption", { text: "The addresses and what decided their writes" }),
      h("thead", {}, [h("tr", {}, [
        h("th", { scope: "col", text: "address" }), h("th", { scope: "col", text: "rate limit" }),
        h("th", { scope: "col", text: "accepted" }), h("th", { scope: "col", text: "paused" }),
        h("th", { scope: "col", text: "degraded cap" }), h("th", { scope: "col", text: "rate limit" }), h("th", { scope: "col", text: "no rule" }),
      ])]),
      ui.addrs,
    ]);
    /**
     * @param {string} caption
     * @param {string} testid
     * @param {string} first
     * @param {HTMLTableSectionElement} body
     */
    const matrix = (caption, testid, first, body) => h("table", { class: "rtv-table rtv-matrix", "data-testid": testid }, [
      h("caption", { text: caption }),
      h("thead", {}, [h("tr", {}, [first, "accepted", "paused", "degraded cap", "rate limit", "no rule"].map((t) => h("th", { scope: "col", text: t })))]),
      body,
    ]);
    const periodTable = h("table", { class: "rtv-table", "data-testid": "periods" }, [
      h("caption", { text: "Degraded and Paused periods" }),
      h("thead", {}, [h("tr", {}, ["state", "began", "recovery due", "ended", "by", "last seen in it"].map((t) => h("th", { scope: "col", text: t })))]),
      ui.periods,
    ]);
    this.el = h("div", { class: "viz-frame rtv" }, [
      controls, statusLine, ui.story, this.error,
      legend, ui.chart,
      h("div", { class: "rtv-main" }, [console_, dashboard]),
      h("div", { class: "rtv-figs" }, [this.figs.unattributed.box, this.figs.pausedPassed.box, this.figs.whiteCapped.box, this.figs.highMoved.box]),
      ui.verdict,
      h("div", { class: "rtv-details" }, [
        h("div", { class: "rtv-scroll scroll-cue", role: "region", "aria-label": "Addresses", tabindex: "0" }, [addrTable]),
        h("div", { class: "rtv-scroll scroll-cue", role: "region", "aria-label": "Periods", tabindex: "0" }, [periodTable, ui.periodNote]),
        h("div", { class: "rtv-scroll scroll-cue", role: "region", "aria-label": "Decisions by state", tabindex: "0" }, [matrix("Decisions by the state at the call", "by-state", "state", ui.byState)]),
        h("div", { class: "rtv-scroll scroll-cue", role: "region", "aria-label": "Decisions by congestion level", tabindex: "0" }, [matrix("Decisions by the congestion level at the call", "by-level", "level", ui.byLevel)]),
      ]),
      h("div", { class: "rtv-logbox" }, [h("p", { class: "rtv-loghead", text: "Latest decisions" }), ui.log]),
    ]);
    this.root.appendChild(this.el);
    this.buildMatrix(ui.byState, "state", ["Normal", "Degraded", "Paused"]);
    this.buildMatrix(ui.byLevel, "level", ["Low", "Normal", "High"]);

    ui.preset.addEventListener("change", () => { this.cfg.preset = ui.preset.value; this.restart(); });
    ui.impl.addEventListener("change", () => { this.cfg.impl = ui.impl.value; this.restart(); });
    ui.speed.addEventListener("change", () => { this.speed = Number(ui.speed.value) || 1; });
    ui.hold.addEventListener("click", () => this.setHeld(!this.held));
    ui.restart.addEventListener("click", () => this.restart());
    ui.opPause.addEventListener("click", () => this.press("paused"));
    ui.opDegrade.addEventListener("click", () => this.press("degraded"));
    ui.opNormal.addEventListener("click", () => this.press("normal"));
    return ui;
  }

  /**
   * buildMatrix makes the rows of a decisions table: one per row name,
   * with a cell per outcome, data-testid "<prefix>-<row>-<outcome>".
   * @param {HTMLTableSectionElement} body
   * @param {string} prefix
   * @param {string[]} rows
   */
  buildMatrix(body, prefix, rows) {
    const ids = prefix === "state" ? STATE_IDS : LEVEL_IDS;
    rows.forEach((name, i) => {
      const tr = h("tr", {}, [h("th", { scope: "row", text: name })]);
      for (const o of OUTCOME_IDS) tr.appendChild(h("td", { "data-testid": prefix + "-" + ids[i] + "-" + o, text: "0" }));
      body.appendChild(tr);
    });
  }

  /**
   * press queues one of the operator's buttons: the next frame applies it
   * at the virtual time reached.
   * @param {string} state
   */
  press(state) {
    if (!this.sim || this.done) return;
    this.acts.push(state);
  }

  /** @param {boolean} held */
  setHeld(held) {
    this.held = held;
    this.ui.hold.textContent = held ? "Resume time" : "Hold time";
    this.ui.hold.setAttribute("aria-pressed", held ? "true" : "false");
    this.showDot(held ? "held" : this.done ? "done" : "live");
  }

  /** simNs is the virtual time reached. */
  simNs() { return this.tNs; }

  async makeRun() {
    const api = this.api, make = api && api.newThrottleSim, O = api && api.throttle;
    if (!make || !O) {
      if (api) this.showError(staleHint("the operator's console"));
      return;
    }
    if (!this.ui.preset.options.length) {
      setOptions(this.ui.preset, O.presets.map((p) => /** @type {[string, string]} */ ([p.name, p.title])), this.cfg.preset || O.presets[0].name);
      this.cfg.preset = this.ui.preset.value || O.presets[0].name; // a preset lab.wasm does not know starts on its first
    }
    const s = await this.newRun(() => /** @type {any} */ (make)(this.cfg), "Cannot run: ");
    if (!s) return;
    this.batchRoom(O.bytes);
    this.tNs = 0;
    this.done = false;
    this.acts = [];
    this.st = newRunState();
    this.preset = O.presets.find((p) => p.name === this.cfg.preset) || O.presets[0];
    const P = this.preset;
    this.st.levels = [{ at: 0, level: 1, max: P.rate.maxCalls }];
    this.ui.log.textContent = "";
    this.ui.periods.textContent = "";
    this.describePreset();
    this.info = await s.info();
    this.showInfo();
    this.setHeld(this.held);
    await this.advance(s, 0);
  }

  describePreset() {
    const P = this.preset;
    if (!P) return;
    const b = P.breaker, c = P.congestion;
    const who = P.addresses.map((a) => a.name + " (" + a.addr + ", " + (a.whitelisted ? "whitelisted" : a.override ? "own limit " + rateText(a.override) : "global limit") + ")").join(", ");
    const script = P.script.map((a) => (STATE_IDS[a.set] || "?") + " at " + sec(a.atNs)).join(", ");
    this.ui.story.textContent = P.title + ". Four addresses write: " + who + ". Global limit " + rateText(P.rate) +
      "; the keeper runs AdjustCongestion every " + sec(P.keeperEveryNs) + " (Low below " + c.lowBelow + " accepted writes in " + sec(c.windowNs) +
      ", High above " + c.highAbove + "; −" + c.reduceBps / 100 + "% on High, +" + c.increaseBps / 100 + "% on Low, kept in [" + c.minMaxCalls + ", " + c.maxMaxCalls +
      "]). The operator's script: " + (script || "nothing") + "; degraded cap " + b.degradedWriteLimit + " writes a period.";
    const ttl = b.autoRecover ? "recovers by itself after " + sec(b.ttlNs) : "until Normal";
    this.ui.opDegrade.textContent = "Degrade (" + (b.autoRecover ? "TTL " + sec(b.ttlNs) : "no TTL") + ")";
    this.ui.opPause.textContent = "Pause (" + (b.autoRecover ? "TTL " + sec(b.ttlNs) : "no TTL") + ")";
    this.ui.opNote.textContent = "SetState at the time reached. Degraded or Paused " + ttl + "; Normal ends it.";
  }

  showInfo() {
    const info = this.info;
    if (!info) return;
    let status = "Gate: " + info.implStatus;
    if (info.stopped && info.status === "not implemented yet") {
      status = "Gate: " + info.impl + ": not implemented yet. " + writeHint("throttle");
    }
    this.status.textContent = status;
    this.status.classList.toggle("viz-bad", info.stopped);
    for (const b of [this.ui.opPause, this.ui.opDegrade, this.ui.opNormal]) b.disabled = info.stopped || this.done;
  }

  /**
   * tick applies the buttons pressed, advances the run by dt real
   * milliseconds and draws.
   * @param {number} dt
   */
  async tick(dt) {
    const s = this.sim;
    if (!s) return;
    await this.tickRun(s, dt);
  }

  /**
   * @param {lab.ThrottleSim} s
   * @param {number} dt
   */
  async tickRun(s, dt) {
    while (this.acts.length > 0) {
      const a = /** @type {string} */ (this.acts.shift());
      await s.act(a);
    }
    if (!this.held && !this.done) await this.advance(s, dt * this.speed * 1e6);
    else if (this.ui.chart.clientWidth !== this.drawnWidth) this.draw();
    else if (this.st.events.length > 0 && this.pending > 0) await this.advance(s, 0);
  }

  /**
   * advance moves virtual time by dNs, takes the events Go decided up to
   * there (one step call) and shows them.
   * @param {lab.ThrottleSim} s
   * @param {number} dNs
   */
  async advance(s, dNs) {
    const O = this.api && this.api.throttle;
    if (!O || this.sim !== s) return;
    const L = O.layout, P = this.preset;
    const target = Math.min(this.tNs + dNs, P ? P.durationNs : Infinity);
    const len = await s.step(target, this.bytes);
    if (this.sim !== s) return; // restarted meanwhile
    const v = this.floats;
    if (len < 8 * L.header) return;
    this.tNs = v[L.now];
    this.done = v[L.done] === 1;
    this.pending = v[L.pending];
    const st = this.st;
    st.stopped = v[L.stopped] === 1;
    st.status = v[L.statusOK] === 1 ? v.slice(L.status, L.status + (L.counts - L.status)) : null;
    st.counts = Array.from(v.subarray(L.counts, L.header));
    const n = v[L.events];
    for (let i = 0; i < n; i++) {
      const o = L.header + i * L.eventFields;
      this.take({
        at: v[o + L.at], kind: v[o + L.kind], addr: v[o + L.addr], outcome: v[o + L.outcome],
        state: v[o + L.state], level: v[o + L.level], max: v[o + L.maxCalls], degWrites: v[o + L.degradedWrites],
        limit: v[o + L.limit], used: v[o + L.used], aState: v[o + L.afterState], aLevel: v[o + L.afterLevel],
        aMax: v[o + L.afterMaxCalls], recoverAt: v[o + L.recoverAt], since: v[o + L.since], lastSeen: v[o + L.lastSeen],
      });
    }
    this.info = await s.info();
    if (this.sim !== s) return;
    this.showInfo();
    if (this.done && !this.held) this.showDot("done");
    this.show();
    this.draw();
  }

  /**
   * take records one event.
   * @param {Ev} e
   */
  take(e) {
    const O = this.api && this.api.throttle, P = this.preset;
    if (!O || !P) return;
    const L = O.layout, st = this.st;
    st.events.push(e);
    if (e.kind === L.kindWrite) {
      const o = Math.min(e.outcome, OTHER);
      if (st.byState[e.state]) st.byState[e.state][o]++;
      if (st.byLevel[e.level]) st.byLevel[e.level][o]++;
      const a = P.addresses[e.addr];
      if (e.level === HIGH && e.outcome === RATE_LIMIT && a && !a.whitelisted && !a.override) {
        st.highRate++;
        if (e.limit === e.max && e.max !== P.rate.maxCalls) st.highMoved++;
      }
      if (e.outcome !== ACCEPTED) this.log(e);
    } else if (e.kind === L.kindKeeper) {
      const last = st.levels[st.levels.length - 1];
      if (e.aLevel !== last.level || e.aMax !== last.max) {
        st.levels.push({ at: e.at, level: e.aLevel, max: e.aMax });
        this.log(e);
      }
    } else if (e.kind === L.kindOperator) {
      st.states.push({ at: e.at, state: e.aState });
      const open = st.periods.find((p) => p.end < 0);
      if (open) { open.end = e.at; open.ended = "operator"; }
      if (e.aState !== NORMAL) st.periods.push({ state: e.aState, start: e.at, recoverAt: e.recoverAt, end: -1, lastSeen: -1, ended: "" });
      this.log(e);
    } else if (e.kind === L.kindRecovered) {
      st.states.push({ at: e.at, state: NORMAL });
      const open = st.periods.find((p) => p.end < 0);
      if (open) { open.end = e.at; open.ended = "ttl"; open.lastSeen = e.lastSeen; }
      this.log(e);
    }
  }

  /**
   * log puts one decision at the top of the list, with its figures as
   * data attributes.
   * @param {Ev} e
   */
  log(e) {
    const O = this.api && this.api.throttle, P = this.preset;
    if (!O || !P) return;
    const L = O.layout;
    const li = h("li", { "data-at": String(e.at) });
    const stateName = (/** @type {number} */ s) => (O.states[s] || "state " + s);
    if (e.kind === L.kindWrite) {
      const a = P.addresses[e.addr];
      Object.assign(li.dataset, {
        kind: "write", addr: String(e.addr), outcome: OUTCOME_IDS[e.outcome] || "other", state: STATE_IDS[e.state] || String(e.state),
        level: LEVEL_IDS[e.level] || String(e.level), max: String(e.max), limit: String(e.limit), used: String(e.used),
      });
      const limit = e.limit === 0 ? "whitelisted" : e.used + " of " + e.limit + " in its window";
      li.className = "rtv-l-" + (OUTCOME_IDS[e.outcome] || "other");
      li.textContent = sec(e.at) + " · " + (a ? a.name : "address " + e.addr) + ": " + (O.outcomes[e.outcome] || "outcome " + e.outcome) +
        " (" + stateName(e.state) + ", " + (O.levels[e.level] || "?") + " load, MaxCalls " + e.max + "; " + limit + ")";
    } else if (e.kind === L.kindKeeper) {
      Object.assign(li.dataset, { kind: "keeper", level: LEVEL_IDS[e.aLevel] || String(e.aLevel), max: String(e.aMax), before: String(e.max) });
      li.className = "rtv-l-keeper";
      li.textContent = sec(e.at) + " · keeper: congestion " + (O.levels[e.level] || "?") + " → " + (O.levels[e.aLevel] || "?") +
        (e.aMax !== e.max ? ", MaxCalls " + e.max + " → " + e.aMax : ", MaxCalls stays " + e.aMax);
    } else if (e.kind === L.kindOperator) {
      Object.assign(li.dataset, { kind: "operator", state: STATE_IDS[e.aState] || String(e.aState), recoverAt: String(e.recoverAt) });
      li.className = "rtv-l-operator";
      li.textContent = sec(e.at) + " · operator: " + stateName(e.state) + " → " + stateName(e.aState) + (e.recoverAt ? ", recovers at " + sec(e.recoverAt) : "");
    } else {
      Object.assign(li.dataset, { kind: "recovered", since: String(e.since), lastSeen: String(e.lastSeen) });
      li.className = "rtv-l-recovered";
      li.textContent = exact(e.at) + " · recovered by itself: " + stateName(e.state) + " since " + sec(e.since) + " is Normal (still " + stateName(e.state) + " at " + exact(e.lastSeen) + ")";
    }
    this.ui.log.insertBefore(li, this.ui.log.firstChild);
    while (this.ui.log.childElementCount > LOG_LINES && this.ui.log.lastChild) this.ui.log.removeChild(this.ui.log.lastChild);
  }

  /** show writes the dashboard, the figures and the tables. */
  show() {
    const O = this.api && this.api.throttle, P = this.preset;
    if (!O || !P) return;
    const L = O.layout, st = this.st, d = this.dashValues;
    this.ui.clock.textContent = "t = " + (this.tNs / 1e9).toFixed(1) + " s";
    const sv = st.status;
    const statusAt = /** @type {HTMLElement | null} */ (this.el.querySelector('[data-testid="status-at"]'));
    if (statusAt) statusAt.textContent = sec(this.tNs);
    const dash = /** @type {HTMLElement | null} */ (this.el.querySelector(".rtv-dash"));
    if (!sv) {
      for (const k in d) d[k].textContent = "–";
      if (dash) dash.dataset.state = "";
    } else {
      const S = (/** @type {number} */ k) => sv[k];
      const state = S(L.stState), level = S(L.stLevel), ra = S(L.stRecoverAt);
      d["status-state"].textContent = (O.states[state] || "state " + state).replace(/^./, (c) => c.toUpperCase());
      d["status-state"].className = "rtv-badge rtv-badge-" + (STATE_IDS[state] || "other");
      if (dash) dash.dataset.state = STATE_IDS[state] || "";
      d["status-recover"].textContent = ra > 0 ? sec(ra) + " (in " + sec(Math.max(0, ra - this.tNs)) + ")" : "none pending";
      d["status-degraded"].textContent = S(L.stDegradedWrites) + " of " + S(L.stDegradedLimit) + (state === DEGRADED ? "" : " (counted while Degraded)");
      d["status-max"].textContent = S(L.stMaxCalls) + " per " + sec(S(L.stWindow)) + (S(L.stMaxCalls) !== P.rate.maxCalls ? " (configured " + P.rate.maxCalls + ")" : "");
      d["status-level"].textContent = (O.levels[level] || "?").replace(/^./, (c) => c.toUpperCase());
      d["status-level"].className = "rtv-badge rtv-badge-" + (LEVEL_IDS[level] || "other");
      d["status-congestion"].textContent = "window " + sec(S(L.stCWindow)) + "; Low < " + S(L.stLowBelow) + ", High > " + S(L.stHighAbove) +
        "; −" + S(L.stReduceBps) + " / +" + S(L.stIncreaseBps) + " bps; [" + S(L.stMinMaxCalls) + ", " + S(L.stMaxMaxCalls) + "]";
    }
    // Figures.
    const stopped = st.stopped;
    const other = st.byState.reduce((a, r) => a + r[OTHER], 0);
    this.figs.unattributed.value.textContent = stopped && st.events.length === 0 ? "–" : int(other);
    this.figs.unattributed.box.classList.toggle("rtv-hot", other > 0);
    const pausedOK = st.byState[PAUSE][ACCEPTED], pausedAll = st.byState[PAUSE].reduce((a, x) => a + x, 0);
    this.figs.pausedPassed.value.textContent = pausedAll === 0 ? "–" : int(pausedOK) + " of " + int(pausedAll);
    this.figs.pausedPassed.box.classList.toggle("rtv-hot", pausedOK > 0);
    this.figs.pausedPassed.box.classList.toggle("rtv-green", pausedAll > 0 && pausedOK === 0);
    const wi = P.addresses.findIndex((a) => a.whitelisted);
    const c = st.counts, nO = OUTCOME_IDS.length;
    const wCap = wi >= 0 ? c[wi * nO + DEGRADED_CAP] || 0 : 0;
    this.figs.whiteCapped.value.textContent = wi < 0 ? "–" : int(wCap);
    this.figs.whiteCapped.box.classList.toggle("rtv-green", wCap > 0);
    this.figs.highMoved.value.textContent = st.highRate === 0 ? "–" : int(st.highMoved) + " of " + int(st.highRate);
    this.figs.highMoved.box.classList.toggle("rtv-green", st.highRate > 0 && st.highMoved === st.highRate);
    // The addresses.
    const rows = this.ui.addrs.rows;
    P.addresses.forEach((a, i) => {
      let row = rows[i];
      if (!row) {
        row = h("tr", { "data-testid": "addr" + i });
        row.appendChild(h("th", { scope: "row" }, [h("span", { class: "rtv-addr-name", text: a.name }), " ", h("code", { text: a.addr })]));
        row.appendChild(h("td", { class: "rtv-rule", text: a.whitelisted ? "whitelisted: none" : a.override ? "own: " + rateText(a.override) : "global" }));
        for (const o of OUTCOME_IDS) row.appendChild(h("td", { "data-testid": "addr" + i + "-" + o }));
        this.ui.addrs.appendChild(row);
      }
      OUTCOME_IDS.forEach((_, o) => {
        const cell = row.cells[2 + o], x = c[i * nO + o] || 0;
        cell.textContent = int(x);
        cell.classList.toggle("rtv-zero", x === 0);
      });
    });
    // The matrices.
    for (const [prefix, ids, m] of /** @type {[string, string[], number[][]][]} */ ([["state", STATE_IDS, st.byState], ["level", LEVEL_IDS, st.byLevel]])) {
      ids.forEach((id, r) => OUTCOME_IDS.forEach((o, k) => {
        const cell = this.el.querySelector('[data-testid="' + prefix + "-" + id + "-" + o + '"]');
        if (cell) {
          cell.textContent = int(m[r][k]);
          cell.classList.toggle("rtv-zero", m[r][k] === 0);
        }
      }));
    }
    this.periodRows();
    this.verdict();
  }

  /** periodRows lists the Degraded and Paused periods. */
  periodRows() {
    const O = this.api && this.api.throttle, st = this.st;
    if (!O) return;
    const rows = this.ui.periods.rows;
    st.periods.forEach((p, i) => {
      let row = rows[i];
      if (!row) {
        row = h("tr", { "data-testid": "period" + i });
        for (let k = 0; k < 6; k++) row.appendChild(h("td"));
        this.ui.periods.appendChild(row);
      }
      Object.assign(row.dataset, {
        state: STATE_IDS[p.state] || String(p.state), start: String(p.start), recoverAt: String(p.recoverAt),
        end: String(p.end), ended: p.ended, lastSeen: String(p.lastSeen),
      });
      const cells = row.cells;
      cells[0].textContent = O.states[p.state] || "?";
      cells[1].textContent = sec(p.start);
      cells[2].textContent = p.recoverAt > 0 ? sec(p.recoverAt) : "none";
      cells[3].textContent = p.end < 0 ? "going on" : p.ended === "ttl" ? exact(p.end) : sec(p.end);
      cells[4].textContent = p.ended === "ttl" ? "its TTL" : p.ended === "operator" ? "the operator" : "–";
      cells[5].textContent = p.lastSeen >= 0 ? exact(p.lastSeen) : "–";
      cells[3].classList.toggle("rtv-good", p.ended === "ttl" && p.end === p.recoverAt);
      cells[3].classList.toggle("rtv-hot", p.ended === "ttl" && p.end !== p.recoverAt);
    });
    const ttl = st.periods.filter((p) => p.ended === "ttl");
    const exactly = ttl.filter((p) => p.end === p.recoverAt && p.lastSeen === p.end - 1).length;
    this.ui.periodNote.textContent = st.periods.length === 0 ? "No period yet." : ttl.length === 0 ? "" :
      exactly + " of " + ttl.length + " ended by their TTL at exactly the instant due, the gate still in them 1 ns before.";
  }

  /** verdict sums up what the run shows so far. */
  verdict() {
    const st = this.st, P = this.preset, info = this.info;
    if (!P) return;
    if (info && info.stopped) {
      this.ui.verdict.textContent = "Stopped: " + info.status + ".";
      return;
    }
    const refused = st.byState.reduce((a, r) => a + r[PAUSED] + r[DEGRADED_CAP] + r[RATE_LIMIT] + r[OTHER], 0);
    const other = st.byState.reduce((a, r) => a + r[OTHER], 0);
    let s = int(refused) + " writes refused so far: " + (other === 0 ? "every one by the pause, the degraded cap or the rate limit; congestion refused none by itself." :
      int(other) + " by an error that is none of the three (" + (info ? info.otherError : "") + ").");
    const pausedOK = st.byState[PAUSE][ACCEPTED];
    if (pausedOK > 0) s += " " + int(pausedOK) + " writes passed while Paused.";
    this.ui.verdict.textContent = s;
  }

  // ---- the timeline ----------------------------------------------------------------

  /**
   * geometry is where the timeline draws, for a canvas w wide.
   * @param {number} w
   */
  geometry(w) {
    const padL = w < 560 ? 76 : 126, padR = 12;
    const band = 4, bandH = 18, lane0 = band + bandH + 6, laneH = 22, gap = 4;
    const lanes = [0, 1, 2, 3].map((i) => lane0 + i * (laneH + gap));
    const maxTop = lane0 + 4 * (laneH + gap) + 8, maxH = 64;
    const axis = maxTop + maxH + 4;
    return { padL, padR, band, bandH, lanes, laneH, maxTop, maxH, axis, height: axis + 16 };
  }

  draw() {
    const O = this.api && this.api.throttle, P = this.preset;
    const chart = this.ui.chart;
    const want = this.geometry(chart.clientWidth).height + "px";
    if (chart.style.height !== want) chart.style.height = want;
    const c = sizeCanvas(chart);
    if (!c || !O || !P) return;
    const d = this.dashValues, F = this.figs;
    describe(chart, () => this.ui.clock.textContent + ": state " + d["status-state"].textContent + ", congestion " + d["status-level"].textContent +
      ", MaxCalls " + d["status-max"].textContent + "; refusals by no rule " + F.unattributed.value.textContent + ", accepted while Paused " +
      F.pausedPassed.value.textContent + ", whitelisted at the cap " + F.whiteCapped.value.textContent + ", rate-limit refusals at a moved MaxCalls " + F.highMoved.value.textContent);
    this.drawnWidth = c.w;
    const { g, w, h: H } = c, C = this.colors, L = O.layout, st = this.st;
    const G = this.geometry(w);
    g.clearRect(0, 0, w, H);
    const tMax = P.durationNs, now = Math.min(this.tNs, tMax);
    /** @param {number} t ns */
    const x = (t) => G.padL + ((w - G.padL - G.padR) * t) / tMax;
    const right = w - G.padR;
    g.font = "11px system-ui, sans-serif";
    g.textBaseline = "middle";
    g.textAlign = "right";
    // The breaker's state band.
    const stateFill = [C.stNormal, C.stDegraded, C.stPaused];
    const stateText = ["Normal", "Degraded", "Paused"];
    for (let i = 0; i < st.states.length; i++) {
      const from = st.states[i].at, to = i + 1 < st.states.length ? st.states[i + 1].at : now;
      if (to < from) continue;
      g.fillStyle = stateFill[st.states[i].state] || C.future;
      g.fillRect(x(from), G.band, x(to) - x(from), G.bandH);
      const label = stateText[st.states[i].state] || "";
      if (x(to) - x(from) > g.measureText(label).width + 8) {
        g.fillStyle = C.text;
        g.textAlign = "left";
        g.fillText(label, x(from) + 4, G.band + G.bandH / 2);
      }
    }
    g.textAlign = "right";
    g.fillStyle = C.text;
    g.fillText("breaker", G.padL - 6, G.band + G.bandH / 2);
    // Lanes.
    P.addresses.forEach((a, i) => {
      g.fillStyle = C.text;
      let name = w < 560 ? (a.whitelisted ? "whitelisted" : a.override ? "own limit" : a.name) : a.name;
      while (name.length > 3 && g.measureText(name).width > G.padL - 10) name = name.slice(0, -2) + "…";
      g.fillText(name, G.padL - 6, G.lanes[i] + G.laneH / 2);
      g.strokeStyle = C.grid;
      g.strokeRect(G.padL + 0.5, G.lanes[i] + 0.5, right - G.padL - 1, G.laneH - 1);
    });
    // The level shading and MaxCalls line.
    const c2 = P.congestion;
    const yMax = Math.max(c2.maxMaxCalls, P.rate.maxCalls) + 1;
    /** @param {number} m */
    const y = (m) => G.maxTop + G.maxH - (G.maxH * m) / yMax;
    for (let i = 0; i < st.levels.length; i++) {
      const from = st.levels[i].at, to = i + 1 < st.levels.length ? st.levels[i + 1].at : now;
      const lv = st.levels[i].level;
      if (lv === 1 || to <= from) continue;
      g.fillStyle = lv === HIGH ? C.high : C.low;
      g.fillRect(x(from), G.maxTop, x(to) - x(from), G.maxH);
    }
    g.strokeStyle = C.grid;
    g.strokeRect(G.padL + 0.5, G.maxTop + 0.5, right - G.padL - 1, G.maxH - 1);
    g.fillStyle = C.text;
    g.fillText("MaxCalls", G.padL - 6, G.maxTop + G.maxH / 2 - 7);
    g.font = "10px system-ui, sans-serif";
    g.fillText("(global)", G.padL - 6, G.maxTop + G.maxH / 2 + 7);
    for (const m of [c2.minMaxCalls, c2.maxMaxCalls]) {
      g.strokeStyle = C.grid;
      g.setLineDash([3, 3]);
      g.beginPath(); g.moveTo(G.padL, y(m) + 0.5); g.lineTo(right, y(m) + 0.5); g.stroke();
      g.setLineDash([]);
      g.textAlign = "left";
      g.fillStyle = C.text;
      g.fillText(String(m), G.padL + 3, y(m) - 6);
    }
    g.strokeStyle = C.max;
    g.lineWidth = 2;
    g.beginPath();
    st.levels.forEach((p, i) => {
      const to = i + 1 < st.levels.length ? st.levels[i + 1].at : now;
      if (i === 0) g.moveTo(x(p.at), y(p.max)); else g.lineTo(x(p.at), y(p.max));
      g.lineTo(x(to), y(p.max));
    });
    g.stroke();
    g.lineWidth = 1;
    g.fillStyle = C.max;
    g.font = "600 10px system-ui, sans-serif";
    g.textBaseline = "bottom";
    for (const p of st.levels) {
      const xl = x(p.at) + 3;
      if (xl < right - 12) g.fillText(String(p.max), xl, y(p.max) - 1);
    }
    g.textBaseline = "middle";
    // The writes.
    const colors = [C.accepted, C.paused, C.degraded, C.rate, C.other];
    const bar = Math.max(1.5, Math.min(3, (w - G.padL - G.padR) * 40e6 / tMax));
    for (const e of st.events) {
      if (e.kind === L.kindWrite) {
        g.fillStyle = colors[e.outcome] || C.other;
        const refused = e.outcome !== ACCEPTED;
        const top = G.lanes[e.addr] + (refused ? 2 : 5), hh = refused ? G.laneH - 4 : G.laneH - 10;
        g.fillRect(x(e.at) - bar / 2, top, bar, hh);
      }
    }
    // The operator's actions and recoveries.
    g.font = "600 10px system-ui, sans-serif";
    for (const e of st.events) {
      if (e.kind !== L.kindOperator && e.kind !== L.kindRecovered) continue;
      const xe = x(e.at);
      g.strokeStyle = e.kind === L.kindOperator ? C.text : C.accepted;
      g.lineWidth = 1.5;
      if (e.kind === L.kindRecovered) g.setLineDash([4, 3]);
      g.beginPath(); g.moveTo(xe, G.band); g.lineTo(xe, G.maxTop + G.maxH); g.stroke();
      g.setLineDash([]);
      g.lineWidth = 1;
    }
    // Keeper ticks on the axis, time not yet run, the axis.
    g.strokeStyle = C.text;
    for (let t = P.keeperEveryNs; t <= now; t += P.keeperEveryNs) {
      g.beginPath(); g.moveTo(x(t), G.maxTop + G.maxH); g.lineTo(x(t), G.maxTop + G.maxH + 3); g.stroke();
    }
    const xNow = x(now);
    g.fillStyle = C.future;
    g.fillRect(xNow, G.band, right - xNow, G.maxTop + G.maxH - G.band);
    g.fillStyle = C.text;
    g.textAlign = "center";
    g.textBaseline = "top";
    g.font = "11px system-ui, sans-serif";
    const tStep = w < 480 || (tMax > 12e9 && w < 640) ? 4e9 : tMax > 12e9 && w < 900 ? 2e9 : 1e9;
    for (let t = 0; t <= tMax + 1; t += tStep) {
      const label = t / 1e9 + " s", xt = x(t), half = g.measureText(label).width / 2;
      g.fillText(label, Math.min(xt, w - half - 1), G.axis);
    }
    const info = this.info;
    g.textAlign = "left";
    if (info && info.stopped) stoppedNote(g, C.bad, "gate: " + info.status, G.padL + 8, G.lanes[1] + G.laneH / 2);
  }
}

export const throttle = register("throttle", ThrottleViz);
