// ratelab: the backpressure governor visualization (week 4).
//
// Mounts into every <div data-viz="governor"> on the page. Load common.js
// first: through it, the lab's WebAssembly build (see wasm/doc.go) is loaded
// once per page, shared with the other visualizations. This file asks Go for
// the windows due on each animation frame: one call, one typed array back
// (lab/backpressure's EncodeStep). Go runs the target, the tries wrapper and
// the governor; this file only shows what they did.
//
// Attributes of the mount element, all optional:
//   data-preset     the target: "fragile" (default), "robust", "healthier", "degrades"
//   data-wasm       URL of lab.wasm (default /static/lab.wasm)
//   data-wasm-exec  URL of wasm_exec.js, loaded only if `Go` is not defined
//                   (default /static/wasm_exec.js)
//   data-seed       seed of the target's noise (default 1)
//
// Plain script, no modules, no build step, no network beyond the two files.
(function () {
  "use strict";

  var VISIBLE = 60; // windows on the charts
  var HISTORY = 240; // windows kept for the charts
  var MAX_LOG = 400; // movement lines kept in the log
  var MAX_DT_MS = 250; // a frame never advances more than this much real time

  var TARGETS = [
    ["fragile", "Fragile"],
    ["robust", "Robust"],
    ["healthier", "Gets healthier (caches warm up)"],
    ["degrades", "Degrades (a compaction starts)"],
  ];
  var SPEEDS = ["1", "2", "4", "8", "20", "60"]; // windows per second

  var V = window.ratelabViz; // common.js
  var h = V.h, select = V.select;
  var thisScript = document.currentScript;

  var COLORS = {
    offer: ["--rgv-offer", "#2d6cb5"],
    cap: ["--rgv-cap", "#1f8a4c"],
    capFill: ["--rgv-cap-fill", "rgba(31,138,76,0.12)"],
    bad: ["--rgv-bad", "#c23b2e"],
    fail: ["--rgv-fail", "#c23b2e"],
    ok: ["--rgv-ok", "#1f8a4c"],
    grid: ["--rgv-grid", "#d6d3c8"],
    text: ["--rgv-text", "#56606c"],
    bg: ["--rgv-bg", "#ffffff"],
  };

  function field(label, control) { return V.field("rgv", label, control); }

  // num writes an offer or a capacity: at most two decimals, no trailing zeros.
  function num(x) {
    return String(Math.round(x * 100) / 100);
  }

  function pct(x) {
    return (100 * x).toFixed(1) + "%";
  }

  // okFrac returns a window's request success fraction, 1 when none finished.
  function okFrac(w) {
    var done = w.ok + w.failed;
    return done ? w.ok / done : 1;
  }

  // stepPath begins a path that holds, over each window of ws, its value
  // (the field of that name, or what the function value returns) as a level
  // step, mapped by x (window index) and y (value).
  function stepPath(g, ws, x, y, value) {
    var at = typeof value === "function" ? value : function (w) { return w[value]; };
    g.beginPath();
    for (var i = 0; i < ws.length; i++) {
      var py = y(at(ws[i]));
      if (i === 0) g.moveTo(x(ws[i].index), py);
      g.lineTo(x(ws[i].index), py);
      g.lineTo(x(ws[i].index + 1), py);
    }
  }

  // ---- one visualization ---------------------------------------------------------

  function Viz(root) {
    this.root = root;
    var preset = root.getAttribute("data-preset") || "fragile";
    if (!TARGETS.some(function (t) { return t[0] === preset; })) preset = "fragile";
    this.cfg = {
      target: preset, impl: "reference", fixed: false, tries: 3,
      seed: Number(root.getAttribute("data-seed") || 1),
    };
    this.speed = 4;
    this.paused = false;
    this.due = 0;
    this.lastFrame = 0;
    this.ready = false;
    this.sim = null;
    this.info = null;
    this.stopped = false;
    this.windows = []; // the latest HISTORY windows, oldest first
    this.build();
  }

  Viz.prototype.colorVars = COLORS;
  Viz.prototype.maxDtMs = MAX_DT_MS;

  Viz.prototype.build = function () {
    var self = this, ui = {};
    this.ui = ui;

    ui.preset = select("preset", TARGETS, this.cfg.target);
    ui.impl = select("impl", [["reference", "Reference"], ["yours", "Yours"]], "reference");
    ui.mode = select("mode", [["governed", "On"], ["fixed", "Off: offer the ceiling"]], "governed");
    ui.tries = h("input", { type: "number", "data-testid": "tries", value: "3", min: "1", max: "10", step: "1", inputmode: "numeric" });
    ui.speed = select("speed", SPEEDS.map(function (s) { return [s, s + " windows/s"]; }), String(this.speed));
    ui.pause = h("button", { type: "button", "data-testid": "pause", "aria-pressed": "false", text: "Pause" });
    ui.step = h("button", { type: "button", "data-testid": "step", text: "Step", title: "Run one window" });
    ui.restart = h("button", { type: "button", "data-testid": "restart", text: "Restart" });

    var controls = h("form", { class: "rgv-controls", "aria-label": "Governor settings" }, [
      field("Target", ui.preset),
      field("Governor", ui.mode),
      field("Code", ui.impl),
      field("Tries", ui.tries),
      field("Speed", ui.speed),
      h("div", { class: "rgv-buttons" }, [ui.pause, ui.step, ui.restart]),
    ]);
    controls.addEventListener("submit", function (e) { e.preventDefault(); });

    ui.status = h("span", { class: "rgv-impl", "data-testid": "impl-status", text: "Loading…" });
    ui.window = h("strong", { "data-testid": "window", text: "0" });
    ui.readyDot = h("span", { class: "rgv-ready", text: "live" });
    ui.floor = h("span", { "data-testid": "floor", text: "–" });
    ui.ceiling = h("span", { "data-testid": "ceiling", text: "–" });
    ui.band = h("span", { "data-testid": "band", text: "" });
    var statusLine = h("div", { class: "rgv-statusline" }, [
      ui.status, h("span", { class: "rgv-muted" }, ["window ", ui.window]),
      h("span", { class: "rgv-muted" }, ["floor ", ui.floor, " · ceiling ", ui.ceiling, " · ", ui.band]),
      ui.readyDot,
    ]);

    function figure(testid, label, note) { return V.figure("rgv", testid, label, note); }
    ui.offer = figure("offer", "Offer", "concurrent attempts, next window");
    ui.capacity = figure("capacity", "Capacity", "what the target serves now");
    ui.lastBad = figure("last-bad", "last_bad", "congestion memory");
    ui.attempt = figure("attempt-failure", "Attempt failure", "attempt plane: the truth");
    ui.ok = figure("ok-percent", "Requests ok", "request plane: the dashboard");
    var figs = h("div", { class: "rgv-figs" }, [ui.offer.box, ui.capacity.box, ui.lastBad.box, ui.attempt.box, ui.ok.box]);

    ui.decision = h("p", { class: "rgv-decision", "data-testid": "decision" });
    ui.error = h("p", { class: "rgv-error", role: "alert", "data-testid": "viz-error", hidden: "" });

    ui.chart = h("canvas", { class: "rgv-chart", role: "img", "aria-label": "Offer per window against the target's capacity" });
    ui.planes = h("canvas", { class: "rgv-planes", role: "img", "aria-label": "Attempt failure and requests ok per window" });
    function key(sw, text) { return V.key("rgv", sw, text); }
    var legend = h("p", { class: "rgv-legend" }, [
      key("offer", "offer"), key("cap", "capacity"), key("bad", "last_bad (dashed: 75% of it)"),
      key("fail", "attempt failure"), key("ok", "requests ok"),
    ]);

    ui.log = h("ol", { class: "rgv-log", "data-testid": "log", "aria-label": "Movement log, newest first", reversed: "" });
    var logBox = h("details", { class: "rgv-logbox", open: "" }, [
      h("summary", {}, ["Movement log ", h("span", { class: "rgv-muted", text: "(one line per window that moved the offer or the memory, newest first)" })]),
      ui.log,
    ]);

    this.el = h("div", { class: "rgv" }, [controls, statusLine, figs, ui.decision, ui.error, ui.chart, ui.planes, legend, logBox]);
    this.root.appendChild(this.el);

    ui.preset.addEventListener("change", function () { self.readControls(); self.restart(); });
    ui.impl.addEventListener("change", function () { self.readControls(); self.restart(); });
    ui.mode.addEventListener("change", function () { self.readControls(); self.restart(); });
    ui.tries.addEventListener("change", function () { self.readControls(); self.restart(); });
    ui.speed.addEventListener("change", function () { self.speed = Number(ui.speed.value) || 4; });
    ui.pause.addEventListener("click", function () { self.setPaused(!self.paused); });
    ui.step.addEventListener("click", function () {
      self.setPaused(true);
      if (self.sim) { self.advance(1); self.draw(); }
    });
    ui.restart.addEventListener("click", function () { self.restart(); });
  };

  Viz.prototype.readControls = function () {
    var ui = this.ui;
    this.cfg.target = ui.preset.value;
    this.cfg.impl = ui.impl.value;
    this.cfg.fixed = ui.mode.value === "fixed";
    this.cfg.tries = Number(ui.tries.value);
  };

  Viz.prototype.setPaused = function (p) {
    this.paused = p;
    this.due = 0;
    this.ui.pause.textContent = p ? "Play" : "Pause";
    this.ui.pause.setAttribute("aria-pressed", p ? "true" : "false");
  };

  // restart makes a new run from the settings and clears the charts and the log.
  Viz.prototype.restart = function () {
    var s = this.newRun("newGovernorSim", "Cannot run these settings: ");
    if (!s) return;
    this.windows = [];
    this.due = 0;
    this.ui.log.textContent = "";
    this.ui.decision.textContent = "";
    this.logCount = 0;
    this.lastWindow = null;
    this.updateInfo(s.info());
    this.draw();
  };

  // updateInfo refreshes what changes only at a restart or when the run stops.
  Viz.prototype.updateInfo = function (info) {
    this.info = info;
    this.stopped = info.stopped;
    this.offer = info.offer;
    this.lastBad = info.lastBad;
    this.capacity = info.capacity;
    var st = this.ui.status;
    var status = info.implStatus;
    if (info.stopped && info.status === "not implemented yet") {
      status = info.impl + ": not implemented yet. Write exercises/governor, then run make wasm.";
    }
    st.textContent = status;
    st.classList.toggle("rgv-bad", info.stopped);
    this.ui.floor.textContent = num(info.floor);
    this.ui.ceiling.textContent = num(info.ceiling);
    this.ui.band.textContent = "clean ≤ " + pct(info.low) + ", breach > " + pct(info.high);
  };

  // advance runs up to n windows in one call to Go and takes in what they did.
  Viz.prototype.advance = function (n) {
    var G = this.api.governor, L = G.layout;
    n = Math.min(n, G.maxSteps);
    if (n <= 0 || this.stopped) return 0;
    var got = this.sim.step(n, this.bytes);
    var f = this.floats;
    var wasStopped = this.stopped;
    this.offer = f[L.offer];
    this.lastBad = f[L.lastBad];
    this.capacity = f[L.capacity];
    var textAt = 8 * (L.header + got * L.fields);
    for (var i = 0; i < got; i++) {
      var o = L.header + i * L.fields;
      var rb = f[o + L.reasonBytes];
      var w = {
        index: f[o + L.index], offer: f[o + L.windowOffer], slots: f[o + L.slots],
        capacity: f[o + L.windowCapacity], attempts: f[o + L.attempts], failures: f[o + L.failures],
        retries: f[o + L.retries], ok: f[o + L.ok], failed: f[o + L.failed],
        action: f[o + L.action], next: f[o + L.next], lastBad: f[o + L.windowLastBad],
        reason: this.decoder.decode(this.bytes.subarray(textAt, textAt + rb)),
      };
      w.memory = this.lastWindow ? this.lastWindow.lastBad : 0; // the memory during the window
      textAt += rb;
      this.windows.push(w);
      if (w.action !== 0) this.logLine(w);
      this.lastWindow = w;
    }
    if (this.windows.length > HISTORY) this.windows.splice(0, this.windows.length - HISTORY);
    if (f[L.stopped] && !wasStopped) this.updateInfo(this.sim.info());
    return got;
  };

  // logLine adds one movement to the log, newest first.
  Viz.prototype.logLine = function (w) {
    var act = this.api.governor.actions[w.action] || "action " + w.action;
    var cleared = w.memory > 0 && w.lastBad === 0 && w.action !== 2;
    var li = h("li", {
      class: "rgv-line rgv-act-" + act.replace(" ", "-") + (cleared ? " rgv-cleared" : ""),
      "data-window": String(w.index), "data-action": act, "data-offer": String(w.offer),
      "data-next": String(w.next), "data-last-bad": String(w.lastBad), "data-capacity": String(w.capacity),
      "data-frac": String(w.attempts ? w.failures / w.attempts : 0),
    }, [
      h("span", { class: "rgv-line-w", text: "w" + w.index }),
      h("span", { class: "rgv-line-act", text: cleared ? "memory cleared" : act }),
      h("span", { class: "rgv-line-why", text: w.reason }),
    ]);
    this.ui.log.insertBefore(li, this.ui.log.firstChild);
    this.logCount++;
    if (this.logCount > MAX_LOG) { this.ui.log.removeChild(this.ui.log.lastChild); this.logCount--; }
  };

  // ---- figures and charts -----------------------------------------------------------

  Viz.prototype.draw = function () {
    if (!this.info) return;
    this.updateFigures();
    this.drawChart();
    this.drawPlanes();
  };

  Viz.prototype.updateFigures = function () {
    var ui = this.ui, info = this.info, w = this.lastWindow;
    ui.window.textContent = String(this.windows.length ? w.index + 1 : 0);
    ui.offer.value.textContent = num(this.offer);
    ui.capacity.value.textContent = num(this.capacity);
    ui.lastBad.value.textContent = this.lastBad > 0 ? num(this.lastBad) : "none";
    ui.lastBad.note.textContent = this.lastBad > 0
      ? "x1.5 climbs stop at " + num(0.75 * this.lastBad)
      : info.fixed ? "no governor" : "unexplored: slow start doubles";
    if (!w) {
      ui.attempt.value.textContent = "–";
      ui.ok.value.textContent = "–";
    } else {
      var frac = w.attempts ? w.failures / w.attempts : 0;
      var ok = okFrac(w);
      ui.attempt.value.textContent = pct(frac);
      ui.ok.value.textContent = pct(ok);
      ui.attempt.box.classList.toggle("rgv-hot", frac > info.high);
      ui.attempt.box.classList.toggle("rgv-warm", frac > info.low && frac <= info.high);
      ui.ok.box.classList.toggle("rgv-green", ok >= 0.95);
      ui.ok.box.classList.toggle("rgv-red", ok < 0.8);
      ui.attempt.note.textContent = "attempt plane: the truth; " + w.retries + " retries";
      ui.decision.textContent = "Window " + w.index + ": " + w.reason;
    }
    ui.readyDot.textContent = this.stopped ? "stopped" : this.paused ? "paused" : "live";
    ui.readyDot.classList.toggle("rgv-paused", this.paused || this.stopped);
  };

  // visible returns the windows on the charts and the index of the window
  // in the first slot.
  Viz.prototype.visible = function () {
    var ws = this.windows.slice(-VISIBLE);
    return { ws: ws, first: Math.max(0, (ws.length ? ws[ws.length - 1].index + 1 : 0) - VISIBLE) };
  };

  Viz.prototype.drawChart = function () {
    var c = V.sizeCanvas(this.ui.chart);
    if (!c) return;
    var g = c.g, C = this.colors, info = this.info;
    var left = 34, right = 8, top = 16, bottom = 18;
    var pw = c.w - left - right, ph = c.h - top - bottom;
    g.fillStyle = C.bg;
    g.fillRect(0, 0, c.w, c.h);
    var v = this.visible(), ws = v.ws;
    // The scale follows what is on the chart, so a target far below the
    // ceiling is not squashed flat; the ceiling shows when it is in range.
    var ymax = Math.max(this.capacity, this.offer, 2 * info.floor);
    for (var i = 0; i < ws.length; i++) ymax = Math.max(ymax, ws[i].capacity, ws[i].offer, ws[i].memory);
    ymax *= 1.15;
    if (info.ceiling <= ymax * 1.25) ymax = Math.max(ymax, info.ceiling * 1.1);
    var slot = pw / VISIBLE;
    function x(index) { return left + (index - v.first) * slot; }
    function y(val) { return top + ph - (Math.min(val, ymax) / ymax) * ph; }

    // Grid and axis labels.
    g.font = "11px system-ui, sans-serif";
    g.fillStyle = C.text;
    g.strokeStyle = C.grid;
    g.lineWidth = 1;
    g.textBaseline = "middle";
    g.textAlign = "right";
    var stepY = V.niceStep(ymax / 4);
    g.beginPath();
    for (var yy = 0; yy <= ymax + 1e-9; yy += stepY) {
      var py = Math.round(y(yy)) + 0.5;
      g.moveTo(left, py);
      g.lineTo(c.w - right, py);
      g.fillText(String(yy), left - 4, py);
    }
    g.stroke();
    g.textAlign = "center";
    g.textBaseline = "top";
    for (var k = Math.ceil(v.first / 10) * 10; k < v.first + VISIBLE; k += 10) {
      g.fillText(String(k), x(k), top + ph + 4);
    }
    g.textAlign = "left";

    // The ceiling, or a note that it is above the chart.
    g.textBaseline = "bottom";
    if (info.ceiling <= ymax) {
      g.setLineDash([4, 4]);
      g.strokeStyle = C.text;
      g.beginPath();
      g.moveTo(left, Math.round(y(info.ceiling)) + 0.5);
      g.lineTo(c.w - right, Math.round(y(info.ceiling)) + 0.5);
      g.stroke();
      g.setLineDash([]);
      g.fillText("ceiling " + num(info.ceiling), left + 4, y(info.ceiling) - 2);
    } else {
      g.textAlign = "right";
      g.textBaseline = "top";
      g.fillText("ceiling " + num(info.ceiling) + ", above the chart ↑", c.w - right - 2, 0);
      g.textAlign = "left";
    }

    if (!ws.length) {
      this.drawStopped(g, left, top, pw, ph);
      return;
    }

    // Capacity: the area the target can take.
    g.beginPath();
    g.moveTo(x(ws[0].index), y(0));
    for (i = 0; i < ws.length; i++) {
      g.lineTo(x(ws[i].index), y(ws[i].capacity));
      g.lineTo(x(ws[i].index + 1), y(ws[i].capacity));
    }
    g.lineTo(x(ws[ws.length - 1].index + 1), y(0));
    g.closePath();
    g.fillStyle = C.capFill;
    g.fill();
    stepPath(g, ws, x, y, "capacity");
    g.strokeStyle = C.cap;
    g.lineWidth = 1.5;
    g.stroke();

    // last_bad during each window, and 75% of it.
    g.lineWidth = 2;
    g.strokeStyle = C.bad;
    for (i = 0; i < ws.length; i++) {
      var m = ws[i].memory;
      if (!(m > 0)) continue;
      g.setLineDash([2, 3]);
      g.beginPath();
      g.moveTo(x(ws[i].index), y(m));
      g.lineTo(x(ws[i].index + 1), y(m));
      g.stroke();
      g.setLineDash([6, 4]);
      g.globalAlpha = 0.45;
      g.lineWidth = 1;
      g.beginPath();
      g.moveTo(x(ws[i].index), y(0.75 * m));
      g.lineTo(x(ws[i].index + 1), y(0.75 * m));
      g.stroke();
      g.globalAlpha = 1;
      g.lineWidth = 2;
    }
    g.setLineDash([]);

    // The offer, a step per window.
    stepPath(g, ws, x, y, "offer");
    g.strokeStyle = C.offer;
    g.lineWidth = 2.5;
    g.stroke();
    g.lineWidth = 1;

    // Markers: a back-off, and a memory that cleared.
    for (i = 0; i < ws.length; i++) {
      var w = ws[i], cx = x(w.index + 0.5), cy = y(w.offer);
      if (w.action === 2) {
        g.fillStyle = C.bad;
        g.beginPath();
        g.moveTo(cx - 5, cy - 11);
        g.lineTo(cx + 5, cy - 11);
        g.lineTo(cx, cy - 3);
        g.closePath();
        g.fill();
      } else if (w.memory > 0 && w.lastBad === 0) {
        g.fillStyle = C.cap;
        g.beginPath();
        g.arc(cx, cy - 8, 4, 0, 2 * Math.PI);
        g.fill();
      }
    }
    if (this.stopped) this.drawStopped(g, left, top, pw, ph);
  };

  Viz.prototype.drawStopped = function (g, left, top, pw, ph) {
    if (this.stopped) V.stoppedNote(g, this.colors.text, this.info.status, left + 10, top + ph / 2);
  };

  Viz.prototype.drawPlanes = function () {
    var c = V.sizeCanvas(this.ui.planes);
    if (!c) return;
    var g = c.g, C = this.colors;
    var left = 34, right = 8, top = 8, bottom = 6;
    var pw = c.w - left - right, ph = c.h - top - bottom;
    g.fillStyle = C.bg;
    g.fillRect(0, 0, c.w, c.h);
    var v = this.visible(), ws = v.ws;
    var slot = pw / VISIBLE;
    function x(index) { return left + (index - v.first) * slot; }
    function y(f) { return top + ph - f * ph; }
    g.font = "11px system-ui, sans-serif";
    g.fillStyle = C.text;
    g.strokeStyle = C.grid;
    g.textAlign = "right";
    g.textBaseline = "middle";
    g.beginPath();
    [0, 0.5, 1].forEach(function (f) {
      var py = Math.round(y(f)) + 0.5;
      g.moveTo(left, py);
      g.lineTo(c.w - right, py);
      g.fillText(100 * f + "%", left - 4, py);
    });
    g.stroke();
    g.textAlign = "left";
    if (!ws.length) return;
    g.fillStyle = C.fail;
    for (var i = 0; i < ws.length; i++) {
      var w = ws[i];
      var frac = w.attempts ? w.failures / w.attempts : 0;
      if (frac > 0) {
        var hgt = Math.max(1.5, frac * ph);
        g.fillRect(x(w.index) + 1, y(0) - hgt, Math.max(1, slot - 2), hgt);
      }
    }
    stepPath(g, ws, x, y, okFrac);
    g.strokeStyle = C.ok;
    g.lineWidth = 2;
    g.stroke();
    g.lineWidth = 1;
  };

  // ---- the frame loop ----------------------------------------------------------------

  // tick runs the windows due in dt real milliseconds and draws (common.js
  // calls it once a frame).
  Viz.prototype.tick = function (dt) {
    if (!this.paused && !this.stopped) {
      this.due += (dt / 1000) * this.speed;
      var n = Math.floor(this.due);
      if (n > 0) {
        this.due -= n;
        this.advance(n);
      }
    }
    this.draw();
  };

  Viz.prototype.start = function (api) {
    if (!api.newGovernorSim) {
      this.fail(new Error("this lab.wasm predates week 4: run make wasm"));
      return;
    }
    this.api = api;
    this.bytes = new Uint8Array(api.governor.maxBytes);
    this.floats = new Float64Array(this.bytes.buffer, 0, Math.floor(api.governor.maxBytes / 8));
    this.decoder = new TextDecoder();
    this.begin();
  };

  // ---- mounting ----------------------------------------------------------------------

  window.ratelabGovernor = V.register("governor", thisScript, Viz);
})();
