// ratelab: the Gradient2 visualization (week 4).
//
// Mounts into every <div data-viz="gradient2"> on the page. Load common.js
// first: through it, the lab's WebAssembly build (see wasm/doc.go) is loaded
// once per page, shared with the other visualizations. This file asks Go for
// the bins of virtual time due on each animation frame: one call, one
// Float64Array back (lab/gradient's EncodeStep). Go runs the server, the
// arrivals and the limit; this file only shows them.
//
// Attributes of the mount element, all optional:
//   data-wasm       URL of lab.wasm (default /static/lab.wasm)
//   data-wasm-exec  URL of wasm_exec.js, loaded only if `Go` is not defined
//                   (default /static/wasm_exec.js)
//   data-seed       seed of the arrivals and service times (default 1)
//
// Plain script, no modules, no build step, no network beyond the two files.
(function () {
  "use strict";

  var VISIBLE_NS = 30e9; // the charts show the last 30 s
  var MAX_DT_MS = 100; // a frame never advances more than this much real time
  var MAX_STEPS_SHOWN = 8; // rows of the per-step table
  var SPEEDS = ["0.5", "1", "2", "5", "10", "20"]; // virtual seconds per second

  var V = window.ratelabViz; // common.js
  var h = V.h, select = V.select;
  var thisScript = document.currentScript;

  var COLORS = {
    limit: ["--rg2-limit", "#0d5c63"],
    inflight: ["--rg2-inflight", "rgba(13,92,99,0.18)"],
    short: ["--rg2-short", "#d0781e"],
    long: ["--rg2-long", "#1d232b"],
    grid: ["--rg2-grid", "#e4e1d8"],
    band: ["--rg2-band", "rgba(194,59,46,0.07)"],
    text: ["--rg2-text", "#56606c"],
    bg: ["--rg2-bg", "#ffffff"],
  };

  function field(label, control) { return V.field("rg2", label, control); }

  function ms(ns) {
    if (!(ns > 0)) return "–";
    var m = ns / 1e6;
    return (m < 10 ? m.toFixed(1) : Math.round(m)) + " ms";
  }

  function loadText(load) {
    return +load.toFixed(2) + "×";
  }

  function Viz(root) {
    this.root = root;
    this.cfg = { impl: "reference", seed: Number(root.getAttribute("data-seed") || 1) };
    this.speed = 2;
    this.paused = false;
    this.lastFrame = 0;
    this.ready = false;
    this.sim = null;
    this.build();
  }

  Viz.prototype.colorVars = COLORS;
  Viz.prototype.maxDtMs = MAX_DT_MS;

  Viz.prototype.build = function () {
    var self = this, ui = {};
    this.ui = ui;
    ui.impl = select("impl", [["reference", "Reference"], ["yours", "Yours"]], "reference");
    ui.speed = select("speed", SPEEDS.map(function (s) { return [s, s + "×"]; }), String(this.speed));
    ui.pause = h("button", { type: "button", "data-testid": "pause", "aria-pressed": "false", text: "Pause" });
    ui.restart = h("button", { type: "button", "data-testid": "restart", text: "Restart" });
    var controls = h("form", { class: "rg2-controls", "aria-label": "Gradient2 settings" }, [
      field("Code", ui.impl), field("Speed", ui.speed), h("div", { class: "rg2-buttons" }, [ui.pause, ui.restart]),
    ]);
    controls.addEventListener("submit", function (e) { e.preventDefault(); });

    ui.status = h("span", { class: "rg2-impl", "data-testid": "impl-status", text: "Loading…" });
    ui.clock = h("span", { class: "rg2-clock", "data-testid": "clock", text: "t = 0.0 s" });
    ui.load = h("strong", { "data-testid": "load", text: "–" });
    ui.readyDot = h("span", { class: "rg2-ready", text: "live" });
    var statusLine = h("div", { class: "rg2-statusline" }, [
      ui.status, ui.clock, h("span", {}, ["load ", ui.load, h("span", { class: "rg2-muted", text: " of what the server can do" })]), ui.readyDot,
    ]);

    function figure(testid, label, note) { return V.figure("rg2", testid, label, note); }
    ui.limit = figure("limit", "Limit", "requests allowed in flight");
    ui.inflight = figure("inflight", "In flight", "now");
    ui.short = figure("rtt-short", "Short RTT", "the latest sample");
    ui.long = figure("rtt-long", "Long RTT", "slow average, the baseline");
    ui.gradient = figure("gradient", "Gradient", "tolerance × long / short, in [0.5, 1]");
    var figs = h("div", { class: "rg2-figs" }, [ui.limit.box, ui.inflight.box, ui.short.box, ui.long.box, ui.gradient.box]);

    ui.error = h("p", { class: "rg2-error", role: "alert", "data-testid": "viz-error", hidden: "" });
    ui.limitChart = h("canvas", { class: "rg2-chart", role: "img", "aria-label": "The limit and the requests in flight over time, with the load steps" });
    ui.rttChart = h("canvas", { class: "rg2-rtt", role: "img", "aria-label": "Short and long RTT over time" });
    function key(sw, text) { return V.key("rg2", sw, text); }
    var legend = h("p", { class: "rg2-legend" }, [
      key("limit", "limit"), key("inflight", "in flight"), key("short", "short RTT (mean per 50 ms)"),
      key("long", "long RTT (dashed: × tolerance)"), key("band", "load over capacity"),
    ]);

    ui.steps = h("tbody", {});
    var table = h("div", { class: "rg2-table" }, [h("table", { "data-testid": "steps" }, [
      h("caption", { text: "Per load step, oldest first: what the limit did and what it cost." }),
      h("thead", {}, [h("tr", {}, ["Step", "Load", "Limit", "Mean RTT", "Rejected", "App-limited"].map(function (t) { return h("th", { scope: "col", text: t }); }))]),
      ui.steps,
    ])]);

    this.el = h("div", { class: "rg2" }, [controls, statusLine, figs, ui.error, ui.limitChart, ui.rttChart, legend, table]);
    this.root.appendChild(this.el);

    ui.impl.addEventListener("change", function () { self.cfg.impl = ui.impl.value; self.restart(); });
    ui.speed.addEventListener("change", function () { self.speed = Number(ui.speed.value) || 2; });
    ui.pause.addEventListener("click", function () {
      self.paused = !self.paused;
      ui.pause.textContent = self.paused ? "Play" : "Pause";
      ui.pause.setAttribute("aria-pressed", self.paused ? "true" : "false");
    });
    ui.restart.addEventListener("click", function () { self.restart(); });
  };

  Viz.prototype.restart = function () {
    var s = this.newRun("newGradientSim", "Cannot run: ");
    if (!s) return;
    this.bins = [];
    this.now = 0;
    this.wanted = 0;
    this.stepRows = [];
    this.ui.steps.textContent = "";
    this.state = { limit: 0, short: 0, long: 0, inflight: 0 };
    this.updateInfo(s.info());
    this.state.limit = this.info.limit.initial;
    this.draw();
  };

  Viz.prototype.updateInfo = function (info) {
    this.info = info;
    this.stopped = info.stopped;
    var status = info.implStatus;
    if (info.stopped && info.status === "not implemented yet") {
      status = info.impl + ": not implemented yet. Write exercises/gradient2, then run make wasm.";
    }
    this.ui.status.textContent = status;
    this.ui.status.classList.toggle("rg2-bad", info.stopped);
    var period = 0;
    this.schedule = info.steps.map(function (s) { var r = { start: period, end: period + s.durationNs, load: s.load }; period += s.durationNs; return r; });
    this.period = period;
  };

  // stepAt returns the occurrence number of the load step holding time t
  // and that step.
  Viz.prototype.stepAt = function (t) {
    var cycle = Math.floor(t / this.period), in_ = t - cycle * this.period;
    for (var i = 0; i < this.schedule.length; i++) {
      if (in_ < this.schedule[i].end) return { n: cycle * this.schedule.length + i, step: this.schedule[i] };
    }
    return { n: 0, step: this.schedule[0] };
  };

  Viz.prototype.advance = function (untilNs) {
    var G = this.api.gradient, L = G.layout;
    var n = this.sim.step(untilNs, G.maxBins, this.bytes);
    var f = this.floats;
    this.now = f[L.now];
    this.state = { limit: f[L.limit], short: f[L.short], long: f[L.long], inflight: f[L.inflight] };
    for (var i = 0; i < n; i++) {
      var o = L.header + i * L.fields;
      var b = {
        start: f[o + L.start], load: f[o + L.load], limit: f[o + L.binLimit], short: f[o + L.binShort],
        long: f[o + L.binLong], inflight: f[o + L.binInflight], arrived: f[o + L.arrived],
        rejected: f[o + L.rejected], samples: f[o + L.samples], appLimited: f[o + L.appLimited],
      };
      this.bins.push(b);
      this.account(b);
    }
    var keep = Math.ceil(VISIBLE_NS / G.binNs) + 2;
    if (this.bins.length > keep * 2) this.bins.splice(0, this.bins.length - keep);
    if (f[L.stopped] && !this.stopped) this.updateInfo(this.sim.info());
  };

  // account adds a bin to the summary of its load step.
  Viz.prototype.account = function (b) {
    var at = this.stepAt(b.start);
    var row = this.stepRows[this.stepRows.length - 1];
    if (!row || row.n !== at.n) {
      row = { n: at.n, load: at.step.load, min: b.limit, max: b.limit, rttSum: 0, samples: 0, arrived: 0, rejected: 0, app: 0 };
      this.stepRows.push(row);
      if (this.stepRows.length > 64) this.stepRows.shift();
      row.el = this.addRow(row);
    }
    row.min = Math.min(row.min, b.limit);
    row.max = Math.max(row.max, b.limit);
    row.rttSum += b.short * b.samples;
    row.samples += b.samples;
    row.arrived += b.arrived;
    row.rejected += b.rejected;
    row.app += b.appLimited;
    row.dirty = true;
  };

  Viz.prototype.addRow = function (row) {
    var tr = h("tr", { "data-testid": "step-row", "data-step": String(row.n), "data-load": String(row.load) });
    this.ui.steps.appendChild(tr);
    while (this.ui.steps.children.length > MAX_STEPS_SHOWN) this.ui.steps.removeChild(this.ui.steps.firstChild);
    return tr;
  };

  Viz.prototype.updateRows = function () {
    for (var i = Math.max(0, this.stepRows.length - MAX_STEPS_SHOWN); i < this.stepRows.length; i++) {
      var r = this.stepRows[i];
      if (!r.dirty) continue;
      r.dirty = false;
      r.el.setAttribute("data-limit-min", String(r.min));
      r.el.setAttribute("data-limit-max", String(r.max));
      r.el.setAttribute("data-rejected", String(r.arrived ? r.rejected / r.arrived : 0));
      r.el.setAttribute("data-rtt", String(r.samples ? r.rttSum / r.samples : 0));
      r.el.textContent = "";
      var cells = [
        String(r.n + 1), loadText(r.load), r.min === r.max ? String(r.min) : r.min + "–" + r.max,
        ms(r.samples ? r.rttSum / r.samples : 0),
        r.arrived ? (100 * r.rejected / r.arrived).toFixed(1) + "%" : "–",
        r.samples ? (100 * r.app / r.samples).toFixed(0) + "%" : "–",
      ];
      for (var k = 0; k < cells.length; k++) r.el.appendChild(h(k === 0 ? "th" : "td", k === 0 ? { scope: "row", text: cells[k] } : { text: cells[k] }));
    }
  };

  Viz.prototype.draw = function () {
    if (!this.info) return;
    var ui = this.ui, s = this.state, L = this.info.limit;
    ui.clock.textContent = "t = " + (this.now / 1e9).toFixed(1) + " s";
    ui.load.textContent = loadText(this.stepAt(this.now).step.load);
    ui.limit.value.textContent = String(s.limit);
    ui.inflight.value.textContent = String(s.inflight);
    ui.short.value.textContent = ms(s.short);
    ui.long.value.textContent = ms(s.long);
    var grad = s.short > 0 && s.long > 0 ? Math.max(0.5, Math.min(1, L.tolerance * s.long / s.short)) : 1;
    ui.gradient.value.textContent = grad.toFixed(2);
    ui.gradient.box.classList.toggle("rg2-hot", grad < 1);
    ui.readyDot.textContent = this.stopped ? "stopped" : this.paused ? "paused" : "live";
    ui.readyDot.classList.toggle("rg2-paused", this.paused || this.stopped);
    this.updateRows();
    this.drawLimit();
    this.drawRTT();
  };

  // frameOf returns the time axis of the charts: the last VISIBLE_NS.
  Viz.prototype.axis = function (c, left, right) {
    var end = Math.max(this.now, VISIBLE_NS), start = end - VISIBLE_NS;
    var pw = c.w - left - right;
    return { start: start, end: end, x: function (t) { return left + ((t - start) / VISIBLE_NS) * pw; } };
  };

  Viz.prototype.drawBands = function (g, ax, top, bottom) {
    var C = this.colors;
    g.font = "11px system-ui, sans-serif";
    g.textBaseline = "top";
    var t = ax.start;
    while (t < ax.end) {
      var at = this.stepAt(t);
      var stepStart = Math.floor(t / this.period) * this.period + at.step.start;
      var stepEnd = stepStart + (at.step.end - at.step.start);
      var x0 = ax.x(Math.max(stepStart, ax.start)), x1 = ax.x(Math.min(stepEnd, ax.end));
      if (at.step.load > 1) {
        g.fillStyle = C.band;
        g.globalAlpha = Math.min(1, at.step.load / 1.3);
        g.fillRect(x0, top, x1 - x0, bottom - top);
        g.globalAlpha = 1;
      }
      g.strokeStyle = C.grid;
      g.beginPath();
      g.moveTo(Math.round(ax.x(stepStart)) + 0.5, top);
      g.lineTo(Math.round(ax.x(stepStart)) + 0.5, bottom);
      g.stroke();
      var label = "load " + loadText(at.step.load);
      if (x1 - x0 > g.measureText(label).width + 8) {
        g.fillStyle = C.text;
        g.fillText(label, x0 + 4, top + 2);
      }
      t = stepEnd;
    }
  };

  Viz.prototype.yAxis = function (g, c, left, right, top, bottom, ymax, fmt) {
    var C = this.colors;
    g.strokeStyle = C.grid;
    g.fillStyle = C.text;
    g.font = "11px system-ui, sans-serif";
    g.textAlign = "right";
    g.textBaseline = "middle";
    var step = V.niceStep(ymax / 4);
    g.beginPath();
    for (var v = 0; v <= ymax + 1e-9; v += step) {
      var y = Math.round(bottom - (v / ymax) * (bottom - top)) + 0.5;
      g.moveTo(left, y);
      g.lineTo(c.w - right, y);
      g.fillText(fmt(v), left - 4, y);
    }
    g.stroke();
    g.textAlign = "left";
  };

  Viz.prototype.drawLimit = function () {
    var c = V.sizeCanvas(this.ui.limitChart);
    if (!c) return;
    var g = c.g, C = this.colors, left = 36, right = 8, top = 8, bottom = c.h - 16;
    g.fillStyle = C.bg;
    g.fillRect(0, 0, c.w, c.h);
    var ax = this.axis(c, left, right);
    this.drawBands(g, ax, top, bottom);
    var ymax = this.info.limit.max * 1.1;
    this.yAxis(g, c, left, right, top, bottom, ymax, String);
    function y(v) { return bottom - (Math.min(v, ymax) / ymax) * (bottom - top); }
    // Seconds along the bottom.
    g.fillStyle = C.text;
    g.textBaseline = "top";
    g.textAlign = "center";
    for (var s = Math.ceil(ax.start / 5e9) * 5; s * 1e9 <= ax.end; s += 5) {
      var tx = ax.x(s * 1e9), tl = s + " s", half = g.measureText(tl).width / 2;
      if (tx - half >= left && tx + half <= c.w) g.fillText(tl, tx, bottom + 3);
    }
    g.textAlign = "left";
    var bins = this.bins, binNs = this.api.gradient.binNs;
    var first = 0;
    while (first < bins.length && bins[first].start + binNs < ax.start) first++;
    if (first >= bins.length) { this.drawStopped(g, left, top, bottom); return; }
    g.beginPath();
    g.moveTo(ax.x(bins[first].start), y(0));
    for (var i = first; i < bins.length; i++) g.lineTo(ax.x(bins[i].start + binNs), y(bins[i].inflight));
    g.lineTo(ax.x(bins[bins.length - 1].start + binNs), y(0));
    g.closePath();
    g.fillStyle = C.inflight;
    g.fill();
    g.beginPath();
    for (i = first; i < bins.length; i++) {
      var yy = y(bins[i].limit);
      if (i === first) g.moveTo(ax.x(bins[i].start), yy);
      g.lineTo(ax.x(bins[i].start + binNs), yy);
    }
    g.strokeStyle = C.limit;
    g.lineWidth = 2.5;
    g.stroke();
    g.lineWidth = 1;
    this.drawStopped(g, left, top, bottom);
  };

  Viz.prototype.drawStopped = function (g, left, top, bottom) {
    if (this.stopped) V.stoppedNote(g, this.colors.text, this.info.status, left + 10, (top + bottom) / 2);
  };

  Viz.prototype.drawRTT = function () {
    var c = V.sizeCanvas(this.ui.rttChart);
    if (!c) return;
    var g = c.g, C = this.colors, left = 36, right = 8, top = 6, bottom = c.h - 6;
    g.fillStyle = C.bg;
    g.fillRect(0, 0, c.w, c.h);
    var ax = this.axis(c, left, right);
    var bins = this.bins, binNs = this.api.gradient.binNs, tol = this.info.limit.tolerance;
    var first = 0;
    while (first < bins.length && bins[first].start + binNs < ax.start) first++;
    var ymax = 2 * this.info.serviceNs;
    for (var i = first; i < bins.length; i++) ymax = Math.max(ymax, bins[i].short, bins[i].long * tol);
    ymax *= 1.1;
    this.yAxis(g, c, left, right, top, bottom, ymax, function (v) { return Math.round(v / 1e6) + ""; });
    g.fillStyle = C.text;
    g.textBaseline = "top";
    g.fillText("RTT, ms", left + 4, top + 2);
    function y(v) { return bottom - (Math.min(v, ymax) / ymax) * (bottom - top); }
    if (first >= bins.length) return;
    // Short RTT: the mean of each bin's samples.
    g.beginPath();
    var on = false;
    for (i = first; i < bins.length; i++) {
      if (!bins[i].samples) { on = false; continue; }
      var xx = ax.x(bins[i].start + binNs / 2), yy = y(bins[i].short);
      if (!on) g.moveTo(xx, yy); else g.lineTo(xx, yy);
      on = true;
    }
    g.strokeStyle = C.short;
    g.lineWidth = 1.2;
    g.stroke();
    // Long RTT, and the tolerance above it: a short RTT over the dashed line
    // pulls the limit down.
    g.beginPath();
    for (i = first; i < bins.length; i++) {
      if (i === first) g.moveTo(ax.x(bins[i].start + binNs), y(bins[i].long));
      g.lineTo(ax.x(bins[i].start + binNs), y(bins[i].long));
    }
    g.strokeStyle = C.long;
    g.lineWidth = 2;
    g.stroke();
    g.beginPath();
    for (i = first; i < bins.length; i++) {
      if (i === first) g.moveTo(ax.x(bins[i].start + binNs), y(tol * bins[i].long));
      g.lineTo(ax.x(bins[i].start + binNs), y(tol * bins[i].long));
    }
    g.setLineDash([4, 4]);
    g.lineWidth = 1;
    g.stroke();
    g.setLineDash([]);
  };

  // tick runs the virtual time due in dt real milliseconds and draws
  // (common.js calls it once a frame).
  Viz.prototype.tick = function (dt) {
    // Go runs whole bins only, so the time asked for is kept here: adding
    // each frame's share to Go's bin-aligned clock would stall whenever a
    // frame is shorter than a bin.
    if (!this.paused && !this.stopped) {
      this.wanted += dt * this.speed * 1e6;
      this.advance(this.wanted);
    }
    this.draw();
  };

  Viz.prototype.start = function (api) {
    if (!api.newGradientSim) {
      this.fail(new Error("this lab.wasm predates week 4: run make wasm"));
      return;
    }
    this.api = api;
    this.bytes = new Uint8Array(api.gradient.maxBytes);
    this.floats = new Float64Array(this.bytes.buffer);
    this.begin();
  };

  window.ratelabGradient2 = V.register("gradient2", thisScript, Viz);
})();
