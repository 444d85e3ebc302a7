// ratelab: the limiters visualization.
//
// Mounts into every <div data-viz="limiters"> on the page. Load common.js
// first: through it, the lab's WebAssembly build (/static/lab.wasm, or the
// mount's data-wasm) is loaded once per page, shared with the other
// visualizations; it defines the global `ratelab` (see wasm/doc.go). Once per
// animation frame this file asks Go to decide a batch of messages (one call,
// typed arrays back) and draws: Go decides and measures, this file only shows.
//
// Attributes of the mount element, all optional:
//   data-preset     "edge-attack", "naive-refill" or absent
//   data-wasm       URL of lab.wasm (default /static/lab.wasm)
//   data-wasm-exec  URL of wasm_exec.js, loaded only if `Go` is not defined
//                   (default /static/wasm_exec.js)
//   data-seed       seed of the random scenarios (default 1)
//
// Plain script, no modules, no build step, no network beyond the two files.
(function () {
  "use strict";

  var MAX_PER_FRAME = 20000; // messages decided per frame at most
  var BINS_PER_WINDOW = 300; // timeline resolution: bins per window W
  var VISIBLE_WINDOWS = 2; // the timeline shows the last 2W
  var RING = 1024; // bins kept (3W of history, a power of two)
  var MAX_DT_MS = 100; // a frame never advances more than this much real time

  var LANES = [
    { id: "fixed", name: "Fixed window" },
    { id: "sliding", name: "Sliding window" },
    { id: "tokenbucket", name: "Token bucket" },
    { id: "slidinglog", name: "Sliding log" },
    { id: "gcra", name: "GCRA" },
  ];

  var TRAFFIC = [
    ["steady", "Steady"],
    ["bursty", "Bursty"],
    ["random", "Random (Poisson)"],
    ["edge", "Edge attack"],
    ["naive-demo", "Naive demo (every 100 µs)"],
  ];

  var SPEEDS = ["0.1", "0.25", "0.5", "1", "2", "5", "10", "30"];

  var PRESETS = {
    "edge-attack": {
      traffic: "edge", limit: 100, windowMs: 1000, buckets: 10, burst: 0,
      refill: "exact", show: ["fixed", "sliding", "tokenbucket"],
    },
    "naive-refill": {
      traffic: "naive-demo", limit: 1000, windowMs: 1000, buckets: 10, burst: 10,
      refill: "naive", show: ["tokenbucket", "gcra"],
    },
    "": {
      traffic: "bursty", limit: 100, windowMs: 1000, buckets: 10, burst: 0,
      refill: "exact", show: ["fixed", "sliding", "tokenbucket"],
    },
  };

  // The naive demo's numbers: 1,000 tokens/s, a burst of 10.
  var NAIVE_DEMO = { limit: 1000, windowMs: 1000, burst: 10, refill: "naive" };

  var V = window.ratelabViz; // common.js
  var h = V.h, select = V.select;
  var thisScript = document.currentScript;

  var COLORS = {
    acc: ["--rlv-acc", "#1f8a4c"],
    ref: ["--rlv-ref", "#c23b2e"],
    cnt: ["--rlv-cnt", "#2d6cb5"],
    cntFill: ["--rlv-cnt-fill", "rgba(45,108,181,0.18)"],
    over: ["--rlv-over", "rgba(194,59,46,0.35)"],
    grid: ["--rlv-grid", "#c9c6bb"],
    faint: ["--rlv-faint", "#e7e5dd"],
    text: ["--rlv-text", "#56606c"],
    bg: ["--rlv-bg", "#ffffff"],
  };

  // ---- small DOM helpers -------------------------------------------------

  function field(label, control) { return V.field("rlv", label, control); }

  function numberInput(testid, value, min, max, step) {
    return h("input", {
      type: "number", "data-testid": testid, value: String(value),
      min: String(min), max: String(max), step: String(step || 1), inputmode: "decimal",
    });
  }

  function formatSeconds(ns) {
    var s = ns / 1e9;
    if (s < 10) return s.toFixed(3) + " s";
    if (s < 100) return s.toFixed(2) + " s";
    return s.toFixed(1) + " s";
  }

  function formatWindow(ns) {
    if (ns >= 1e9 && ns % 1e8 === 0) return ns / 1e9 + " s";
    if (ns >= 1e6) return +(ns / 1e6).toFixed(3) + " ms";
    return +(ns / 1e3).toFixed(3) + " µs";
  }

  // formatCredit writes whole tokens plus billionths exactly: "999.9".
  function formatCredit(whole, units) {
    if (!units) return String(whole);
    var frac = String(units + 1e9).slice(1).replace(/0+$/, "");
    return whole + "." + frac;
  }

  // ---- one visualization -------------------------------------------------

  function Viz(root) {
    this.root = root;
    var preset = PRESETS[root.getAttribute("data-preset") || ""] || PRESETS[""];
    this.cfg = {
      traffic: preset.traffic, limit: preset.limit, windowMs: preset.windowMs,
      buckets: preset.buckets, burst: preset.burst, refill: preset.refill,
      impl: "reference", seed: Number(root.getAttribute("data-seed") || 1),
    };
    this.show = {};
    for (var i = 0; i < LANES.length; i++) this.show[LANES[i].id] = preset.show.indexOf(LANES[i].id) >= 0;
    this.speed = 1;
    this.paused = false;
    this.sim = null;
    this.info = null;
    this.stopped = -1;
    this.lastFrame = 0;
    this.ready = false;
    this.slowed = false;
    this.batch = new Uint8Array(new ArrayBuffer(9 * MAX_PER_FRAME));
    this.times = new Float64Array(this.batch.buffer, 0, MAX_PER_FRAME);
    this.acc = [];
    this.ref = [];
    for (var l = 0; l < LANES.length; l++) {
      this.acc.push(new Uint32Array(RING));
      this.ref.push(new Uint32Array(RING));
    }
    this.build();
    this.readColors();
  }

  Viz.prototype.colorVars = COLORS;
  Viz.prototype.maxDtMs = MAX_DT_MS;

  Viz.prototype.build = function () {
    var self = this;
    var c = this.cfg;
    var ui = {};
    this.ui = ui;

    ui.traffic = select("traffic", TRAFFIC, c.traffic);
    ui.limit = numberInput("limit", c.limit, 1, 100000);
    ui.window = numberInput("window", c.windowMs, 0.001, 60000, "any");
    ui.buckets = numberInput("buckets", c.buckets, 1, 10000);
    ui.burst = numberInput("burst", c.burst || "", 0, 1000000);
    ui.burst.placeholder = "= N";
    ui.refill = select("refill", [["exact", "Exact"], ["naive", "Naive"]], c.refill);
    ui.impl = select("impl", [["reference", "Reference"], ["yours", "Yours"]], c.impl);
    ui.speed = select("speed", SPEEDS.map(function (s) { return [s, s + "×"]; }), "1");
    ui.pause = h("button", { type: "button", "data-testid": "pause", "aria-pressed": "false", text: "Pause" });
    ui.step = h("button", { type: "button", "data-testid": "step", text: "Step", title: "Decide the next message" });
    ui.restart = h("button", { type: "button", "data-testid": "restart", text: "Restart" });

    var controls = h("form", { class: "rlv-controls", "aria-label": "Simulation settings" }, [
      h("div", { class: "rlv-row" }, [
        field("Traffic", ui.traffic),
        field("N per window", ui.limit),
        field("W (ms)", ui.window),
        field("K buckets", ui.buckets),
        field("b burst", ui.burst),
        field("Refill", ui.refill),
        field("Code", ui.impl),
      ]),
      h("div", { class: "rlv-row" }, [
        field("Speed", ui.speed),
        h("div", { class: "rlv-buttons" }, [ui.pause, ui.step, ui.restart]),
        h("fieldset", { class: "rlv-show" }, [h("legend", { text: "Show" })].concat(LANES.map(function (lane) {
          var box = h("input", { type: "checkbox", "data-testid": "show-" + lane.id });
          box.checked = self.show[lane.id];
          box.addEventListener("change", function () {
            self.show[lane.id] = box.checked;
            self.layoutLanes();
          });
          ui["show-" + lane.id] = box;
          return h("label", { class: "rlv-check" }, [box, " " + lane.name]);
        }))),
      ]),
    ]);
    controls.addEventListener("submit", function (e) { e.preventDefault(); });

    ui.status = h("span", { class: "rlv-impl", "data-testid": "impl-status", text: "Loading…" });
    ui.clock = h("span", { class: "rlv-clock", "data-testid": "clock", text: "t = 0.000 s" });
    ui.messages = h("span", { class: "rlv-muted", "data-testid": "messages", text: "0" });
    ui.readyDot = h("span", { class: "rlv-ready", text: "live" });
    ui.last = h("span", { class: "rlv-last", "data-testid": "last-message" });
    var statusLine = h("div", { class: "rlv-statusline" }, [
      ui.status, ui.clock, h("span", { class: "rlv-muted" }, [ui.messages, " messages"]), ui.last, ui.readyDot,
    ]);

    ui.keyText = h("p", { class: "rlv-key-text" });
    ui.keyFig = h("p", { class: "rlv-key-fig", "data-testid": "key-figure" });
    ui.lost = h("span", { class: "rlv-lost-value", "data-testid": "lost-credit", text: "0" });
    ui.lostNote = h("span", { class: "rlv-muted" });
    ui.lostLine = h("p", { class: "rlv-lost" }, ["Credit lost to rounding: ", ui.lost, " tokens ", ui.lostNote]);
    ui.note = h("p", { class: "rlv-note" });
    ui.error = h("p", { class: "rlv-error", role: "alert", "data-testid": "viz-error", hidden: "" });
    var key = h("div", { class: "rlv-key" }, [ui.keyText, ui.keyFig, ui.lostLine, ui.note, ui.error]);

    ui.lanes = [];
    var lanesBox = h("div", { class: "rlv-lanes" });
    LANES.forEach(function (lane) {
      var L = {};
      L.accepted = h("span", { "data-testid": "accepted-" + lane.id, text: "0" });
      L.refused = h("span", { "data-testid": "refused-" + lane.id, text: "0" });
      L.max = h("span", { class: "rlv-max", "data-testid": "max-in-window-" + lane.id, text: "0" });
      L.flag = h("span", { class: "rlv-flag" });
      L.vs = h("span", { class: "rlv-muted" });
      L.note = h("span", { class: "rlv-lane-note" });
      L.status = h("p", { class: "rlv-lane-status", "data-testid": "status-" + lane.id });
      L.stateText = h("span", { class: "rlv-state-text", "data-testid": "state-" + lane.id });
      L.meter = h("div", { class: "rlv-meter" });
      L.meterFill = h("div", { class: "rlv-meter-fill" });
      L.meter.appendChild(L.meterFill);
      L.bucketBars = h("div", { class: "rlv-bucketbars", "aria-hidden": "true" });
      L.canvas = h("canvas", { class: "rlv-canvas", role: "img", "aria-label": lane.name + " timeline" });
      L.panel = h("div", { class: "rlv-panel" }, [
        h("div", { class: "rlv-lane-head" }, [h("strong", { text: lane.name }), L.note]),
        L.status,
        h("p", { class: "rlv-figs" }, [
          h("span", {}, ["accepted ", L.accepted]), " · ",
          h("span", {}, ["refused ", L.refused]),
        ]),
        h("p", { class: "rlv-figs" }, ["max in any W: ", L.max, L.flag, " ", L.vs]),
        h("div", { class: "rlv-state" }, [L.stateText, L.meter, L.bucketBars]),
      ]);
      L.el = h("section", { class: "rlv-lane", "data-lane": lane.id, "aria-label": lane.name }, [L.panel, h("div", { class: "rlv-canvas-box" }, [L.canvas])]);
      lanesBox.appendChild(L.el);
      ui.lanes.push(L);
    });

    var legend = h("p", { class: "rlv-legend" }, [
      h("span", { class: "rlv-swatch rlv-sw-acc" }), " accepted ",
      h("span", { class: "rlv-swatch rlv-sw-ref" }), " refused ",
      h("span", { class: "rlv-swatch rlv-sw-cnt" }), " accepted in the trailing W (dashed: N) ",
      h("span", { class: "rlv-muted", text: "· vertical lines: window boundaries" }),
    ]);

    this.el = h("div", { class: "rlv" }, [controls, statusLine, key, legend, lanesBox]);
    this.root.appendChild(this.el);

    // Any setting restarts the run.
    [ui.limit, ui.window, ui.buckets, ui.burst, ui.refill, ui.impl].forEach(function (el) {
      el.addEventListener("change", function () { self.readControls(); self.restart(); });
    });
    ui.traffic.addEventListener("change", function () {
      if (ui.traffic.value === "naive-demo") {
        ui.limit.value = NAIVE_DEMO.limit;
        ui.window.value = NAIVE_DEMO.windowMs;
        ui.burst.value = NAIVE_DEMO.burst;
        ui.refill.value = NAIVE_DEMO.refill;
        self.show.tokenbucket = self.show.gcra = true;
        ui["show-tokenbucket"].checked = ui["show-gcra"].checked = true;
        self.layoutLanes();
      }
      self.readControls();
      self.restart();
    });
    ui.speed.addEventListener("change", function () { self.speed = Number(ui.speed.value) || 1; });
    ui.pause.addEventListener("click", function () { self.setPaused(!self.paused); });
    ui.step.addEventListener("click", function () {
      self.setPaused(true);
      if (self.sim) self.advance(1, 1e30);
    });
    ui.restart.addEventListener("click", function () { self.restart(); });

    this.layoutLanes();
  };

  Viz.prototype.readControls = function () {
    var ui = this.ui;
    this.cfg.traffic = ui.traffic.value;
    this.cfg.limit = Number(ui.limit.value);
    this.cfg.windowMs = Number(ui.window.value);
    this.cfg.buckets = Number(ui.buckets.value);
    this.cfg.burst = ui.burst.value === "" ? 0 : Number(ui.burst.value);
    this.cfg.refill = ui.refill.value;
    this.cfg.impl = ui.impl.value;
  };

  Viz.prototype.setPaused = function (p) {
    this.paused = p;
    this.ui.pause.textContent = p ? "Play" : "Pause";
    this.ui.pause.setAttribute("aria-pressed", p ? "true" : "false");
  };

  Viz.prototype.layoutLanes = function () {
    for (var i = 0; i < LANES.length; i++) this.ui.lanes[i].el.hidden = !this.show[LANES[i].id];
  };

  // restart makes a new simulation from the settings and clears the timeline.
  Viz.prototype.restart = function () {
    var s = this.newRun("newSim", "Cannot run these settings: ");
    if (!s) return;
    this.stopped = -1;
    this.slowed = false;
    this.ui.last.textContent = "";
    var info = s.info();
    this.info = info;
    this.windowNs = info.windowNs;
    this.binNs = info.windowNs / BINS_PER_WINDOW;
    this.lastBin = -1;
    for (var l = 0; l < LANES.length; l++) { this.acc[l].fill(0); this.ref[l].fill(0); }
    var K = info.buckets;
    this.stateBytes = new Uint8Array(8 * (this.api.layout.header + LANES.length * this.api.layout.laneFields + K));
    this.state = new Float64Array(this.stateBytes.buffer);
    this.buildBucketBars(K);
    this.updateInfo();
    this.readState();
    this.drawAll();
  };

  Viz.prototype.buildBucketBars = function (K) {
    var box = this.ui.lanes[1].bucketBars;
    box.textContent = "";
    this.bars = [];
    if (K > 60) { box.hidden = true; return; }
    box.hidden = false;
    for (var i = 0; i < K; i++) {
      var bar = h("span", { class: "rlv-bucket" });
      var fill = h("span", { class: "rlv-bucket-fill" });
      bar.appendChild(fill);
      box.appendChild(bar);
      this.bars.push(fill);
    }
  };

  // updateInfo refreshes what changes only when a lane stops.
  Viz.prototype.updateInfo = function () {
    var info = this.info, ui = this.ui;
    ui.status.textContent = info.implStatus;
    ui.status.classList.toggle("rlv-bad", info.implStatus.indexOf(":") >= 0);
    var N = info.limit;
    for (var i = 0; i < LANES.length; i++) {
      var L = ui.lanes[i], li = info.lanes[i];
      var note = "";
      if (i === 0 || i === 3) note = "lab";
      else if (i === 2 && info.refill === "naive") note = "naive refill (lab)";
      else note = info.impl.toLowerCase();
      L.note.textContent = note;
      L.status.textContent = li.stopped ? "Stopped: " + li.status : "";
      L.status.hidden = !li.stopped;
      L.el.classList.toggle("rlv-stopped", li.stopped);
      L.vs.textContent = i === 2 || i === 4 ? "(N " + N + ", b + r·W " + info.bound + ")" : "(N " + N + ")";
    }
    var w = formatWindow(info.windowNs);
    ui.keyText.textContent = "";
    ui.keyText.appendChild(document.createTextNode("Every limiter has the same long-run limit: N = " + N +
      " per W = " + w + " (token bucket and GCRA: r = " + info.rate + "/s, b = " + info.burst + "). " +
      "The figure to watch is max in any W: the most messages a limiter accepted in any interval of length W."));
    ui.lostNote.textContent = info.refill === "naive"
      ? "(naive refill rounds every refill down to whole tokens)"
      : "(exact refill keeps every fraction; switch Refill to Naive)";
    ui.lostLine.classList.toggle("rlv-active", info.refill === "naive");
    var note = "";
    if (info.traffic === "edge") note = "Edge attack: N messages in the last 50 ms before a window boundary and N more in the 50 ms after it, every other window.";
    else if (info.traffic === "naive-demo") note = "Naive demo: a call every 100 µs, " + info.rate + " tokens/s, so each call earns " + +(info.rate / 1e4).toFixed(4) + " token. The GCRA decides exactly as an exact token bucket would.";
    ui.note.textContent = note;
    ui.note.hidden = !note;
  };

  // advance decides up to max messages up to virtual time untilNs.
  Viz.prototype.advance = function (max, untilNs) {
    var n = this.sim.step(max, untilNs, this.batch);
    this.slowed = n === max && max > 1;
    var times = this.times, masks = this.batch, off = 8 * n;
    var stopped = this.stopped < 0 ? 0 : this.stopped;
    for (var i = 0; i < n; i++) {
      var bin = Math.floor(times[i] / this.binNs);
      this.advanceBins(bin);
      var slot = bin & (RING - 1), m = masks[off + i];
      for (var l = 0; l < LANES.length; l++) {
        if ((m >> l) & 1) this.acc[l][slot]++;
        else if (!((stopped >> l) & 1)) this.ref[l][slot]++;
      }
    }
    if (n > 0) this.showLast(times[n - 1], masks[off + n - 1]);
    this.readState();
  };

  // showLast describes the latest message decided: its time to the
  // microsecond and each shown lane's answer.
  Viz.prototype.showLast = function (t, mask) {
    var parts = [];
    for (var l = 0; l < LANES.length; l++) {
      if (!this.show[LANES[l].id] || (this.stopped >> l) & 1) continue;
      parts.push(LANES[l].name + ((mask >> l) & 1 ? " ✓" : " ✗"));
    }
    this.ui.last.textContent = "last message at " + (t / 1e9).toFixed(6) + " s: " + parts.join(", ");
  };

  // advanceBins clears the ring up to bin.
  Viz.prototype.advanceBins = function (bin) {
    if (bin <= this.lastBin) return;
    if (bin - this.lastBin >= RING) {
      for (var l = 0; l < LANES.length; l++) { this.acc[l].fill(0); this.ref[l].fill(0); }
    } else {
      for (var b = this.lastBin + 1; b <= bin; b++) {
        var slot = b & (RING - 1);
        for (var k = 0; k < LANES.length; k++) { this.acc[k][slot] = 0; this.ref[k][slot] = 0; }
      }
    }
    this.lastBin = bin;
  };

  Viz.prototype.readState = function () {
    this.sim.state(this.stateBytes);
    var s = this.state, lay = this.api.layout;
    this.now = s[lay.now];
    var stopped = s[lay.stopped];
    if (stopped !== this.stopped) {
      this.stopped = stopped;
      this.info = this.sim.info();
      this.updateInfo();
    }
  };

  Viz.prototype.lane = function (i, field) {
    var lay = this.api.layout;
    return this.state[lay.header + i * lay.laneFields + lay[field]];
  };

  // updateFigures writes the numbers of the latest state into the page.
  Viz.prototype.updateFigures = function () {
    var s = this.state, lay = this.api.layout, ui = this.ui, info = this.info;
    var N = info.limit;
    ui.clock.textContent = "t = " + formatSeconds(this.now) + (this.slowed ? " (slowed: too many messages per frame)" : "");
    ui.messages.textContent = String(s[lay.messages]);
    ui.lost.textContent = formatCredit(s[lay.lostWhole], s[lay.lostUnits]);
    var parts = [];
    for (var i = 0; i < LANES.length; i++) {
      var L = ui.lanes[i];
      var max = this.lane(i, "max");
      L.accepted.textContent = String(this.lane(i, "accepted"));
      L.refused.textContent = String(this.lane(i, "refused"));
      L.max.textContent = String(max);
      // A window limiter promises N per W; a bucket promises b + r·W.
      var bucket = i === 2 || i === 4;
      var over = max > (bucket ? info.bound : N);
      L.max.classList.toggle("rlv-over", over);
      L.flag.textContent = over ? (bucket ? " > b + r·W" : " > N") : "";
      if (this.show[LANES[i].id] && !((this.stopped >> i) & 1)) {
        parts.push(LANES[i].name + " " + max + (N ? " (" + (max / N).toFixed(2) + " N)" : ""));
      }
      this.updateLaneState(i, L, N);
    }
    ui.readyDot.textContent = this.paused ? "paused" : "live";
    ui.readyDot.classList.toggle("rlv-paused", this.paused);
    ui.keyFig.textContent = parts.length ? "Max in any W so far: " + parts.join(" · ") : "";
  };

  Viz.prototype.updateLaneState = function (i, L, N) {
    var tokens = this.lane(i, "tokens"), count = this.lane(i, "count");
    var text = "", frac = -1;
    if ((this.stopped >> i) & 1) {
      text = "";
    } else if (i === 2 && tokens >= 0) {
      text = "tokens " + tokens + " / " + this.info.burst;
      frac = tokens / this.info.burst;
    } else if (i === 1 && count >= 0) {
      text = "window count " + count + " / " + N + " (per bucket, oldest first)";
      frac = -1;
      this.drawBucketBars(N);
    } else if (i === 0 && count >= 0) {
      text = "this window " + count + " / " + N;
      frac = count / N;
    } else if (i === 3 && count >= 0) {
      text = "in the last W " + count + " / " + N;
      frac = count / N;
    } else if (i === 4) {
      text = "state: one timestamp (the theoretical arrival time)";
    }
    L.stateText.textContent = text;
    L.bucketBars.hidden = i !== 1 || !!((this.stopped >> i) & 1) || !this.bars.length;
    L.meter.hidden = frac < 0;
    if (frac >= 0) L.meterFill.style.width = Math.min(100, frac * 100).toFixed(1) + "%";
  };

  Viz.prototype.drawBucketBars = function (N) {
    if (!this.bars || !this.bars.length) return;
    var lay = this.api.layout, s = this.state;
    var K = s[lay.buckets];
    var base = lay.header + LANES.length * lay.laneFields;
    for (var i = 0; i < this.bars.length; i++) {
      var c = i < K ? s[base + i] : 0;
      this.bars[i].style.height = Math.min(100, (c / N) * 100 * 2).toFixed(1) + "%";
      this.bars[i].parentNode.title = "bucket " + (i - this.bars.length + 1) + ": " + c;
    }
  };

  // ---- drawing -------------------------------------------------------------

  Viz.prototype.drawAll = function () {
    if (!this.info) return;
    this.updateFigures();
    var nowBin = Math.floor(this.now / this.binNs);
    this.advanceBins(nowBin);
    var first = true;
    for (var i = 0; i < LANES.length; i++) {
      if (!this.show[LANES[i].id]) continue;
      this.drawLane(i, nowBin, first);
      first = false;
    }
  };

  Viz.prototype.drawLane = function (i, nowBin, labels) {
    var c = V.sizeCanvas(this.ui.lanes[i].canvas);
    if (!c) return;
    var g = c.g, cw = c.w, ch = c.h;
    var C = this.colors;
    g.fillStyle = C.bg;
    g.fillRect(0, 0, cw, ch);

    var VB = BINS_PER_WINDOW * VISIBLE_WINDOWS;
    var start = nowBin - VB + 1;
    var bw = cw / VB;
    var N = this.info.limit;
    var plotTop = 14, plotBottom = Math.round(ch * 0.62);
    var stripTop = plotBottom + 6, stripBottom = ch - 2;
    var stripMid = (stripTop + stripBottom) / 2, half = (stripBottom - stripTop) / 2;
    var stopped = (this.stopped >> i) & 1;

    // Bucket boundaries for the sliding window, faint.
    var K = this.info.buckets;
    if (i === 1 && K > 1 && K <= 100) {
      g.strokeStyle = C.faint;
      g.lineWidth = 1;
      g.beginPath();
      var bucketBins = BINS_PER_WINDOW / K;
      var firstBucket = Math.ceil(start / bucketBins);
      for (var bk = firstBucket; bk * bucketBins <= nowBin; bk++) {
        var xb = Math.round((bk * bucketBins - start) * bw) + 0.5;
        g.moveTo(xb, plotTop);
        g.lineTo(xb, stripBottom);
      }
      g.stroke();
    }

    // Window boundaries, with labels on the first lane.
    g.strokeStyle = C.grid;
    g.fillStyle = C.text;
    g.font = "11px system-ui, sans-serif";
    g.textBaseline = "top";
    g.beginPath();
    var firstW = Math.ceil(start / BINS_PER_WINDOW);
    for (var w = Math.max(firstW, 0); w * BINS_PER_WINDOW <= nowBin; w++) {
      var xw = Math.round((w * BINS_PER_WINDOW - start) * bw) + 0.5;
      g.moveTo(xw, labels ? 0 : plotTop);
      g.lineTo(xw, stripBottom);
      if (labels) {
        var label = formatSeconds(w * this.windowNs).replace(/\.?0+ s$/, " s");
        var lw = g.measureText(label).width;
        // Near the right edge, write the label to the left of its line.
        g.fillText(label, xw + 3 + lw > cw ? xw - 3 - lw : xw + 3, 1);
      }
    }
    g.stroke();

    if (stopped) {
      V.stoppedNote(g, C.text, this.info.lanes[i].status, 8, ch / 2);
      return;
    }

    // Accepted in the trailing window, per bin: a running sum over W.
    var acc = this.acc[i], ref = this.ref[i], mask = RING - 1;
    var sum = 0;
    var oldest = this.lastBin - RING + 1; // bins before this are gone
    for (var b = start - BINS_PER_WINDOW + 1; b < start; b++) if (b >= 0 && b >= oldest) sum += acc[b & mask];
    var top = 2 * N;
    var scale = (plotBottom - plotTop) / top;
    var yN = plotBottom - N * scale;
    var promise = i === 2 || i === 4 ? this.info.bound : N;
    var yP = plotBottom - Math.min(promise, top) * scale;
    var pts = this.pts || (this.pts = new Float32Array(VB)); // reused by every lane and frame
    var over = false;
    for (var j = 0; j < VB; j++) {
      var bin = start + j;
      if (bin >= 0 && bin >= oldest) sum += acc[bin & mask];
      var out = bin - BINS_PER_WINDOW;
      if (out >= 0 && out >= oldest) sum -= acc[out & mask];
      pts[j] = sum;
      if (sum > promise) over = true;
    }
    // fillCount fills the area under the count.
    function fillCount(color) {
      g.beginPath();
      g.moveTo(0, plotBottom);
      for (var k = 0; k < VB; k++) g.lineTo((k + 1) * bw, plotBottom - Math.min(pts[k], top) * scale);
      g.lineTo(cw, plotBottom);
      g.closePath();
      g.fillStyle = color;
      g.fill();
    }
    fillCount(C.cntFill);
    if (over) { // again, clipped to above the promise
      g.save();
      g.beginPath();
      g.rect(0, plotTop - 2, cw, yP - plotTop + 2);
      g.clip();
      fillCount(C.over);
      g.restore();
    }
    g.beginPath();
    for (j = 0; j < VB; j++) {
      var y = plotBottom - Math.min(pts[j], top) * scale;
      if (j === 0) g.moveTo(0, y);
      g.lineTo((j + 1) * bw, y);
    }
    g.strokeStyle = C.cnt;
    g.lineWidth = 1.5;
    g.stroke();
    g.lineWidth = 1;

    // N, dashed, and b + r·W for the token bucket and the GCRA.
    g.setLineDash([4, 3]);
    g.strokeStyle = C.text;
    g.beginPath();
    g.moveTo(0, Math.round(yN) + 0.5);
    g.lineTo(cw, Math.round(yN) + 0.5);
    g.stroke();
    g.setLineDash([]);
    g.fillStyle = C.text;
    g.textBaseline = "bottom";
    g.fillText("N = " + N, 4, yN - 1);
    if ((i === 2 || i === 4) && this.info.bound <= top) {
      var yB = plotBottom - this.info.bound * scale;
      g.setLineDash([1, 3]);
      g.beginPath();
      g.moveTo(0, Math.round(yB) + 0.5);
      g.lineTo(cw, Math.round(yB) + 0.5);
      g.stroke();
      g.setLineDash([]);
      g.textBaseline = "bottom";
      g.textAlign = "right";
      g.fillText("b + r·W = " + this.info.bound, cw - 4, yB - 1);
      g.textAlign = "left";
    }

    // Messages: accepted up, refused down, on a log scale per bin.
    var maxC = 1;
    for (j = 0; j < VB; j++) {
      bin = start + j;
      if (bin < 0 || bin < oldest) continue;
      maxC = Math.max(maxC, acc[bin & mask], ref[bin & mask]);
    }
    var lmax = Math.log(1 + maxC);
    var wbar = Math.max(1, bw);
    g.fillStyle = C.acc;
    for (j = 0; j < VB; j++) {
      bin = start + j;
      if (bin < 0 || bin < oldest) continue;
      var a = acc[bin & mask];
      if (a) {
        var ha = Math.max(1.5, (Math.log(1 + a) / lmax) * half);
        g.fillRect(j * bw, stripMid - ha, wbar, ha);
      }
    }
    g.fillStyle = C.ref;
    for (j = 0; j < VB; j++) {
      bin = start + j;
      if (bin < 0 || bin < oldest) continue;
      var r = ref[bin & mask];
      if (r) {
        var hr = Math.max(1.5, (Math.log(1 + r) / lmax) * half);
        g.fillRect(j * bw, stripMid, wbar, hr);
      }
    }
    g.fillStyle = C.grid;
    g.fillRect(0, Math.round(stripMid), cw, 1);
  };

  // ---- the frame loop --------------------------------------------------------

  // tick decides the messages due in dt real milliseconds and draws
  // (common.js calls it once a frame).
  Viz.prototype.tick = function (dt) {
    if (!this.paused) this.advance(MAX_PER_FRAME, this.now + dt * this.speed * 1e6);
    this.drawAll();
  };

  Viz.prototype.start = function (api) {
    this.api = api;
    this.begin();
  };

  // ---- mounting --------------------------------------------------------------

  // window.ratelabViz.mount and mountAll mount these too, as they did when
  // this file defined them.
  window.ratelabLimiters = V.register("limiters", thisScript, Viz);
})();
