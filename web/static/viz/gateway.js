// @ts-check
// ratelab: the policy visualization (week 3).
//
// Mounts into every <div data-viz="gateway"> on the page. One client's
// flood on a 12 s timeline, through two gateways on the same traffic, run
// by lab/gateway (through the lab's WebAssembly build, loaded once per page
// by common.js): the gateway exercise (the reference, or yours), where
// cancels have a budget of their own, and a gateway where cancels take
// from the orders' budget: one shared budget, the rest alike. Each
// animation frame asks Go for the events since the last one: one call, one
// typed array back. Go decides every message; this file only shows what
// happened.
//
// Attributes of the mount element, all optional:
//   data-wasm       URL of the build the reference runs from: the week's (default /static/lab.wasm)
//   data-yours-wasm URL of the build Yours runs from (default /static/lab.wasm)
//   data-wasm-exec  URL of wasm_exec.js (default /static/wasm_exec.js)
//
// A native ES module, no build step.

import { describe, grouped as int, h, helpers, register, select, sizeCanvas, staleHint, stoppedNote, Viz, writeHint } from "./common.js";

const { field, figure, key } = helpers("rgw");

const MAX_DT_MS = 250; // a frame never advances more than this much real time
const SPEEDS = ["0.5", "1", "2", "5", "10"]; // virtual seconds per real second
const SIDES = ["gate", "shared"]; // in the order of the encoding
const LOG_LINES = 6; // refusals listed under each timeline

// The kinds, outcomes and marks, numbered as lab/gateway's.
const NEW_ORDER = 0, MODIFY = 1, CANCEL = 2, HEARTBEAT = 3;
const ACCEPT = 0, REJECT = 1, SILENT = 2, DISCONNECT = 3;

/** @type {import("./common.js").ColorVars} */
const COLORS = {
  accept: "--rgw-accept",
  reject: "--rgw-reject",
  silent: "--rgw-silent",
  disconnect: "--rgw-disconnect",
  reload: "--rgw-reload",
  flood: "--rgw-flood",
  grid: "--rgw-grid",
  future: "--rgw-future",
  bad: "--viz-bad",
};

/** @param {number} ns */
function ms(ns) { return int(ns / 1e6) + " ms"; }

/**
 * perSec writes how many a second an interval makes, to a tenth.
 * @param {number} everyNs
 */
function perSec(everyNs) { return (1e9 / everyNs).toFixed(1).replace(/\.0$/, ""); }

/** @param {number} ns */
function sec(ns) { return (ns / 1e9).toFixed(2) + " s"; }

/**
 * @typedef {object} Ev one event of a side, decoded
 * @property {number} at ns
 * @property {number} kind
 * @property {number} outcome
 * @property {number} budget code, see lab.Gateway.budgets
 * @property {number} retry ns
 * @property {number} flood the flood's age, ns
 * @property {number} mark
 */

/**
 * @typedef {object} Flood one flood of a side: from its first refusal to
 * the accepted message or the disconnect that ended it
 * @property {number} start ns
 * @property {number} lastReject age of its last Reject, ns; -1: none
 * @property {number} firstSilent age of its first Silent, ns; -1: none
 * @property {number} lastSilent ns; -1: none
 * @property {number} disconnect age of its Disconnect, ns; -1: none
 * @property {number} refused
 * @property {string} ended "", "accepted" or "disconnect"
 */

/**
 * @typedef {object} SideView one gateway's panel
 * @property {HTMLElement} panel
 * @property {HTMLElement} title
 * @property {HTMLElement} budgets
 * @property {import("./common.js").Figure} cancels
 * @property {import("./common.js").Figure} orders
 * @property {import("./common.js").Figure} heartbeats
 * @property {import("./common.js").Figure} disconnects
 * @property {HTMLCanvasElement} chart
 * @property {HTMLTableSectionElement} floods
 * @property {HTMLParagraphElement} floodNote
 * @property {HTMLOListElement} log
 * @property {HTMLParagraphElement} note
 */

/**
 * @typedef {object} SideState what a side has done so far
 * @property {Ev[]} events
 * @property {number[]} counts Counts[kind][outcome] at kind*outcomes + outcome
 * @property {boolean} stopped
 * @property {Flood[]} floods
 * @property {Flood | null} flood the flood going on
 * @property {{cancels: number, cancelsOK: number, orders: number, ordersRefused: number}} inFlood the flood-while-cancelling phase's figures: cancels sent and accepted, orders (new or modify) sent and refused
 * @property {Ev | null} afterReload the first refusal after the reload
 */

/** @returns {SideState} */
function newSideState() {
  return { events: [], counts: [], stopped: false, floods: [], flood: null, inFlood: { cancels: 0, cancelsOK: 0, orders: 0, ordersRefused: 0 }, afterReload: null };
}

// ---- one visualization ---------------------------------------------------------

/** @extends {Viz<lab.GatewaySim>} */
class GatewayViz extends Viz {
  /** @param {HTMLElement} root */
  constructor(root) {
    super(root, COLORS, MAX_DT_MS);
    this.code = "exercises/gateway: Gateway.Open, Admit, Reload";
    /** @type {lab.GatewaySimConfig} */
    this.cfg = { impl: "reference" };
    this.speed = 1;
    this.paused = false;
    this.tNs = 0;
    this.done = false;
    /** @type {lab.GatewayInfo | null} */
    this.info = null;
    /** @type {SideState[]} */
    this.state = [newSideState(), newSideState()];
    /** @type {SideView[]} */
    this.sides = [];
    this.drawnWidth = 0; // the timelines' width when last drawn
    /** the stretch of the run where the client floods while cancelling: [from, to) ns */
    this.floodPhase = [0, 0];
    this.ui = this.build();
  }

  build() {
    const ui = {
      impl: select("impl", [["reference", "Reference"], ["yours", "Yours"]], "reference"),
      speed: select("speed", SPEEDS.map((s) => /** @type {[string, string]} */ ([s, s + "× real time"])), String(this.speed)),
      pause: h("button", { type: "button", "data-testid": "pause", "aria-pressed": "false", text: "Pause" }),
      restart: h("button", { type: "button", "data-testid": "restart", text: "Restart" }),
      clock: h("strong", { "data-testid": "clock", text: "t = 0.0 s" }),
      scenario: h("p", { class: "rgw-scenario viz-muted", "data-testid": "scenario" }),
      silence: h("strong", { "data-testid": "silence-after", text: "–" }),
      disconnect: h("strong", { "data-testid": "disconnect-after", text: "–" }),
      reloadNote: h("p", { class: "rgw-reload-note", "data-testid": "reload-note" }),
      verdict: h("p", { class: "rgw-verdict", "data-testid": "verdict", "aria-live": "polite" }),
      tip: h("div", { class: "rgw-tip", role: "tooltip", hidden: "" }),
    };
    const controls = h("form", { class: "viz-controls", "aria-label": "Policy timeline settings" }, [
      field("Gateway: code", ui.impl),
      field("Speed", ui.speed),
      h("div", { class: "viz-buttons" }, [ui.pause, ui.restart]),
    ]);
    controls.addEventListener("submit", (e) => e.preventDefault());
    const statusLine = h("div", { class: "viz-statusline" }, [this.status, ui.clock, this.readyDot]);
    const escalation = h("p", { class: "rgw-escalation" }, [
      "A flood (refusals since the last accepted order or cancel) is answered Reject until it is ", ui.silence,
      " old, then Silent, then Disconnect from ", ui.disconnect, ".",
    ]);
    const legend = h("p", { class: "viz-legend" }, [
      key("accept", "accepted"), key("reject", "reject (with retry-after)"), key("silent", "silent (dropped)"),
      key("disconnect", "disconnect"), key("flood", "flood phase"), key("reload", "reload"),
      h("span", { class: "viz-key" }, ["▾ flood begins · ◆ first silent · ▲ logged on"]),
    ]);
    const panels = h("div", { class: "rgw-panels" });
    for (const side of SIDES) {
      const v = this.buildSide(side);
      this.sides.push(v);
      panels.appendChild(v.panel);
    }
    this.el = h("div", { class: "viz-frame rgw" }, [controls, statusLine, ui.scenario, escalation, this.error, legend, panels, ui.reloadNote, ui.verdict, ui.tip]);
    this.root.appendChild(this.el);

    ui.impl.addEventListener("change", () => { this.cfg.impl = ui.impl.value; this.restart(); });
    ui.speed.addEventListener("change", () => { this.speed = Number(ui.speed.value) || 1; });
    ui.pause.addEventListener("click", () => this.setPaused(!this.paused));
    ui.restart.addEventListener("click", () => this.restart());
    return ui;
  }

  /**
   * buildSide makes one gateway's panel: its figures, the timeline, the
   * floods that escalated and the last refusals.
   * @param {string} side "gate" or "shared"
   * @returns {SideView}
   */
  buildSide(side) {
    const title = h("h3", { class: "rgw-title", "data-testid": side + "-title", text: side === "gate" ? "Cancels on their own budget" : "One shared budget" });
    const budgets = h("p", { class: "viz-muted rgw-budgets", "data-testid": side + "-budgets" });
    const cancels = figure(side + "-cancels", "Cancels in the flood", "accepted, of those sent while orders flood");
    const orders = figure(side + "-orders", "Orders refused in the flood", "reject, silent or disconnect, of those sent while orders flood");
    const heartbeats = figure(side + "-heartbeats", "Heartbeats refused", "of those sent while logged on");
    const disconnects = figure(side + "-disconnects", "Disconnects", "the client logs on again 1 s later");
    const chart = h("canvas", { class: "rgw-chart", role: "img", "data-testid": side + "-chart",
      "aria-label": "Timeline of orders, cancels and heartbeats by outcome, with each refusal's retry-after, for " + title.textContent });
    chart.addEventListener("pointermove", (e) => this.hover(SIDES.indexOf(side), e));
    chart.addEventListener("pointerleave", () => { this.ui.tip.hidden = true; });
    const floods = h("tbody");
    const table = h("table", { class: "rgw-table" }, [
      h("caption", { text: "Floods that escalated (ages from the flood's first refusal)" }),
      h("thead", {}, [h("tr", {}, [
        h("th", { scope: "col", text: "began" }), h("th", { scope: "col", text: "last reject" }),
        h("th", { scope: "col", text: "first silent" }), h("th", { scope: "col", text: "disconnect" }), h("th", { scope: "col", text: "ended by" }),
      ])]),
      floods,
    ]);
    const floodNote = h("p", { class: "viz-muted", "data-testid": side + "-flood-note" });
    const log = h("ol", { class: "rgw-log", "aria-label": "The last refusals, newest first" });
    const note = h("p", { class: "rgw-note", "data-testid": side + "-note" });
    const panel = h("section", { class: "rgw-panel rgw-" + side, "data-testid": side + "-panel" }, [
      h("div", { class: "rgw-head" }, [title, budgets]),
      h("div", { class: "rgw-figs" }, [cancels.box, orders.box, heartbeats.box, disconnects.box]),
      chart,
      h("div", { class: "rgw-details" }, [
        h("div", { class: "rgw-floods scroll-cue", role: "region", "aria-label": "Floods that escalated", tabindex: "0" }, [table, floodNote]),
        h("div", { class: "rgw-logbox", "data-testid": side + "-log" }, [h("p", { class: "rgw-loghead", text: "Last refusals" }), log]),
      ]),
      note,
    ]);
    return { panel, title, budgets, cancels, orders, heartbeats, disconnects, chart, floods, floodNote, log, note };
  }

  /** @param {boolean} p */
  setPaused(p) {
    super.setPaused(p);
    this.showDot(p ? "paused" : this.done ? "done" : "live");
  }

  /** makeRun makes a new run from the settings and shows it at t = 0. */
  async makeRun() {
    const api = this.api, make = api && api.newGatewaySim, P = api && api.gateway;
    if (!make || !P) {
      if (api) this.showError(staleHint("the policy timeline"));
      return;
    }
    const s = await this.newRun(() => make(this.cfg), "Cannot run: ");
    if (!s) return;
    this.batchRoom(P.bytes);
    this.tNs = 0;
    this.done = false;
    this.state = [newSideState(), newSideState()];
    for (const v of this.sides) {
      v.floods.textContent = "";
      v.log.textContent = "";
    }
    const sc = P.scenario, c = sc.config, r = sc.reload;
    // The flood while cancelling: the phase with cancels and the most orders.
    let best = -1;
    sc.phases.forEach((p, i) => {
      if (p.cancelEveryNs > 0 && (best < 0 || p.orderEveryNs < sc.phases[best].orderEveryNs)) best = i;
    });
    this.floodPhase = best < 0 ? [0, 0] : [sc.phases[best].fromNs, best + 1 < sc.phases.length ? sc.phases[best + 1].fromNs : sc.durationNs];
    this.ui.scenario.textContent = "One client of class " + sc.class + ": " +
      sc.phases.map((p, i) => {
        const to = i + 1 < sc.phases.length ? sc.phases[i + 1].fromNs : sc.durationNs;
        const what = perSec(p.orderEveryNs) + " orders/s" + (p.cancelEveryNs ? ", " + perSec(p.cancelEveryNs) + " cancels/s" : ", no cancels");
        return p.name + " " + p.fromNs / 1e9 + "–" + to / 1e9 + " s (" + what + ")";
      }).join("; ") + "; a heartbeat every " + ms(sc.heartbeatEveryNs) + ". At " + sc.reloadAtNs / 1e9 + " s operations lower the limits.";
    this.ui.silence.textContent = ms(c.silenceAfterNs);
    this.ui.disconnect.textContent = ms(c.disconnectAfterNs);
    this.sides[0].budgets.textContent = "orders " + c.orders.capacity + " tokens at " + c.orders.rate + "/s; cancels their own " +
      c.cancels.capacity + " at " + c.cancels.rate + "/s. After the reload: " + r.orders.capacity + " at " + r.orders.rate + "/s and " +
      r.cancels.capacity + " at " + r.cancels.rate + "/s.";
    this.sides[1].budgets.textContent = "orders and cancels share " + c.orders.capacity + " tokens at " + c.orders.rate +
      "/s; after the reload " + r.orders.capacity + " at " + r.orders.rate + "/s. Heartbeats, verdicts and escalation as the exercise's.";
    this.info = await s.info();
    await this.advance(0);
    // The status last: a run of Yours answers later, and the page shows
    // the new run's status only beside its figures.
    this.showInfo();
    this.setPaused(this.paused);
  }

  showInfo() {
    const info = this.info;
    if (!info) return;
    let status = "Gateway: " + info.implStatus;
    if (info.stopped && info.status === "not implemented yet") {
      status = "Gateway: " + info.impl + ": not implemented yet. " + writeHint("gateway");
    }
    this.status.textContent = status;
    this.status.classList.toggle("viz-bad", info.stopped);
    this.sides[0].title.textContent = "Cancels on their own budget: " + info.impl;
  }

  simNs() {
    return this.tNs;
  }

  /** @param {number} dt */
  async tick(dt) {
    if (!this.paused && !this.done) await this.advance(dt * this.speed * 1e6);
    else if (this.sides.some((v) => v.chart.clientWidth !== this.drawnWidth)) this.draw(); // resized while still
  }

  /**
   * advance moves virtual time by dNs, takes the events Go decided up to
   * there, and shows them.
   * @param {number} dNs
   */
  async advance(dNs) {
    const P = this.api && this.api.gateway, sim = this.sim;
    if (!P || !sim) return;
    const L = P.layout, f = this.floats;
    const until = Math.min(this.tNs + dNs, P.scenario.durationNs);
    let reloaded = false;
    for (let guard = 0; guard < 100; guard++) {
      await sim.step(until, this.bytes);
      this.tNs = until; // take reads it
      let o = L.header + 2 * L.sideFields;
      for (let si = 0; si < 2; si++) {
        const st = this.state[si], so = L.header + si * L.sideFields;
        st.stopped = f[so + L.stopped] === 1;
        st.counts = Array.from(f.subarray(so + L.counts, so + L.counts + P.kinds.length * P.outcomes.length));
        const n = f[L.events + si];
        for (let j = 0; j < n; j++, o += L.eventFields) {
          /** @type {Ev} */
          const e = { at: f[o + L.at], kind: f[o + L.kind], outcome: f[o + L.outcome], budget: f[o + L.budget], retry: f[o + L.retry], flood: f[o + L.flood], mark: f[o + L.mark] };
          if (e.mark === L.markReload) reloaded = true;
          this.take(si, e);
        }
      }
      if (!f[L.pending]) break;
    }
    const wasStopped = this.info ? this.info.stopped : false;
    if (reloaded || (this.state[0].stopped && !wasStopped)) {
      this.info = await sim.info();
      this.showInfo();
    }
    this.ui.clock.textContent = "t = " + (f[L.now] / 1e9).toFixed(1) + " s";
    this.show();
    if (f[L.done] && !this.done) {
      this.done = true;
      this.showDot("done");
    }
    this.draw();
  }

  /**
   * take adds one event to side si's state: its flood, the flood phase's
   * figures, its log.
   * @param {number} si
   * @param {Ev} e
   */
  take(si, e) {
    const P = this.api && this.api.gateway;
    if (!P) return;
    const L = P.layout, st = this.state[si];
    st.events.push(e);
    if (e.mark === L.markFlood) {
      st.flood = { start: e.at, lastReject: -1, firstSilent: -1, lastSilent: -1, disconnect: -1, refused: 0, ended: "" };
      st.floods.push(st.flood);
      return;
    }
    if (e.mark === L.markFloodOver) {
      if (st.flood) st.flood.ended = "accepted";
      st.flood = null;
      return;
    }
    if (e.mark !== L.markNone) return;
    const [from, to] = this.floodPhase;
    if (e.at >= from && e.at < to) {
      if (e.kind === CANCEL) {
        st.inFlood.cancels++;
        if (e.outcome === ACCEPT) st.inFlood.cancelsOK++;
      } else if (e.kind !== HEARTBEAT) {
        st.inFlood.orders++;
        if (e.outcome !== ACCEPT) st.inFlood.ordersRefused++;
      }
    }
    if (e.outcome === ACCEPT) return;
    const fl = st.flood;
    if (fl) {
      fl.refused++;
      if (e.outcome === REJECT) fl.lastReject = e.flood;
      if (e.outcome === SILENT) {
        if (fl.firstSilent < 0) fl.firstSilent = e.flood;
        fl.lastSilent = e.flood;
      }
      if (e.outcome === DISCONNECT) {
        fl.disconnect = e.flood;
        fl.ended = "disconnect";
        st.flood = null;
      }
    }
    if (!st.afterReload && P.scenario.reloadAtNs > 0 && e.at >= P.scenario.reloadAtNs && e.kind !== HEARTBEAT) st.afterReload = e;
    const v = this.sides[si];
    v.log.insertBefore(h("li", { text: this.describe(e) }), v.log.firstChild);
    while (v.log.childElementCount > LOG_LINES && v.log.lastChild) v.log.removeChild(v.log.lastChild);
  }

  /**
   * describe says what happened to one message.
   * @param {Ev} e
   */
  describe(e) {
    const P = this.api && this.api.gateway;
    if (!P) return "";
    const kind = P.kinds[e.kind] || "kind " + e.kind, outcome = P.outcomes[e.outcome] || "outcome " + e.outcome;
    let s = "t = " + sec(e.at) + " · " + kind + ": " + outcome;
    // A silent drop tells the client nothing, not even when to retry.
    if (e.outcome === REJECT || e.outcome === SILENT) {
      s += " by " + (P.budgets[e.budget] || "?") + (e.outcome === REJECT ? ", retry after " + ms(e.retry) : ", no answer sent");
    }
    if (e.outcome !== ACCEPT) s += " (flood " + ms(e.flood) + ")";
    return s;
  }

  /** show writes the figures, the floods' tables and the notes. */
  show() {
    const P = this.api && this.api.gateway;
    if (!P) return;
    const nO = P.outcomes.length, info = this.info;
    this.state.forEach((st, si) => {
      const v = this.sides[si], stopped = st.stopped, c = st.counts;
      v.panel.classList.toggle("rgw-stopped", stopped);
      /** @param {number} kind */
      const refused = (kind) => (c[kind * nO + REJECT] || 0) + (c[kind * nO + SILENT] || 0) + (c[kind * nO + DISCONNECT] || 0);
      /** @param {number} kind */
      const sent = (kind) => refused(kind) + (c[kind * nO + ACCEPT] || 0);
      const f = st.inFlood;
      v.cancels.value.textContent = stopped ? "–" : int(f.cancelsOK) + " / " + int(f.cancels);
      v.cancels.box.classList.toggle("rgw-hot", !stopped && f.cancels > f.cancelsOK);
      v.cancels.box.classList.toggle("rgw-green", !stopped && f.cancels > 0 && f.cancels === f.cancelsOK);
      v.orders.value.textContent = stopped ? "–" : int(f.ordersRefused) + " / " + int(f.orders);
      v.heartbeats.value.textContent = stopped ? "–" : int(refused(HEARTBEAT)) + " / " + int(sent(HEARTBEAT));
      v.heartbeats.box.classList.toggle("rgw-hot", !stopped && refused(HEARTBEAT) > 0);
      v.heartbeats.box.classList.toggle("rgw-green", !stopped && sent(HEARTBEAT) > 0 && refused(HEARTBEAT) === 0);
      const disc = [NEW_ORDER, MODIFY, CANCEL, HEARTBEAT].reduce((a, k) => a + (c[k * nO + DISCONNECT] || 0), 0);
      v.disconnects.value.textContent = stopped ? "–" : int(disc);
      v.disconnects.box.classList.toggle("rgw-hot", !stopped && disc > 0);
      this.floodRows(si);
      if (si === 0 && info && info.stopped) {
        v.note.textContent = "Stopped: " + info.status + ".";
      } else if (f.cancels === 0) {
        v.note.textContent = "";
      } else if (f.cancelsOK === f.cancels) {
        v.note.textContent = "Every cancel went through on its own budget while " + int(f.ordersRefused) +
          " orders were refused: a flood of orders never stands between the client and its cancels.";
      } else {
        v.note.textContent = int(f.cancels - f.cancelsOK) + " of " + int(f.cancels) + " cancels refused during the flood: the orders spent the budget the cancels needed, and the client is stuck with orders it wants to pull.";
      }
    });
    const [g, s] = this.state.map((st) => st.inFlood);
    const phaseOver = this.tNs >= this.floodPhase[1];
    if (phaseOver && g.cancels > 0 && !(info && info.stopped)) {
      this.ui.verdict.textContent = "While the orders flooded, cancels on their own budget: " + g.cancelsOK + " of " + g.cancels +
        " accepted; on one shared budget: " + s.cancelsOK + " of " + s.cancels + ". " +
        (s.cancelsOK < s.cancels ? "Sharing the budget traps the client unable to cancel, then the escalation disconnects it." : "");
    } else if (phaseOver && info && info.stopped) {
      this.ui.verdict.textContent = "On one shared budget " + s.cancelsOK + " of " + s.cancels + " cancels got through during the flood.";
    } else {
      this.ui.verdict.textContent = "";
    }
    this.reloadNote();
  }

  /**
   * floodRows lists side si's floods that reached Silent or Disconnect.
   * @param {number} si
   */
  floodRows(si) {
    const st = this.state[si], v = this.sides[si], side = SIDES[si];
    const escalated = st.floods.filter((fl) => fl.firstSilent >= 0 || fl.disconnect >= 0);
    const rows = v.floods.rows;
    for (let i = 0; i < escalated.length; i++) {
      const fl = escalated[i];
      let row = rows[i];
      if (!row) {
        row = h("tr");
        for (const id of ["began", "reject", "silent", "disconnect", "ended"]) row.appendChild(h("td", { "data-testid": side + "-flood" + i + "-" + id }));
        v.floods.appendChild(row);
      }
      const cells = row.cells;
      cells[0].textContent = sec(fl.start);
      cells[1].textContent = fl.lastReject >= 0 ? ms(fl.lastReject) : "–";
      cells[2].textContent = fl.firstSilent >= 0 ? ms(fl.firstSilent) : "–";
      cells[3].textContent = fl.disconnect >= 0 ? ms(fl.disconnect) : "–";
      cells[4].textContent = fl.ended === "" ? "going on" : fl.ended === "accepted" ? "accept" : "disconnect";
      cells[3].classList.toggle("rgw-hot", fl.disconnect >= 0);
    }
    const short = st.floods.length - escalated.length;
    v.floodNote.textContent = st.stopped ? "–" : st.floods.length === 0 ? "No flood yet." :
      int(st.floods.length) + " floods; " + int(short) + " ended by an accepted order or cancel before silence.";
  }

  /** reloadNote says what the reload changed, and what it did not. */
  reloadNote() {
    const P = this.api && this.api.gateway;
    if (!P) return;
    const sc = P.scenario, c = sc.config, r = sc.reload;
    let s = "At " + sc.reloadAtNs / 1e9 + " s operations reload the limits without a restart: orders " + c.orders.capacity + " → " + r.orders.capacity +
      " tokens, " + c.orders.rate + " → " + r.orders.rate + "/s; cancels " + c.cancels.capacity + " → " + r.cancels.capacity + ", " +
      c.cancels.rate + " → " + r.cancels.rate + "/s. Nobody is refilled: each budget is settled at the old rate and keeps its tokens, capped at the new capacity.";
    if (this.tNs >= sc.reloadAtNs) {
      const errs = this.info ? this.info.reloadErrors : [];
      const after = this.state.map((st, si) => {
        if (errs[si]) return SIDES[si] === "gate" ? "the gateway's reload failed: " + errs[si] : "the shared budget's reload failed: " + errs[si];
        const e = st.afterReload;
        const who = si === 0 ? "own budgets" : "shared budget";
        if (!e) return who + ": no refusal since";
        if (e.outcome !== REJECT) return who + ": first refusal at " + sec(e.at) + ", " + (P.outcomes[e.outcome] || "refused") + " (no retry-after sent)";
        return who + ": first refusal at " + sec(e.at) + ", retry after " + ms(e.retry) + " at the new rate";
      });
      s += " After it, " + after.join("; ") + ".";
    }
    this.ui.reloadNote.textContent = s;
  }

  // ---- the timelines ----------------------------------------------------------------

  /**
   * geometry is where a side's timeline draws, for a canvas w wide.
   * @param {number} w
   */
  geometry(w) {
    const padL = w < 480 ? 58 : 74, padR = 10;
    const phaseTop = 2, lane0 = 20, laneH = 17, gap = 3;
    const lanes = [lane0, lane0 + laneH + gap, lane0 + 2 * (laneH + gap)];
    const retryTop = lane0 + 3 * (laneH + gap) + 6, retryH = 38;
    const axis = retryTop + retryH + 4;
    return { padL, padR, phaseTop, lanes, laneH, retryTop, retryH, axis, height: axis + 16 };
  }

  draw() {
    for (let si = 0; si < 2; si++) this.drawSide(si);
  }

  /** @param {number} si */
  drawSide(si) {
    const P = this.api && this.api.gateway;
    const v = this.sides[si], st = this.state[si];
    const want = this.geometry(v.chart.clientWidth).height + "px";
    if (v.chart.style.height !== want) v.chart.style.height = want;
    const c = sizeCanvas(v.chart);
    if (!c || !P) return;
    describe(v.chart, () => this.ui.clock.textContent + ": cancels in the flood accepted " + v.cancels.value.textContent + ", orders refused " +
      v.orders.value.textContent + ", heartbeats refused " + v.heartbeats.value.textContent + ", disconnects " + v.disconnects.value.textContent +
      (v.note.textContent ? ". " + v.note.textContent : ""));
    this.drawnWidth = c.w;
    const { g, w, h: H } = c, C = this.colors, L = P.layout, sc = P.scenario;
    const G = this.geometry(w);
    g.clearRect(0, 0, w, H);
    const tMax = sc.durationNs;
    /** @param {number} t ns */
    const x = (t) => G.padL + ((w - G.padL - G.padR) * t) / tMax;
    const laneBottom = G.lanes[2] + G.laneH;
    g.font = "11px system-ui, sans-serif";
    // The phases: flooding ones tinted, names along the top.
    sc.phases.forEach((p, i) => {
      const to = i + 1 < sc.phases.length ? sc.phases[i + 1].fromNs : tMax;
      const x0 = x(p.fromNs), x1 = x(to);
      if (p.orderEveryNs < 100e6) {
        g.fillStyle = C.flood;
        g.fillRect(x0, G.lanes[0] - 2, x1 - x0, G.retryTop + G.retryH - G.lanes[0] + 2);
      }
      g.fillStyle = C.text;
      g.textBaseline = "top";
      g.textAlign = "left";
      let name = p.name;
      while (name.length > 3 && g.measureText(name).width > x1 - x0 - 6) name = name.slice(0, -2) + "…";
      if (g.measureText(name).width <= x1 - x0 - 4) g.fillText(name, x0 + 3, G.phaseTop);
      g.strokeStyle = C.grid;
      g.beginPath(); g.moveTo(x0 + 0.5, G.phaseTop); g.lineTo(x0 + 0.5, G.retryTop + G.retryH); g.stroke();
    });
    // Lane labels and baselines.
    g.textAlign = "right";
    g.textBaseline = "middle";
    const names = w < 480 ? ["orders", "cancels", "h.beats", "retry"] : ["orders", "cancels", "heartbeats", "retry-after"];
    for (let i = 0; i < 3; i++) {
      g.fillStyle = C.text;
      g.fillText(names[i], G.padL - 6, G.lanes[i] + G.laneH / 2);
      g.strokeStyle = C.grid;
      g.strokeRect(G.padL + 0.5, G.lanes[i] + 0.5, w - G.padL - G.padR - 1, G.laneH - 1);
    }
    g.fillText(names[3], G.padL - 6, G.retryTop + G.retryH / 2);
    g.strokeRect(G.padL + 0.5, G.retryTop + 0.5, w - G.padL - G.padR - 1, G.retryH - 1);
    // The retry-after scale: up to the larger of 500 ms and the largest seen.
    let rMax = 500e6;
    for (const e of st.events) if (e.mark === L.markNone && e.outcome === REJECT && e.retry > rMax) rMax = e.retry;
    g.font = "10px system-ui, sans-serif";
    g.textAlign = "left";
    g.textBaseline = "top";
    g.fillStyle = C.text;
    g.fillText(ms(rMax), G.padL + 3, G.retryTop + 2);
    // The messages, by outcome.
    const colors = [C.accept, C.reject, C.silent, C.disconnect];
    const bar = Math.max(1.2, (w - G.padL - G.padR) * 15e6 / tMax);
    for (const e of st.events) {
      if (e.mark !== L.markNone) continue;
      const lane = e.kind === CANCEL ? 1 : e.kind === HEARTBEAT ? 2 : 0;
      g.fillStyle = colors[e.outcome] || C.bad;
      const refused = e.outcome !== ACCEPT;
      const top = G.lanes[lane] + (refused ? 1 : 4), hh = refused ? G.laneH - 2 : G.laneH - 8;
      g.fillRect(x(e.at) - bar / 2, top, bar, hh);
      if (e.outcome === REJECT && e.retry > 0) {
        const y = G.retryTop + G.retryH - 2 - ((G.retryH - 4) * e.retry) / rMax;
        g.fillRect(x(e.at) - 1.5, y - 1.5, 3, 3);
      }
    }
    // The marks: floods beginning, first silences, log-ons, the reload, disconnects.
    g.textAlign = "center";
    g.textBaseline = "bottom";
    g.font = "10px system-ui, sans-serif";
    let silentSeen = false;
    for (const e of st.events) {
      const xe = x(e.at);
      if (e.mark === L.markFlood) {
        silentSeen = false;
        g.fillStyle = C.reject;
        g.beginPath(); g.moveTo(xe - 4, G.lanes[0] - 7); g.lineTo(xe + 4, G.lanes[0] - 7); g.lineTo(xe, G.lanes[0] - 1); g.fill();
      } else if (e.mark === L.markOpen && e.at > 0) {
        g.fillStyle = C.accept;
        g.beginPath(); g.moveTo(xe - 4, laneBottom + 6); g.lineTo(xe + 4, laneBottom + 6); g.lineTo(xe, laneBottom); g.fill();
      } else if (e.mark === L.markReload) {
        g.strokeStyle = C.reload;
        g.lineWidth = 2;
        g.beginPath(); g.moveTo(xe, G.lanes[0] - 4); g.lineTo(xe, G.retryTop + G.retryH); g.stroke();
        g.lineWidth = 1;
      } else if (e.mark === L.markNone && e.outcome === SILENT && !silentSeen) {
        silentSeen = true;
        g.fillStyle = C.silent;
        g.beginPath(); g.moveTo(xe, G.lanes[0] - 8); g.lineTo(xe + 4, G.lanes[0] - 4); g.lineTo(xe, G.lanes[0]); g.lineTo(xe - 4, G.lanes[0] - 4); g.fill();
      } else if (e.mark === L.markNone && e.outcome === DISCONNECT) {
        g.strokeStyle = C.disconnect;
        g.lineWidth = 2;
        g.beginPath(); g.moveTo(xe, G.lanes[0] - 2); g.lineTo(xe, laneBottom + 2); g.stroke();
        g.lineWidth = 1;
      }
    }
    // Time not yet run, the axis.
    const xNow = x(Math.min(this.tNs, tMax));
    g.fillStyle = C.future;
    g.fillRect(xNow, G.lanes[0] - 2, w - G.padR - xNow, G.retryTop + G.retryH - G.lanes[0] + 2);
    g.fillStyle = C.text;
    g.textAlign = "center";
    g.textBaseline = "top";
    g.font = "11px system-ui, sans-serif";
    const tStep = w < 480 ? 2e9 : 1e9;
    for (let t = 0; t <= tMax + 1; t += tStep) g.fillText(t / 1e9 + " s", x(t), G.axis);
    if (sc.reloadAtNs > 0 && sc.reloadAtNs <= this.tNs) {
      g.fillStyle = C.reload;
      g.textAlign = "left";
      g.textBaseline = "top";
      g.font = "600 10px system-ui, sans-serif";
      const label = "reload: lower limits";
      const xr = x(sc.reloadAtNs);
      g.textAlign = xr + g.measureText(label).width + 4 > w - G.padR ? "right" : "left";
      g.fillText(label, g.textAlign === "right" ? xr - 4 : xr + 4, G.retryTop + 2);
    }
    const info = this.info;
    g.textAlign = "left";
    if (si === 0 && info && info.stopped) stoppedNote(g, C.bad, "gateway: " + info.status, G.padL + 8, G.lanes[1] + G.laneH / 2);
  }

  /**
   * hover shows, for the pointer over side si's timeline, the message
   * nearest it in that lane: its outcome, budget and retry-after.
   * @param {number} si
   * @param {PointerEvent} ev
   */
  hover(si, ev) {
    const P = this.api && this.api.gateway;
    const v = this.sides[si], tip = this.ui.tip;
    if (!P) return;
    const rect = v.chart.getBoundingClientRect(), w = rect.width;
    const G = this.geometry(w), px = ev.clientX - rect.left, py = ev.clientY - rect.top;
    let lane = -1;
    G.lanes.forEach((top, i) => { if (py >= top - 2 && py < top + G.laneH + 2) lane = i; });
    if (py >= G.retryTop && py < G.retryTop + G.retryH) lane = 3;
    if (lane < 0) { tip.hidden = true; return; }
    const tMax = P.scenario.durationNs;
    const t = ((px - G.padL) / (w - G.padL - G.padR)) * tMax;
    let best = null, bestD = (8 / (w - G.padL - G.padR)) * tMax;
    for (const e of this.state[si].events) {
      if (e.mark !== P.layout.markNone) continue;
      const l = e.kind === CANCEL ? 1 : e.kind === HEARTBEAT ? 2 : 0;
      if (lane === 3 ? e.outcome === ACCEPT || e.outcome === DISCONNECT : l !== lane) continue;
      const d = Math.abs(e.at - t);
      if (d < bestD) { best = e; bestD = d; }
    }
    if (!best) { tip.hidden = true; return; }
    tip.textContent = this.describe(best);
    tip.hidden = false;
    const host = this.el.getBoundingClientRect();
    tip.style.left = Math.max(0, Math.min(ev.clientX - host.left + 12, host.width - tip.offsetWidth - 4)) + "px";
    tip.style.top = ev.clientY - host.top + 14 + "px";
  }
}

export const gateway = register("gateway", GatewayViz);
