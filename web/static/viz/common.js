// ratelab: what the lab's visualizations share (limiters.js, governor.js,
// gradient2.js).
//
// Load it before them: it defines window.ratelabViz, the one loader of the
// lab's WebAssembly build for the whole page (see wasm/doc.go), the small DOM
// and canvas helpers, the methods every visualization has alike, and the
// mounting of each kind into its <div data-viz="kind"> elements.
//
// Plain script, no modules, no build step.
(function () {
  "use strict";

  if (window.ratelabViz) return;

  // ---- loading, once per page --------------------------------------------------

  var loading = null; // one promise of the ratelab API for the whole page

  function loadScript(src) {
    return new Promise(function (resolve, reject) {
      var s = document.createElement("script");
      s.src = src;
      s.onload = resolve;
      s.onerror = function () { reject(new Error("could not load " + src)); };
      document.head.appendChild(s);
    });
  }

  // loadWasm returns the promise of the ratelab API, whichever visualization
  // asks first: lab.wasm is fetched and started once, from the URLs of that
  // first call.
  function loadWasm(wasmURL, execURL) {
    if (loading) return loading;
    loading = (async function () {
      if (globalThis.ratelab) return globalThis.ratelab;
      if (typeof WebAssembly !== "object") throw new Error("this browser has no WebAssembly");
      if (typeof Go === "undefined") await loadScript(execURL);
      var go = new Go();
      var result;
      try {
        result = await WebAssembly.instantiateStreaming(fetch(wasmURL), go.importObject);
      } catch (e) {
        // Wrong MIME type or an old browser: fetch the bytes instead.
        var resp = await fetch(wasmURL);
        if (!resp.ok) throw new Error("could not load " + wasmURL + " (" + resp.status + ")");
        result = await WebAssembly.instantiate(await resp.arrayBuffer(), go.importObject);
      }
      go.run(result.instance); // runs main until it blocks; it sets globalThis.ratelab
      if (!globalThis.ratelab) throw new Error("lab.wasm did not start");
      return globalThis.ratelab;
    })();
    return loading;
  }

  // ensureCSS links the stylesheet name, resolved next to script (a
  // visualization's own <script>), unless the page already links it.
  function ensureCSS(script, name) {
    if (!script || !script.src) return;
    var href = new URL(name, script.src).href;
    var links = document.querySelectorAll('link[rel="stylesheet"]');
    for (var i = 0; i < links.length; i++) if (links[i].href === href) return;
    var l = document.createElement("link");
    l.rel = "stylesheet";
    l.href = href;
    document.head.appendChild(l);
  }

  // ---- small DOM helpers ---------------------------------------------------------

  // h makes an element: attrs "text" and "class" set its text and class
  // name, the others are attributes; children are nodes or strings.
  function h(tag, attrs, children) {
    var el = document.createElement(tag);
    if (attrs) {
      for (var k in attrs) {
        if (k === "text") el.textContent = attrs[k];
        else if (k === "class") el.className = attrs[k];
        else el.setAttribute(k, attrs[k]);
      }
    }
    (children || []).forEach(function (c) {
      el.appendChild(typeof c === "string" ? document.createTextNode(c) : c);
    });
    return el;
  }

  // select makes a <select> of options, [value, label] pairs, set to value.
  function select(testid, options, value) {
    var s = h("select", { "data-testid": testid });
    options.forEach(function (o) { s.appendChild(h("option", { value: o[0], text: o[1] })); });
    s.value = value;
    return s;
  }

  // field labels a control; prefix is the visualization's class prefix
  // (rlv, rgv, rg2).
  function field(prefix, label, control) {
    return h("label", { class: prefix + "-field" }, [h("span", { class: prefix + "-label", text: label }), control]);
  }

  // figure makes one of the headline figures: a label, a value (data-testid
  // testid) and a note under it.
  function figure(prefix, testid, label, note) {
    var value = h("span", { class: prefix + "-fig-value", "data-testid": testid, text: "–" });
    var noteEl = h("span", { class: prefix + "-fig-note", text: note });
    var box = h("div", { class: prefix + "-fig " + prefix + "-fig-" + testid }, [h("span", { class: prefix + "-fig-label", text: label }), value, noteEl]);
    return { box: box, value: value, note: noteEl };
  }

  // key makes one entry of a chart's legend: a swatch and its text.
  function key(prefix, swatch, text) {
    return h("span", { class: prefix + "-key" }, [h("span", { class: prefix + "-swatch " + prefix + "-sw-" + swatch }), " " + text]);
  }

  // readColors returns, for each name of defaults ({name: [property,
  // fallback]}), the custom property's value on el, or the fallback.
  function readColors(el, defaults) {
    var cs = getComputedStyle(el), out = {};
    for (var name in defaults) {
      var x = cs.getPropertyValue(defaults[name][0]).trim();
      out[name] = x || defaults[name][1];
    }
    return out;
  }

  // ---- canvas helpers --------------------------------------------------------------

  // sizeCanvas matches the canvas's pixels to its CSS size and the device
  // pixel ratio, and returns its context in CSS pixels with the size, or
  // null while the canvas is not laid out.
  function sizeCanvas(canvas) {
    var dpr = window.devicePixelRatio || 1;
    var cw = canvas.clientWidth, ch = canvas.clientHeight;
    if (!cw || !ch) return null;
    if (canvas.width !== Math.round(cw * dpr) || canvas.height !== Math.round(ch * dpr)) {
      canvas.width = Math.round(cw * dpr);
      canvas.height = Math.round(ch * dpr);
    }
    var g = canvas.getContext("2d");
    g.setTransform(dpr, 0, 0, dpr, 0, 0);
    return { g: g, w: cw, h: ch };
  }

  // niceStep rounds a grid step up to 1, 2, 2.5 or 5 times a power of ten.
  function niceStep(x) {
    var p = Math.pow(10, Math.floor(Math.log10(Math.max(x, 1e-9))));
    var m = x / p;
    return (m <= 1 ? 1 : m <= 2 ? 2 : m <= 2.5 ? 2.5 : m <= 5 ? 5 : 10) * p;
  }

  // stoppedNote writes why a run stopped across a chart, from (x, y).
  function stoppedNote(g, color, status, x, y) {
    g.fillStyle = color;
    g.font = "13px system-ui, sans-serif";
    g.textBaseline = "middle";
    g.fillText("stopped: " + status, x, y);
  }

  // ---- what every visualization does alike ---------------------------------------------

  // base holds the methods every visualization has alike; register gives
  // them to its Viz unless it has its own. They expect this.root (the mount
  // element), this.el (what the visualization built in it), this.ui.status,
  // this.ui.error and this.ui.readyDot; on the prototype, colorVars (the
  // colours for readColors) and maxDtMs (the most real time one frame
  // advances); and the visualization's own restart and tick(dt), which
  // advances the run by dt real milliseconds and draws.
  var base = {
    readColors: function () {
      this.colors = readColors(this.el, this.colorVars);
    },

    // newRun frees the run there is and returns a new one, made by the API's
    // function ctor from this.cfg; or, if the settings do not make one, null
    // after showing why, after prefix.
    newRun: function (ctor, prefix) {
      if (!this.api) return null;
      if (this.sim) { this.sim.free(); this.sim = null; }
      var s = this.api[ctor](this.cfg);
      if (s.error) {
        this.showError(prefix + s.error);
        return null;
      }
      this.showError("");
      this.sim = s;
      return s;
    },

    showError: function (msg) {
      this.ui.error.textContent = msg;
      this.ui.error.hidden = !msg;
    },

    // begin runs once the API is there: the colours, the first run, the
    // frame loop; the colours again when the colour scheme changes.
    begin: function () {
      this.readColors();
      this.restart();
      var self = this;
      if (window.matchMedia) {
        var mq = window.matchMedia("(prefers-color-scheme: dark)");
        if (mq.addEventListener) mq.addEventListener("change", function () { self.readColors(); });
      }
      requestAnimationFrame(function (t) { self.frame(t); });
    },

    frame: function (ts) {
      if (!this.root.isConnected) { if (this.sim) this.sim.free(); return; }
      var dt = this.lastFrame ? Math.min(ts - this.lastFrame, this.maxDtMs) : 1000 / 60;
      this.lastFrame = ts;
      if (this.sim) {
        this.tick(dt);
        if (!this.ready) this.markReady();
      }
      var self = this;
      requestAnimationFrame(function (t) { self.frame(t); });
    },

    markReady: function () {
      this.ready = true;
      this.ui.readyDot.setAttribute("data-testid", "viz-ready");
      this.root.setAttribute("data-viz-ready", "");
      var fallbacks = this.root.querySelectorAll("[data-viz-fallback]");
      for (var i = 0; i < fallbacks.length; i++) fallbacks[i].hidden = true;
    },

    fail: function (err) {
      var msg = String(err && err.message ? err.message : err);
      this.ui.status.textContent = "The visualization could not start.";
      this.showError(msg);
      var fallbacks = this.root.querySelectorAll("[data-viz-fallback]");
      for (var i = 0; i < fallbacks.length; i++) fallbacks[i].textContent = "The live visualization could not start: " + msg;
    },
  };

  // ---- mounting ----------------------------------------------------------------------

  var kinds = {}; // kind: its mount function

  // register makes the visualization kind mount into every
  // <div data-viz="kind"> once the document is parsed, linking kind.css next
  // to script (its own <script>). new Viz(root) builds one into root; its
  // start(api) runs once lab.wasm has started, its fail(err) if it could not.
  // It returns that kind's {mount, mountAll}.
  function register(kind, script, Viz) {
    for (var m in base) if (!Viz.prototype[m]) Viz.prototype[m] = base[m];

    function mount(root) {
      if (root.__ratelabViz) return root.__ratelabViz;
      var viz = new Viz(root);
      root.__ratelabViz = viz;
      var wasm = root.getAttribute("data-wasm") || "/static/lab.wasm";
      var exec = root.getAttribute("data-wasm-exec") || "/static/wasm_exec.js";
      loadWasm(wasm, exec).then(function (api) { viz.start(api); }, function (err) { viz.fail(err); });
      return viz;
    }

    function mountAll() {
      ensureCSS(script, kind + ".css");
      var els = document.querySelectorAll('[data-viz="' + kind + '"]');
      for (var i = 0; i < els.length; i++) mount(els[i]);
    }

    kinds[kind] = { mount: mount, mountAll: mountAll };
    if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", mountAll);
    else mountAll();
    return kinds[kind];
  }

  window.ratelabViz = {
    loadWasm: loadWasm,
    ensureCSS: ensureCSS,
    h: h,
    select: select,
    field: field,
    figure: figure,
    key: key,
    readColors: readColors,
    sizeCanvas: sizeCanvas,
    niceStep: niceStep,
    stoppedNote: stoppedNote,
    register: register,

    // mount mounts root by its data-viz, once that kind's script has run.
    mount: function (root) {
      var k = kinds[root.getAttribute("data-viz")];
      return k ? k.mount(root) : null;
    },
    // mountAll mounts every visualization of a kind whose script has run.
    mountAll: function () {
      for (var k in kinds) kinds[k].mountAll();
    },
  };
})();
