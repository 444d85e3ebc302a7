// @ts-check
// ratelab: the Web Worker that runs "Yours" (the learner's code compiled
// into lab.wasm), so that code which never returns cannot freeze the page.
//
// A classic worker: wasm_exec.js is a classic script, loaded with
// importScripts. The page's side is remote.js, which is the only user of
// this file; the messages are its protocol:
//
//   page → worker                                   worker → page
//   {id, op: "load", wasm, exec}                   {id, ok: true} once lab.wasm runs
//   {id, op: "new", run, path, config}             {id, ok: {methods}} or {id, ok: {error}}
//   {id, op: "call", run, method, args}            {id, ok: result, outs}
//   {id, op: "free", run}                          no answer
//   {id, op: "replay", exercise, cx}               {id, ok: the replay's JSON text}
//
// path names the constructor in the ratelab object ("newSim",
// "fairqueue.newSim"). Typed arrays among a call's args arrive transferred;
// after the call they go back, transferred, in outs (same order), with
// what Go wrote into them. A thrown error answers {id, error: message}.
// The page terminates the worker when a call does not answer in time; the
// worker itself never times anything.

/**
 * @typedef {{[name: string]: unknown}} Run a run as lab.wasm returns it: its methods
 * @typedef {{id: number, op: string, wasm?: string, exec?: string, run?: number, path?: string,
 *   config?: unknown, method?: string, args?: unknown[], exercise?: string, cx?: string}} Ask a request from the page
 */

/** The worker's global scope, as far as this file uses it (tsc checks against the DOM's types). */
const scope = /** @type {{postMessage(msg: unknown, transfer: Transferable[]): void,
  importScripts(...urls: string[]): void, onmessage: ((ev: MessageEvent<Ask>) => void) | null}} */ (
  /** @type {unknown} */ (globalThis));

/** @type {Map<number, Run>} the runs made here, by the page's id */
const runs = new Map();

/** @type {Record<string, unknown> | null} lab.wasm's ratelab object, once loaded */
let api = null;

/**
 * load starts lab.wasm from wasmURL, with wasm_exec.js from execURL.
 * @param {string} wasmURL
 * @param {string} execURL
 */
async function load(wasmURL, execURL) {
  if (typeof Go === "undefined") scope.importScripts(execURL);
  const go = new Go();
  const resp = await fetch(wasmURL);
  if (!resp.ok) throw new Error("could not load " + wasmURL + " (" + resp.status + ")");
  const { instance } = await WebAssembly.instantiate(await resp.arrayBuffer(), go.importObject);
  go.run(instance); // runs main until it blocks; it sets globalThis.ratelab
  const rl = /** @type {Record<string, unknown> | undefined} */ (/** @type {{ratelab?: unknown}} */ (globalThis).ratelab);
  if (!rl) throw new Error("lab.wasm did not start");
  api = rl;
}

/**
 * lookup returns the function at path in lab.wasm's ratelab object.
 * @param {string} path
 * @returns {Function}
 */
function lookup(path) {
  /** @type {unknown} */
  let v = api;
  for (const name of path.split(".")) v = v && typeof v === "object" ? /** @type {Record<string, unknown>} */ (v)[name] : undefined;
  if (typeof v !== "function") throw new Error("this lab.wasm has no ratelab." + path);
  return v;
}

/**
 * handle answers one request: its result and the buffers to send back.
 * @param {Ask} req
 * @returns {Promise<{ok: unknown, outs?: Uint8Array[]}>}
 */
async function handle(req) {
  switch (req.op) {
    case "load":
      await load(String(req.wasm), String(req.exec));
      return { ok: true };
    case "new": {
      const r = /** @type {Run} */ (lookup(String(req.path))(req.config));
      if (r && typeof r === "object" && "error" in r) return { ok: { error: String(r.error) } };
      runs.set(Number(req.run), r);
      return { ok: { methods: Object.keys(r).filter((k) => typeof r[k] === "function") } };
    }
    case "call": {
      const r = runs.get(Number(req.run));
      if (!r) throw new Error("no such run");
      const args = req.args || [];
      const f = r[String(req.method)];
      if (typeof f !== "function") throw new Error("a run has no method " + req.method);
      const ok = f(...args);
      return { ok, outs: /** @type {Uint8Array[]} */ (args.filter((a) => a instanceof Uint8Array)) };
    }
    case "free": {
      const r = runs.get(Number(req.run));
      runs.delete(Number(req.run));
      if (r && typeof r.free === "function") r.free();
      return { ok: null };
    }
    case "replay":
      return { ok: lookup("replay.run")(String(req.exercise), String(req.cx)) };
  }
  throw new Error("unknown request " + req.op);
}

/** @type {Promise<unknown>} the request being answered: requests are answered one at a time, in order */
let last = Promise.resolve();

scope.onmessage = (ev) => {
  const req = ev.data;
  last = last.then(() => handle(req)).then(
    (res) => {
      if (req.op === "free") return;
      const outs = res.outs || [];
      scope.postMessage({ id: req.id, ok: res.ok, outs }, outs.map((a) => a.buffer));
    },
    (err) => scope.postMessage({ id: req.id, error: err instanceof Error ? err.message : String(err) }, []),
  );
};
