// early.js starts fetching and compiling the build a page's visualizations
// draw from as soon as the page's head is parsed (web/page/layout.templ
// loads it, async, with the build's path in data-wasm): the browser
// compiles it while it lays the page out and loads the other scripts, and
// common.js's startWasm instantiates the compiled module instead of
// fetching the build itself. A browser that cannot compile a stream skips
// it, and so does common.js then.
//
// A classic script, no build step.

(() => {
  const me = document.currentScript;
  const url = me && me.dataset.wasm;
  if (!url || typeof WebAssembly !== "object" || !WebAssembly.compileStreaming) return;
  const module = WebAssembly.compileStreaming(fetch(url));
  module.catch(() => {}); // common.js then fetches the build itself
  globalThis.ratelabEarlyWasm = { url, module };
})();
