// @ts-check
// ratelab: the failure-driven breaker visualization (week 5).
//
// Mounts into every <div data-viz="breaker"> on the page. Clients call a
// backend that fails for a while and recovers, run by lab/breaker (through
// the lab's WebAssembly build, loaded once per page by common.js) twice on
// the same traffic: through the breaker exercise (the reference, or yours)
// and with no breaker at all. The page shows one of the two, chosen by the
// Breaker switch, without restarting: the breaker's state over time, every
// attempt in its client's lane (let through, refused, a probe, a late
// result), the half-open periods, and the load on the backend of both.
// Each animation frame asks Go for the events since the last one: one call,
// one typed array back, awaited (a run of Yours answers from a Web Worker,
// see common.js). Go decides everything; this file only shows it.
//
// Attributes of the mount element, all optional:
//   data-preset     the scenario: "outage" (default), "slow-calls", "blip"
//   data-wasm       URL of the build the reference runs from: the week's (default /static/lab.wasm)
//   data-yours-wasm URL of the build Yours runs from (default /static/lab.wasm)
//   data-wasm-exec  URL of wasm_exec.js (default /static/wasm_exec.js)
//
// A native ES module, no build step.

import { describe, grouped as int, h, helpers, register, select, setOptions, sizeCanvas, staleHint, stoppedNote, Viz, writeHint } from "./common.js";

const { field, figure, key } = helpers("rbv");

const MAX_DT_MS = 250; // a frame never advances more than this much real time
const SPEEDS = ["0.25", "0.5", "1", "2", "5", "10"]; // virtual seconds per real second
const BIN_NS = 100e6; // the load chart's bins
const LOG_MAX = 200; // lines kept in the log
const LONG_NS = 150e6; // an attempt at least this long is drawn as a bar too

// The states, numbered as lab/breaker's.
const CLOSED = 0, OPEN = 1, HALF_OPEN = 2;

/** @type {import("./common.js").ColorVars} */
const COLORS = {
  closed: "--rbv-closed",
  open: "--rbv-open",
  half: "--rbv-half",
  ok: "--rbv-ok",
  fail: "--rbv-fail",
  timeout: "--rbv-timeout",
  flight: "--rbv-flight",
  refused: "--rbv-refused",
  late: "--rbv-late",
  down: "--rbv-down",
  up: "--rbv-up",
  load: "--rbv-load",
  other: "--rbv-other",
  grid: "--rbv-grid",
  future: "--rbv-future",
  bad: "--viz-bad",
};

/** @param {number} ns */
function ms(ns) { return int(ns / 1e6) + " ms"; }

/** @param {number} ns */
function sec(ns) { return (ns / 1e9).toFixed(2) + " s"; }

/** @param {number} ns */
function secShort(ns) { return String(+(ns / 1e9).toFixed(2)) + " s"; }

/**
 * @typedef {object} Attempt one attempt let through to the backend
 * @property {number} client
 * @property {number} start ns
 * @property {number} end ns; -1 while in flight
 * @property {boolean} ok
 * @property {boolean} timeout it hung until the timeout
 * @property {boolean} probe let through in half-open
 * @property {boolean} late its result came in a later generation
 * @property {number} tr the request's try, 1 for its first
 */

/**
 * @typedef {object} HalfOpen one half-open period of the breaker
 * @property {number} at ns
 * @property {number} probes calls let through
 * @property {number} refused calls refused
 * @property {string} ended "", "closed" or "reopened"
 */

/**
 * @typedef {object} SideState what one side has done so far
 * @property {Attempt[]} attempts
 * @property {Map<string, number[]>} waiting attempts in flight by client and start
 * @property {{client: number, at: number, tr: number, state: number}[]} refused
 * @property {{at: number, state: number}[]} states the state from each instant on
 * @property {HalfOpen[]} halfOpens
 * @property {number[]} bins attempts at the backend per BIN_NS
 * @property {number[]} fields the side's fields of the last batch
 * @property {boolean} stopped
 */

/** @returns {SideState} */
function newSideState() {
  return { attempts: [], waiting: new Map(), refused: [], states: [{ at: 0, state: CLOSED }], halfOpens: [], bins: [], fields: [], stopped: false };
}

// ---- one visualization ---------------------------------------------------------

/** @extends {Viz<lab.BreakerSim>} */
class BreakerViz extends Viz {
  /** @param {HTMLElement} root */
  constructor(root) {
    super(root, COLORS, MAX_DT_MS);
    this.code = "exercises/breaker: Breaker.Allow, Done, State";
    /** @type {lab.BreakerSimConfig} */
    this.cfg = { impl: "reference", scenario: root.getAttribute("data-preset") || "outage" };
    this.speed = 1;
    this.paused = false;
    this.tNs = 0;
    this.done = false;
    this.shown = 0; // the side shown: 0 through the breaker, 1 without
    /** @type {lab.BreakerInfo | null} */
    this.info = null;
    /** @type {SideState[]} */
    this.state = [newSideState(), newSideState()];
    this.drawnWidth = 0;
    this.ui = this.build();
  }

  build() {
    const ui = {
      preset: select("preset", [], ""), // its options come with lab.wasm
      breaker: select("breaker", [["on", "On"], ["off", "Off"]], "on"),
      impl: select("impl", [["reference", "Reference"], ["yours", "Yours"]], "reference"),
      speed: select("speed", SPEEDS.map((s) => /** @type {[string, string]} */ ([s, s + "× real time"])), String(this.speed)),
      pause: h("button", { type: "button", "data-testid": "pause", "aria-pressed": "false", text: "Pause" }),
      restart: h("button", { type: "button", "data-testid": "restart", text: "Restart" }),
      clock: h("strong", { "data-testid": "clock", text: "t = 0.0 s" }),
      scenario: h("p", { class: "rbv-scenario viz-muted", "data-testid": "scenario" }),
      threshold: h("strong", { "data-testid": "threshold", text: "–" }),
      openFor: h("strong", { "data-testid": "open-for", text: "–" }),
      probes: h("strong", { "data-testid": "probes-config", text: "–" }),
      title: h("h3", { class: "rbv-title", "data-testid": "side-title", text: "Through the breaker" }),
      timeline: h("canvas", { class: "rbv-timeline", role: "img", "data-testid": "timeline",
        "aria-label": "The backend's health, the breaker's state, and every client's attempts over time" }),
      load: h("canvas", { class: "rbv-load", role: "img", "data-testid": "load-chart",
        "aria-label": "Attempts reaching the backend per second, with the breaker and without" }),
      halfOpens: h("tbody", { "data-testid": "halfopen-table" }),
      halfNote: h("p", { class: "viz-muted", "data-testid": "halfopen-note" }),
      log: h("ol", { class: "rbv-log", "data-testid": "log", "aria-label": "State changes and late results, newest first", tabindex: "0" }),
      note: h("p", { class: "rbv-note", "data-testid": "note" }),
      verdict: h("p", { class: "rbv-verdict", "data-testid": "verdict", "aria-live": "polite" }),
      tip: h("div", { class: "rbv-tip", role: "tooltip", hidden: "" }),
    };
    this.figs = {
      state: figure("state", "Breaker", ""),
      load: figure("load-down", "Load while down", ""),
      refused: figure("refused", "Refused at once", "failed fast, never sent"),
      late: figure("late", "Late results", ""),
      failed: figure("failed", "Requests failed", "of those finished"),
    };
    const controls = h("form", { class: "viz-controls", "aria-label": "Failure-driven breaker settings" }, [
      field("Scenario", ui.preset),
      field("Breaker", ui.breaker),
      field("Breaker: code", ui.impl),
      field("Speed", ui.speed),
      h("div", { class: "viz-buttons" }, [ui.pause, ui.restart]),
    ]);
    controls.addEventListener("submit", (e) => e.preventDefault());
    const statusLine = h("div", { class: "viz-statusline" }, [this.status, ui.clock, this.readyDot]);
    const config = h("p", { class: "rbv-config" }, [
      "The breaker opens after ", ui.threshold, " failures in a row, stays open ", ui.openFor,
      ", then lets ", ui.probes, " probes through: all must succeed to close it, one failure reopens it.",
    ]);
    const legend = h("p", { class: "viz-legend" }, [
      key("closed", "closed"), key("open", "open"), key("half", "half-open"),
      key("ok", "success"), key("fail", "failure"), key("timeout", "hung until the timeout"),
      key("flight", "in flight"), key("refused", "refused at once"), key("late", "late result"),
      h("span", { class: "viz-key" }, ["▾ probe · ticks: calls; bars: calls of " + LONG_NS / 1e6 + " ms or more"]),
    ]);
    const loadLegend = h("p", { class: "viz-legend" }, [
      key("load", "attempts at the backend, the side shown"), key("other", "the other side (dashed)"), key("down", "backend down"),
    ]);
    const table = h("table", { class: "rbv-table" }, [
      h("caption", { text: "Half-open periods" }),
      h("thead", {}, [h("tr", {}, [
        h("th", { scope: "col", text: "began" }), h("th", { scope: "col", text: "let through" }),
        h("th", { scope: "col", text: "refused" }), h("th", { scope: "col", text: "ended" }),
      ])]),
      ui.halfOpens,
    ]);
    const panel = h("section", { class: "rbv-panel", "data-testid": "panel" }, [
      ui.title,
      h("div", { class: "rbv-figs" }, Object.values(this.figs).map((f) => f.box)),
      ui.timeline,
      h("p", { class: "rbv-loghead", text: "Load on the backend" }),
      ui.load,
      loadLegend,
      h("div", { class: "rbv-details" }, [
        h("div", { class: "rbv-halfopens scroll-cue", role: "region", "aria-label": "Half-open periods", tabindex: "0" }, [table, ui.halfNote]),
        h("div", { class: "rbv-logbox" }, [h("p", { class: "rbv-loghead", text: "State changes and late results" }), ui.log]),
      ]),
      ui.note,
    ]);
    this.el = h("div", { class: "viz-frame rbv" }, [controls, statusLine, ui.scenario, config, this.error, legend, panel, ui.verdict, ui.tip]);
    ui.timeline.addEventListener("pointermove", (e) => this.hover(e));
    ui.timeline.addEventListener("pointerleave", () => { ui.tip.hidden = true; });
    this.root.appendChild(this.el);

    ui.preset.addEventListener("change", () => { this.cfg.scenario = ui.preset.value; this.restart(); });
    ui.impl.addEventListener("change", () => { this.cfg.impl = ui.impl.value; this.restart(); });
    ui.breaker.addEventListener("change", () => {
      this.shown = ui.breaker.value === "off" ? 1 : 0;
      this.showAll();
    });
    ui.speed.addEventListener("change", () => { this.speed = Number(ui.speed.value) || 1; });
    ui.pause.addEventListener("click", () => this.setPaused(!this.paused));
    ui.restart.addEventListener("click", () => this.restart());
    return ui;
  }

  /** @param {boolean} p */
  setPaused(p) {
    super.setPaused(p);
    this.showDot(p ? "paused" : this.done ? "done" : "live");
  }

  simNs() {
    return this.tNs;
  }

  async makeRun() {
    const api = this.api, make = api && api.newBreakerSim, C = api && api.breaker;
    if (!api || !make || !C) {
      if (api) this.showError(staleHint("the failure-driven breaker"));
      return;
    }
    // The scenarios are lab.wasm's; a preset it does not know starts on its first.
    if (!C.scenarios.some((s) => s.id === this.cfg.scenario)) this.cfg.scenario = C.scenarios[0].id;
    setOptions(this.ui.preset, C.scenarios.map((s) => /** @type {[string, string]} */ ([s.id, s.title])), this.cfg.scenario);
    const s = await this.newRun(() => make({ impl: this.cfg.impl, scenario: this.cfg.scenario }), "Cannot run: ");
    if (!s) return;
    this.batchRoom(C.bytes);
    this.tNs = 0;
    this.done = false;
    this.state = [newSideState(), newSideState()];
    this.ui.halfOpens.textContent = "";
    this.ui.log.textContent = "";
    this.ui.tip.hidden = true;
    const info = await s.info();
    if (s !== this.sim) return; // restarted meanwhile
    this.info = info;
    this.describe(info.scenario);
    this.showInfo();
    this.setPaused(this.paused);
    await this.advance(0);
  }

  /**
   * describe writes the scenario and the breaker's settings.
   * @param {lab.BreakerScenario} sc
   */
  describe(sc) {
    const perSec = (sc.clients * 1e9) / sc.everyNs;
    /** @param {{fromNs: number, toNs: number}[]} spans */
    const when = (spans) => spans.map((d) => secShort(d.fromNs) + " to " + secShort(d.toNs)).join(" and ");
    const slow = sc.slow.length ? " From " + when(sc.slow) + " every call is that slow." : "";
    const down = sc.hangPerMille >= 1000 ? "it hangs every call until a " + ms(sc.timeoutNs) + " timeout" :
      "it fails calls in " + ms(sc.failNs) + ", and " + sc.hangPerMille / 10 + "% hang until a " + ms(sc.timeoutNs) + " timeout";
    this.ui.scenario.textContent = sc.clients + " clients send " + int(perSec) + " requests a second in all; a failed attempt is tried again " +
      ms(sc.retryNs) + " later, up to " + sc.tries + " tries. The backend answers in " + ms(sc.latencyNs) + " (" +
      sc.slowPerMille / 10 + "% of calls are slow: " + ms(sc.slowNs) + ")." + slow + " It is down from " + when(sc.down) + ": " + down + ".";
    this.ui.threshold.textContent = String(sc.failureThreshold);
    this.ui.openFor.textContent = secShort(sc.openNs);
    this.ui.probes.textContent = String(sc.halfOpenProbes);
  }

  showInfo() {
    const info = this.info;
    if (!info) return;
    let status = "Breaker: " + info.implStatus;
    if (info.stopped && info.status === "not implemented yet") {
      status = "Breaker: " + info.impl + ": not implemented yet. " + writeHint("breaker");
    }
    this.status.textContent = status;
    this.status.classList.toggle("viz-bad", info.stopped);
  }

  /** @param {number} dt */
  async tick(dt) {
    if (!this.paused && !this.done) await this.advance(dt * this.speed * 1e6);
    else if (this.ui.timeline.clientWidth !== this.drawnWidth) this.draw(); // resized while still
  }

  /**
   * advance moves virtual time by dNs, takes the events Go decided up to
   * there, and shows them.
   * @param {number} dNs
   */
  async advance(dNs) {
    const C = this.api && this.api.breaker, sim = this.sim, info = this.info;
    if (!C || !sim || !info) return;
    const L = C.layout, f = this.floats;
    this.tNs = Math.min(this.tNs + dNs, info.scenario.durationNs);
    for (let guard = 0; guard < 100; guard++) {
      await sim.step(this.tNs, this.bytes);
      if (sim !== this.sim) return; // restarted meanwhile
      let o = L.header + 2 * L.sideFields;
      for (let si = 0; si < 2; si++) {
        const st = this.state[si], so = L.header + si * L.sideFields;
        st.fields = Array.from(f.subarray(so, so + L.sideFields));
        st.stopped = f[so + L.stopped] === 1;
        const n = f[L.events + si];
        for (let j = 0; j < n; j++, o += L.eventFields) this.take(si, f.subarray(o, o + L.eventFields), L);
      }
      if (!f[L.pending]) break;
    }
    if (this.state[0].stopped && !info.stopped) {
      const fresh = await sim.info();
      if (sim !== this.sim) return;
      this.info = fresh;
      this.showInfo();
    }
    this.ui.clock.textContent = "t = " + (f[L.now] / 1e9).toFixed(1) + " s";
    if (f[L.done] && !this.done) {
      this.done = true;
      this.showDot("done");
    }
    this.showAll();
  }

  /**
   * take adds one event to side si's state.
   * @param {number} si
   * @param {Float64Array} e the event's fields
   * @param {lab.BreakerLayout} L
   */
  take(si, e, L) {
    const st = this.state[si], at = e[L.at], kind = e[L.kind], flags = e[L.flags];
    const half = st.halfOpens.length > 0 && st.halfOpens[st.halfOpens.length - 1].ended === "" ? st.halfOpens[st.halfOpens.length - 1] : null;
    if (kind === L.kindCall) {
      const client = e[L.client];
      if (flags & L.flagAdmitted) {
        const a = { client, start: at, end: -1, ok: false, timeout: false, probe: (flags & L.flagProbe) !== 0, late: false, tr: e[L.try] };
        const k = client + ":" + at, list = st.waiting.get(k);
        if (list) list.push(st.attempts.length);
        else st.waiting.set(k, [st.attempts.length]);
        st.attempts.push(a);
        const b = Math.floor(at / BIN_NS);
        while (st.bins.length <= b) st.bins.push(0);
        st.bins[b]++;
        if (half && e[L.evState] === HALF_OPEN) half.probes++;
      } else {
        st.refused.push({ client, at, tr: e[L.try], state: e[L.evState] });
        if (half && e[L.evState] === HALF_OPEN) half.refused++;
      }
    } else if (kind === L.kindResult) {
      const k = e[L.client] + ":" + e[L.start], list = st.waiting.get(k);
      const i = list ? list.shift() : undefined;
      if (list && list.length === 0) st.waiting.delete(k);
      const late = (flags & L.flagLate) !== 0;
      if (i !== undefined) {
        const a = st.attempts[i];
        a.end = at;
        a.ok = (flags & L.flagSuccess) !== 0;
        a.timeout = (flags & L.flagTimeout) !== 0;
        a.late = late;
      }
      if (late) this.logLate(si, e, L);
    } else if (kind === L.kindState) {
      const to = e[L.evState];
      st.states.push({ at, state: to });
      if (half) half.ended = to === CLOSED ? "closed" : to === OPEN ? "reopened" : this.stateName(to);
      if (to === HALF_OPEN) st.halfOpens.push({ at, probes: 0, refused: 0, ended: "" });
      if (si === 0) {
        this.log({ kind: "state", at: String(at), before: this.stateName(e[L.prevState]) + " g" + e[L.prevGen], after: this.stateName(to) + " g" + e[L.evGen], changed: "true" },
          "t = " + sec(at) + " · " + this.stateName(e[L.prevState]) + " → " + this.stateName(to) + " (generation " + e[L.evGen] + ")", "");
      }
    }
  }

  /**
   * logLate logs a late result of side si: what it was, and the state and
   * generation before and after it.
   * @param {number} si
   * @param {Float64Array} e
   * @param {lab.BreakerLayout} L
   */
  logLate(si, e, L) {
    if (si !== 0) return;
    const before = this.stateName(e[L.prevState]) + " g" + e[L.prevGen], after = this.stateName(e[L.evState]) + " g" + e[L.evGen];
    const changed = before !== after;
    const ok = (e[L.flags] & L.flagSuccess) !== 0, timeout = (e[L.flags] & L.flagTimeout) !== 0;
    const what = ok ? "success" : timeout ? "timeout" : "failure";
    const text = "t = " + sec(e[L.at]) + " · late " + what + " of client " + (e[L.client] + 1) + ", let through at " + sec(e[L.start]) +
      " in generation " + e[L.ticketGen] + ": " + (changed ? "changed the breaker: " + this.stateName(e[L.prevState]) + ", generation " + e[L.prevGen] + " → " +
        this.stateName(e[L.evState]) + ", generation " + e[L.evGen] + "!" : "ignored: still " + this.stateName(e[L.prevState]) + ", generation " + e[L.prevGen]);
    this.log({ kind: "late", at: String(e[L.at]), before, after, changed: String(changed) }, text, changed ? "rbv-hot" : "rbv-late");
  }

  /**
   * log adds a line to the top of the log.
   * @param {Record<string, string>} data its data attributes
   * @param {string} text
   * @param {string} cls
   */
  log(data, text, cls) {
    const li = h("li", { text });
    if (cls) li.className = cls;
    for (const k in data) li.dataset[k] = data[k];
    const log = this.ui.log;
    log.insertBefore(li, log.firstChild);
    while (log.childElementCount > LOG_MAX && log.lastChild) log.removeChild(log.lastChild);
  }

  /** @param {number} s */
  stateName(s) {
    const C = this.api && this.api.breaker;
    return (C && C.states[s]) || "state " + s;
  }

  /** showAll writes the figures, the table and the notes, and draws. */
  showAll() {
    this.show();
    this.draw();
  }

  show() {
    const C = this.api && this.api.breaker, info = this.info;
    if (!C || !info) return;
    const L = C.layout, si = this.shown, st = this.state[si], F = st.fields, figs = this.figs;
    const guarded = si === 0, stopped = st.stopped;
    /** @param {number} off */
    const v = (off) => F[off] || 0;
    this.ui.title.textContent = guarded ? "Through the breaker: " + info.impl : "No breaker: every attempt, retries included, reaches the backend";
    this.el.classList.toggle("rbv-bare", !guarded);
    const dash = stopped || F.length === 0;
    const state = guarded ? v(L.state) : -1;
    figs.state.value.textContent = !guarded ? "none" : dash ? "–" : this.stateName(state);
    figs.state.note.textContent = guarded ? "opened " + int(v(L.opens)) + (v(L.opens) === 1 ? " time" : " times") : "retries go straight through";
    for (const s of ["closed", "open", "half"]) figs.state.box.classList.toggle("rbv-st-" + s, guarded && !dash && ["closed", "open", "half"][state] === s);
    const downS = v(L.downNs) / 1e9;
    figs.load.value.textContent = dash || downS <= 0 ? "–" : int(v(L.downAttempts) / downS) + "/s";
    const reqPerSec = (info.scenario.clients * 1e9) / info.scenario.everyNs;
    figs.load.note.textContent = "attempts a second at the backend; requests: " + int(reqPerSec) + "/s";
    figs.load.box.classList.toggle("rbv-hot", !dash && downS > 0 && v(L.downAttempts) / downS > reqPerSec);
    figs.load.box.classList.toggle("rbv-green", !dash && downS > 0 && v(L.downAttempts) / downS <= reqPerSec);
    figs.refused.value.textContent = !guarded ? "0" : dash ? "–" : int(v(L.refused));
    figs.late.value.textContent = !guarded ? "–" : dash ? "–" : int(v(L.late));
    const changed = v(L.lateChanged);
    figs.late.note.textContent = !guarded ? "no breaker, no generations" :
      changed > 0 ? int(changed) + " changed the breaker!" : "of an earlier generation, ignored";
    figs.late.box.classList.toggle("rbv-hot", guarded && !dash && changed > 0);
    figs.late.box.classList.toggle("rbv-green", guarded && !dash && changed === 0 && v(L.late) > 0);
    const finished = v(L.requestsOK) + v(L.requestsFailed);
    figs.failed.value.textContent = dash ? "–" : int(v(L.requestsFailed)) + " / " + int(finished);
    this.halfOpenRows();
    this.notes();
  }

  /** halfOpenRows lists the breaker's half-open periods. */
  halfOpenRows() {
    const st = this.state[0], rows = this.ui.halfOpens.rows, info = this.info;
    for (let i = 0; i < st.halfOpens.length; i++) {
      const p = st.halfOpens[i];
      let row = rows[i];
      if (!row) {
        row = h("tr");
        for (const id of ["at", "probes", "refused", "ended"]) row.appendChild(h("td", { "data-testid": "halfopen" + i + "-" + id }));
        this.ui.halfOpens.appendChild(row);
      }
      const cells = row.cells;
      cells[0].textContent = sec(p.at);
      cells[1].textContent = String(p.probes);
      cells[2].textContent = String(p.refused);
      cells[3].textContent = p.ended || "going on";
      const probes = info ? info.scenario.halfOpenProbes : 0;
      cells[1].classList.toggle("rbv-hot", p.probes > probes || (p.refused > 0 && p.probes !== probes));
    }
    const n = st.halfOpens.length;
    this.ui.halfNote.textContent = st.stopped ? "–" : n === 0 ? "Not half-open yet." :
      "Each half-open period lets exactly " + (info ? info.scenario.halfOpenProbes : "?") + " calls through and refuses the rest until their results decide.";
  }

  /** notes writes the note under the panel and the verdict. */
  notes() {
    const C = this.api && this.api.breaker, info = this.info;
    if (!C || !info) return;
    const L = C.layout, [on, off] = this.state.map((st) => st.fields);
    if (on.length === 0 || off.length === 0) return;
    if (this.shown === 0 && info.stopped) {
      this.ui.note.textContent = "Stopped: " + info.status + ". The run without a breaker goes on: switch the breaker off to watch it.";
    } else if (this.shown === 0) {
      const late = on[L.late], changed = on[L.lateChanged];
      this.ui.note.textContent = late === 0 ? "No late result yet: a call let through before a change of state that answers after it." :
        changed > 0 ? int(changed) + " of " + int(late) + " late results changed the breaker's state or generation: a slow call from before it opened must neither close nor reopen it." :
          int(late) + " results arrived after the breaker had changed state since their call was let through. Each was ignored: the state and generation after it are those before it.";
    } else {
      this.ui.note.textContent = "Every failed attempt is tried again " + ms(info.scenario.retryNs) + " later: while the backend is down each request costs it " +
        info.scenario.tries + " attempts, and the hung ones pile up (" + int(off[L.maxInFlight]) + " in flight at the most, against " + int(on[L.maxInFlight]) + " through the breaker).";
    }
    const sc = info.scenario, lastDown = sc.down.length ? sc.down[sc.down.length - 1].toNs : 0;
    if (this.tNs < lastDown || on[L.downNs] <= 0) {
      this.ui.verdict.textContent = "";
      return;
    }
    const rate = (/** @type {number[]} */ F) => F[L.downAttempts] / (F[L.downNs] / 1e9);
    this.ui.verdict.textContent = info.stopped
      ? "Without a breaker the backend received " + int(rate(off)) + " attempts a second while it was down."
      : "While the backend was down it received " + int(rate(on)) + " attempts a second through the breaker and " + int(rate(off)) +
        " without: the breaker failed " + int(on[L.refused]) + " calls at once instead of adding retries to the storm.";
  }

  // ---- the charts ----------------------------------------------------------------

  /**
   * geometry is where the timeline draws, for a canvas w wide and n clients.
   * @param {number} w
   * @param {number} n
   */
  geometry(w, n) {
    const padL = w < 480 ? 54 : 74, padR = 10;
    const backend = 4, rowH = 14, breaker = backend + rowH + 4;
    const lane0 = breaker + rowH + 10, laneH = w < 480 ? 9 : 12;
    const axis = lane0 + n * laneH + 4;
    return { padL, padR, backend, breaker, rowH, lane0, laneH, axis, height: axis + 16 };
  }

  draw() {
    this.drawTimeline();
    this.drawLoad();
    const ui = this.ui, figs = this.figs;
    describe(ui.timeline, () => ui.clock.textContent + ", " + ui.title.textContent + ": breaker " + figs.state.value.textContent + " (" + figs.state.note.textContent +
      "), " + figs.refused.value.textContent + " refused at once, " + figs.late.value.textContent + " late results, requests failed " + figs.failed.value.textContent);
    describe(ui.load, () => ui.clock.textContent + ", " + ui.title.textContent + ": load while down " + figs.load.value.textContent + " (" + figs.load.note.textContent + ")");
  }

  drawTimeline() {
    const info = this.info, canvas = this.ui.timeline;
    if (!info) return;
    const sc = info.scenario, G0 = this.geometry(canvas.clientWidth, sc.clients);
    const want = G0.height + "px";
    if (canvas.style.height !== want) canvas.style.height = want;
    const c = sizeCanvas(canvas);
    if (!c) return;
    this.drawnWidth = c.w;
    const { g, w, h: H } = c, C = this.colors, G = this.geometry(w, sc.clients), st = this.state[this.shown];
    g.clearRect(0, 0, w, H);
    const tMax = sc.durationNs, plotW = w - G.padL - G.padR;
    /** @param {number} t */
    const x = (t) => G.padL + (plotW * t) / tMax;
    const now = Math.min(this.tNs, tMax);
    g.font = "11px system-ui, sans-serif";
    g.textAlign = "right";
    g.textBaseline = "middle";
    g.fillStyle = C.text;
    g.fillText("backend", G.padL - 6, G.backend + G.rowH / 2);
    g.fillText("breaker", G.padL - 6, G.breaker + G.rowH / 2);
    // The backend: up, and down in its outages.
    g.fillStyle = C.up;
    g.fillRect(x(0), G.backend, x(now) - x(0), G.rowH);
    g.fillStyle = C.down;
    for (const d of sc.down) {
      if (d.fromNs >= now) continue;
      const x0 = x(d.fromNs), x1 = x(Math.min(d.toNs, now));
      g.fillRect(x0, G.backend, x1 - x0, G.rowH);
      g.globalAlpha = 0.45; // the outage behind the clients' lanes too
      g.fillRect(x0, G.lane0 - 4, x1 - x0, G.axis - G.lane0);
      g.globalAlpha = 1;
    }
    g.textAlign = "left";
    g.font = "600 10px system-ui, sans-serif";
    for (const d of sc.down) {
      if (d.fromNs < now && x(Math.min(d.toNs, now)) - x(d.fromNs) > 30) {
        g.fillStyle = C.bad;
        g.fillText("down", x(d.fromNs) + 4, G.backend + G.rowH / 2);
      }
    }
    // The breaker's state over time.
    if (this.shown === 0 && st.stopped) {
      g.fillStyle = C.refused;
      g.fillRect(x(0), G.breaker, x(now) - x(0), G.rowH);
    } else if (this.shown === 0) {
      const fills = [C.closed, C.open, C.half];
      st.states.forEach((s, i) => {
        const to = i + 1 < st.states.length ? st.states[i + 1].at : now;
        g.fillStyle = fills[s.state] || C.bad;
        // Half-open lasts a few calls: at least 3 px, so that it shows.
        g.fillRect(x(s.at), G.breaker, Math.max(x(to) - x(s.at), s.state === HALF_OPEN ? 3 : 1), G.rowH);
        const label = this.stateName(s.state);
        g.font = "600 10px system-ui, sans-serif";
        if (x(to) - x(s.at) > g.measureText(label).width + 8) {
          g.fillStyle = "#ffffff";
          g.fillText(label, x(s.at) + 4, G.breaker + G.rowH / 2);
        }
      });
    } else {
      g.fillStyle = C.text;
      g.font = "italic 11px system-ui, sans-serif";
      g.fillText("no breaker: every attempt reaches the backend", G.padL + 4, G.breaker + G.rowH / 2);
    }
    // The clients' lanes.
    g.font = "10px system-ui, sans-serif";
    g.textAlign = "right";
    for (let i = 0; i < sc.clients; i++) {
      const y = G.lane0 + i * G.laneH;
      g.fillStyle = C.text;
      if (G.laneH >= 11 || i % 2 === 0) g.fillText(w < 480 ? "c" + (i + 1) : "client " + (i + 1), G.padL - 6, y + G.laneH / 2);
      g.strokeStyle = C.grid;
      g.beginPath(); g.moveTo(G.padL, y + G.laneH - 0.5); g.lineTo(w - G.padR, y + G.laneH - 0.5); g.stroke();
    }
    // Refused calls: a thin tick each.
    g.fillStyle = C.refused;
    for (const r of st.refused) g.fillRect(x(r.at) - 0.5, G.lane0 + r.client * G.laneH + 3, 1, G.laneH - 6);
    // Attempts let through: a tick at the call, coloured by its result, in
    // the lane's upper part; a long one (slow, or hung) also as a bar from
    // the call to its result in the lower part, where late ones stand out.
    const tickH = Math.ceil(G.laneH / 2) - 1, barY = tickH + 2, barH = G.laneH - barY - 2;
    for (const a of st.attempts) {
      const y = G.lane0 + a.client * G.laneH;
      const end = a.end < 0 ? now : a.end;
      const color = a.end < 0 ? C.flight : a.late ? C.late : a.ok ? C.ok : a.timeout ? C.timeout : C.fail;
      const xs = x(a.start);
      g.fillStyle = color;
      g.fillRect(xs - 0.6, y + 1, 1.2, tickH);
      if (end - a.start >= LONG_NS) {
        g.fillRect(xs, y + barY, Math.max(x(end) - xs, 1.5), barH);
        if (a.late) { g.beginPath(); g.arc(x(end), y + barY + barH / 2, 2.5, 0, 2 * Math.PI); g.fill(); }
      }
      if (a.probe) {
        g.fillStyle = C.half;
        g.beginPath(); g.moveTo(xs - 3.5, y - 3); g.lineTo(xs + 3.5, y - 3); g.lineTo(xs, y + 2); g.fill();
      }
    }
    // Time not yet run, the axis.
    g.fillStyle = C.future;
    g.fillRect(x(now), G.backend, w - G.padR - x(now), G.axis - G.backend);
    this.axis(g, x, tMax, w, G.axis);
    if (this.shown === 0 && info.stopped) {
      g.textAlign = "left";
      stoppedNote(g, C.bad, "breaker: " + info.status, G.padL + 8, G.lane0 + G.laneH);
    }
  }

  /**
   * axis writes the time axis at y.
   * @param {CanvasRenderingContext2D} g
   * @param {(t: number) => number} x
   * @param {number} tMax
   * @param {number} w
   * @param {number} y
   */
  axis(g, x, tMax, w, y) {
    g.fillStyle = this.colors.text;
    g.textAlign = "center";
    g.textBaseline = "top";
    g.font = "11px system-ui, sans-serif";
    const step = w < 480 ? 2e9 : 1e9;
    for (let t = 0; t <= tMax + 1; t += step) g.fillText(t / 1e9 + " s", x(t), y);
  }

  drawLoad() {
    const info = this.info, canvas = this.ui.load;
    if (!info) return;
    const c = sizeCanvas(canvas);
    if (!c) return;
    const { g, w, h: H } = c, C = this.colors, sc = info.scenario;
    g.clearRect(0, 0, w, H);
    const padL = w < 480 ? 54 : 74, padR = 10, top = 8, bottom = H - 18;
    const tMax = sc.durationNs, now = Math.min(this.tNs, tMax);
    /** @param {number} t */
    const x = (t) => padL + ((w - padL - padR) * t) / tMax;
    const perSec = 1e9 / BIN_NS;
    const reqPerSec = (sc.clients * 1e9) / sc.everyNs;
    let yMax = reqPerSec * 1.5;
    for (const st of this.state) for (const b of st.bins) yMax = Math.max(yMax, b * perSec * 1.1);
    /** @param {number} v */
    const y = (v) => bottom - ((bottom - top) * v) / yMax;
    g.fillStyle = C.down;
    for (const d of sc.down) if (d.fromNs < now) g.fillRect(x(d.fromNs), top, x(Math.min(d.toNs, now)) - x(d.fromNs), bottom - top);
    // The grid: the requests' own rate, and a round step.
    g.strokeStyle = C.grid;
    g.fillStyle = C.text;
    g.font = "10px system-ui, sans-serif";
    g.textAlign = "right";
    g.textBaseline = "middle";
    const step = yMax > 600 ? 200 : 100;
    for (let v = 0; v <= yMax; v += step) {
      g.beginPath(); g.moveTo(padL, Math.round(y(v)) + 0.5); g.lineTo(w - padR, Math.round(y(v)) + 0.5); g.stroke();
      g.fillText(int(v) + "/s", padL - 6, y(v));
    }
    /**
     * @param {number[]} bins
     * @returns {[number, number][]}
     */
    const points = (bins) => {
      /** @type {[number, number][]} */
      const out = [];
      const last = Math.floor(now / BIN_NS);
      for (let b = 0; b < last && b < tMax / BIN_NS; b++) {
        const v = (bins[b] || 0) * perSec;
        out.push([x(b * BIN_NS), y(v)], [x((b + 1) * BIN_NS), y(v)]);
      }
      return out;
    };
    // A side that stopped (Yours panicked) has no load to show.
    /** @param {SideState} st */
    const load = (st) => (st.stopped ? [] : points(st.bins));
    const other = load(this.state[1 - this.shown]), mine = load(this.state[this.shown]);
    if (mine.length) {
      g.fillStyle = C.load;
      g.globalAlpha = 0.22;
      g.beginPath(); g.moveTo(mine[0][0], bottom);
      for (const [px, py] of mine) g.lineTo(px, py);
      g.lineTo(mine[mine.length - 1][0], bottom); g.closePath(); g.fill();
      g.globalAlpha = 1;
      g.strokeStyle = C.load;
      g.lineWidth = 1.5;
      g.beginPath();
      mine.forEach(([px, py], i) => (i ? g.lineTo(px, py) : g.moveTo(px, py)));
      g.stroke();
    }
    if (other.length) {
      g.strokeStyle = C.other;
      g.lineWidth = 1.2;
      g.setLineDash([4, 3]);
      g.beginPath();
      other.forEach(([px, py], i) => (i ? g.lineTo(px, py) : g.moveTo(px, py)));
      g.stroke();
      g.setLineDash([]);
    }
    g.lineWidth = 1;
    g.fillStyle = C.future;
    g.fillRect(x(now), top, w - padR - x(now), bottom - top);
    this.axis(g, x, tMax, w, bottom + 3);
  }

  /**
   * hover shows what is under the pointer on the timeline: the breaker's
   * state there, or the attempt nearest it in a client's lane.
   * @param {PointerEvent} ev
   */
  hover(ev) {
    const info = this.info, tip = this.ui.tip, canvas = this.ui.timeline;
    if (!info) return;
    const sc = info.scenario, rect = canvas.getBoundingClientRect(), w = rect.width, G = this.geometry(w, sc.clients);
    const px = ev.clientX - rect.left, py = ev.clientY - rect.top, plotW = w - G.padL - G.padR;
    const t = ((px - G.padL) / plotW) * sc.durationNs, st = this.state[this.shown];
    let text = "";
    if (px >= G.padL && t <= this.tNs && py >= G.breaker && py < G.breaker + G.rowH && this.shown === 0) {
      let i = st.states.length - 1;
      while (i > 0 && st.states[i].at > t) i--;
      if (i >= 0) {
        const to = i + 1 < st.states.length ? "until " + sec(st.states[i + 1].at) : "since then";
        text = this.stateName(st.states[i].state) + " from " + sec(st.states[i].at) + ", " + to + " (generation " + i + ")";
      }
    }
    const lane = Math.floor((py - G.lane0) / G.laneH);
    if (px >= G.padL && lane >= 0 && lane < sc.clients) {
      let bestD = (6 / plotW) * sc.durationNs;
      for (const a of st.attempts) {
        if (a.client !== lane || Math.abs(a.start - t) >= bestD) continue;
        bestD = Math.abs(a.start - t);
        const result = a.end < 0 ? "in flight" : (a.ok ? "success" : a.timeout ? "hung: failure at the timeout" : "failure") + " at " + sec(a.end);
        text = "client " + (lane + 1) + ", try " + a.tr + ": let through at " + sec(a.start) + (a.probe ? " as a probe" : "") + "; " + result +
          (a.late ? ", late: ignored" : "");
      }
      for (const r of st.refused) {
        if (r.client !== lane || Math.abs(r.at - t) >= bestD) continue;
        bestD = Math.abs(r.at - t);
        text = "client " + (lane + 1) + ", try " + r.tr + ": refused at once at " + sec(r.at) + " (" + this.stateName(r.state) + ")";
      }
    }
    if (!text) { tip.hidden = true; return; }
    tip.textContent = text;
    tip.hidden = false;
    const host = this.el.getBoundingClientRect();
    tip.style.left = Math.max(0, Math.min(ev.clientX - host.left + 12, host.width - tip.offsetWidth - 4)) + "px";
    tip.style.top = ev.clientY - host.top + 14 + "px";
  }
}

export const breaker = register("breaker", BreakerViz);
