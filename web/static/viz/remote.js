// @ts-check
// ratelab: "Yours" in a Web Worker, the page's side.
//
// The learner's code may never return (an endless loop in TryAcquire). On
// the main thread that would freeze the page, so every run of "Yours" is
// made and stepped in worker.js, which loads its own lab.wasm, and the page
// holds a stand-in whose methods post to the worker and resolve with the
// answer. Runs of the reference stay on the main thread and answer at once.
//
// withYours(api) returns lab.wasm's API with every constructor (a function
// whose name starts with "new", on ratelab or one of its objects, e.g.
// newSim, fairqueue.newSim) wrapped: a config with impl "yours" makes the run
// in the worker and returns a promise of its stand-in (or of {error}); any
// other config calls the constructor as it is. So a visualization written
// against lab.wasm's API runs Yours in the worker as long as it awaits
// every run call. A stand-in has the run's methods, each returning a
// promise of the run's answer. Typed arrays among the arguments are copied
// into a buffer of the stand-in's, transferred to the worker and back, and
// what Go wrote there is copied into the caller's array: `await
// run.step(..., bytes)` fills bytes, as the run on the main thread does.
//
// The watchdog: a call that does not answer within DEADLINE_MS of wall time
// from when it was posted (time spent behind other runs' calls counts) is
// rejected with Hung, the worker is terminated, every other call waiting on
// it is rejected with Lost, and a fresh worker starts with the same build.
// Loading lab.wasm has no deadline: a slow machine takes long to compile it.
// A run that is freed rejects its waiting and later calls with Freed; its
// hung call, if any, still ends the worker on time.

/** DEADLINE_MS is how long one call of Yours may take, in wall milliseconds. */
export const DEADLINE_MS = 1000;

/** Hung rejects a call that did not answer within DEADLINE_MS: call is the method's name. */
export class Hung extends Error {
  /** @param {string} call */
  constructor(call) {
    super("Yours did not return from " + call + "(…) within " + DEADLINE_MS / 1000 + " s: an endless loop?");
    this.name = "Hung";
    this.call = call;
  }
}

/** Lost rejects a call whose worker was replaced: another run hung, or a new build came. */
export class Lost extends Error {
  /** @param {string} why */
  constructor(why) {
    super("Yours' worker was restarted: " + why);
    this.name = "Lost";
  }
}

/** NoStart rejects a call when the worker could not start lab.wasm. */
export class NoStart extends Error {
  /** @param {string} why */
  constructor(why) {
    super("Yours could not start: " + why);
    this.name = "NoStart";
  }
}

/**
 * Building rejects the making of a run of Yours while the build it would
 * run from is still being made (class mode, see awaitBuild): ready settles
 * once it is there, or could not be made.
 */
export class Building extends Error {
  /** @param {Promise<void>} ready */
  constructor(ready) {
    super("your code is being built: Yours starts once it is built");
    this.name = "Building";
    this.ready = ready;
  }
}

/** Freed rejects a call of a run that was freed before it answered. */
export class Freed extends Error {
  constructor() {
    super("the run was freed");
    this.name = "Freed";
  }
}

/**
 * @typedef {object} Waiting a request posted to the worker, not answered yet
 * @property {(v: {ok: unknown, outs: Uint8Array[]}) => void} resolve
 * @property {(e: Error) => void} reject
 * @property {number} run the run it belongs to, 0 for none
 * @property {ReturnType<typeof setTimeout> | 0} timer its deadline, 0 for none
 */

/** @type {{wasm: string, exec: string} | null} the build Yours runs from: absolute URLs */
let build = null;

/** @type {Promise<void> | null} the build Yours waits for (class mode: see awaitBuild); null for none */
let awaited = null;
/** Whether awaited has settled. */
let awaitedSettled = false;

/** @type {YoursWorker | null} the worker runs are made in now */
let current = null;

let nextRun = 1;

/** YoursWorker is one worker and what waits on it. */
class YoursWorker {
  /** @param {{wasm: string, exec: string}} urls */
  constructor(urls) {
    this.worker = new Worker(new URL("./worker.js", import.meta.url));
    this.dead = false;
    this.nextID = 1;
    /** @type {Map<number, Waiting>} */
    this.waiting = new Map();
    this.worker.onmessage = (ev) => this.answer(ev.data);
    // worker.js itself failed (not a call: handle answers those): no fresh
    // worker now, which would fail the same way; the next run asks for one.
    this.worker.onerror = (ev) => { ev.preventDefault(); this.end(new NoStart(ev.message || "the worker failed"), null, false); };
    /** Resolves once lab.wasm runs in the worker; requests are posted after it. */
    this.ready = this.post({ op: "load", wasm: urls.wasm, exec: urls.exec }, [], 0, "");
    // A worker that ends before anything asks for it: nobody to tell.
    this.ready.catch(() => {});
  }

  /**
   * post sends a request and returns the promise of its answer; call, if
   * not "", names it for the watchdog.
   * @param {Record<string, unknown>} req
   * @param {Transferable[]} transfer
   * @param {number} run
   * @param {string} call
   * @returns {Promise<{ok: unknown, outs: Uint8Array[]}>}
   */
  post(req, transfer, run, call) {
    if (this.dead) return Promise.reject(new Lost("it had stopped"));
    const id = this.nextID++;
    return new Promise((resolve, reject) => {
      /** @type {Waiting} */
      const w = { resolve, reject, run, timer: 0 };
      if (call) w.timer = setTimeout(() => this.end(new Lost("another run hung"), { id, err: new Hung(call) }), DEADLINE_MS);
      this.waiting.set(id, w);
      this.worker.postMessage({ ...req, id }, transfer);
    });
  }

  /**
   * request posts the request make returns, with the buffers it moves,
   * once lab.wasm runs here, with the deadline of call.
   * @param {() => {req: Record<string, unknown>, move: Transferable[]}} make
   * @param {number} run
   * @param {string} call
   */
  async request(make, run, call) {
    try {
      await this.ready;
    } catch (e) {
      throw e instanceof Lost ? e : new NoStart(e instanceof Error ? e.message : String(e));
    }
    const { req, move } = make();
    return this.post(req, move, run, call);
  }

  /** @param {{id: number, ok?: unknown, outs?: Uint8Array[], error?: string}} msg */
  answer(msg) {
    const w = this.waiting.get(msg.id);
    if (!w) return;
    this.waiting.delete(msg.id);
    if (w.timer) clearTimeout(w.timer);
    if (msg.error !== undefined) w.reject(new Error(msg.error));
    else w.resolve({ ok: msg.ok, outs: msg.outs || [] });
  }

  /**
   * freed rejects what waits on run with Freed; a hung call keeps its timer.
   * @param {number} run
   */
  freed(run) {
    for (const w of this.waiting.values()) if (w.run === run) w.reject(new Freed());
    if (!this.dead) this.worker.postMessage({ op: "free", run, id: 0 });
  }

  /**
   * end terminates the worker: hung, if not null, is rejected with its own
   * error, every other waiting request with lost. If this was the current
   * worker and fresh, a fresh one starts from the build.
   * @param {Error} lost
   * @param {{id: number, err: Error} | null} hung
   * @param {boolean} [fresh]
   */
  end(lost, hung, fresh = true) {
    if (this.dead) return;
    this.dead = true;
    this.worker.terminate();
    for (const [id, w] of this.waiting) {
      if (w.timer) clearTimeout(w.timer);
      w.reject(hung && hung.id === id ? hung.err : lost);
    }
    this.waiting.clear();
    if (current === this) current = fresh && build ? new YoursWorker(build) : null;
  }
}

/** worker returns the current worker, started from the build if none runs. */
function worker() {
  if (!build) throw new Error("no lab.wasm for Yours: the page loaded none");
  if (!current || current.dead) current = new YoursWorker(build);
  return current;
}

/**
 * defaultBuild makes Yours run from the lab.wasm at wasmURL (with
 * wasm_exec.js from execURL) unless a build is set already (the page's
 * first, or a newer one live.js announced).
 * @param {string} wasmURL
 * @param {string} execURL
 */
export function defaultBuild(wasmURL, execURL) {
  if (!build && !awaited) useBuild(wasmURL, execURL);
}

/**
 * awaitBuild makes Yours run from the lab.wasm whose URL wasm resolves
 * with (class mode: the server builds the learner's code, and classyours.js
 * asks it when). Until then new runs of Yours wait for it; if it rejects,
 * they fail with NoStart and its message. Runs already going keep the
 * build they run from until it resolves, then restart on the new one (see
 * useBuild). A later call replaces an earlier one still waiting. A run of
 * Yours asked for meanwhile is refused at once with Building, whose ready
 * says when to ask again: the visualization is not held up (its other
 * settings, Reference, keep working).
 * @param {Promise<string>} wasm
 * @param {string} execURL
 */
export function awaitBuild(wasm, execURL) {
  /** @type {Promise<void>} */
  const next = wasm.then(
    (url) => { if (awaited === next) useBuild(url, execURL); },
    (e) => { throw new NoStart(e instanceof Error ? e.message : String(e)); });
  next.catch(() => {}).finally(() => { if (awaited === next) awaitedSettled = true; });
  awaited = next;
  awaitedSettled = false;
}

/**
 * useBuild makes Yours run from the lab.wasm at wasmURL (with wasm_exec.js
 * from execURL) from now on. A worker running an older build is ended: its
 * runs' waiting calls are rejected with Lost (their visualizations restart
 * them) and a fresh worker starts on the new build.
 * @param {string} wasmURL
 * @param {string} execURL
 */
function useBuild(wasmURL, execURL) {
  const next = { wasm: new URL(wasmURL, location.href).href, exec: new URL(execURL, location.href).href };
  if (build && build.wasm === next.wasm && build.exec === next.exec) return;
  if (!firstWasm) firstWasm = next.wasm;
  build = next;
  if (current) current.end(new Lost("a new build of Yours"), null); // starts the next one
}

/** The URL of the first lab.wasm Yours ran from: newer builds are fetched from it with ?v=version. */
let firstWasm = "";

/**
 * rebuilt reports whether a ratelab:yours event's detail announces a new
 * build at url: its files name url's file, or it names none (a page that
 * reconnected does not know which builds changed meanwhile).
 * @param {string} url
 * @param {{files?: string[]}} detail
 * @returns {boolean}
 */
export function rebuilt(url, detail) {
  if (!Array.isArray(detail.files)) return true;
  const name = new URL(url, location.href).pathname.split("/").pop() || "";
  return detail.files.includes(name);
}

// A new "Yours" build (live.js dispatches ratelab:yours when the server has
// rebuilt builds after a save, and names them): if it is the one Yours
// runs from (a save of another week's exercise leaves it), Yours runs from
// it from now on.
document.addEventListener("ratelab:yours", (ev) => {
  if (!build) return; // Yours has not been asked for: the first run loads the build served then
  const detail = /** @type {CustomEvent<{version?: number, files?: string[]}>} */ (ev).detail || {};
  if (!rebuilt(firstWasm, detail)) return;
  useBuild(firstWasm + (firstWasm.includes("?") ? "&" : "?") + "v=" + String(detail.version ?? Date.now()), build.exec);
});

/**
 * newRemote makes a run in the worker with the constructor at path and
 * returns its stand-in, or {error} if the config makes none.
 * @param {string} path
 * @param {unknown} config
 * @returns {Promise<Record<string, (...args: unknown[]) => Promise<unknown>> | lab.Failure>}
 */
async function newRemote(path, config) {
  if (awaited && !awaitedSettled) throw new Building(awaited.then(() => {}, () => {}));
  if (awaited) await awaited; // settled: at once, or NoStart
  const w = worker();
  const run = nextRun++;
  const name = path.slice(path.lastIndexOf(".") + 1);
  const { ok } = await w.request(() => ({ req: { op: "new", run, path, config }, move: [] }), run, name);
  const made = /** @type {{methods?: string[], error?: string}} */ (ok);
  if (made.error !== undefined) return { error: made.error };
  let freed = false;
  /** @type {ArrayBuffer[]} the buffers back from the worker, by typed-array argument, for the next call */
  const spare = [];
  /** @type {Record<string, (...args: unknown[]) => Promise<unknown>>} */
  const standIn = {};
  for (const method of made.methods || []) {
    if (method === "free") continue;
    standIn[method] = async (...args) => {
      if (freed) throw new Freed();
      /** @type {Uint8Array[]} */
      const callers = [];
      const make = () => {
        /** @type {Transferable[]} */
        const move = [];
        const sent = args.map((a) => {
          if (!(a instanceof Uint8Array)) return a;
          const i = callers.length;
          callers.push(a);
          const buf = spare[i] && spare[i].byteLength === a.length ? spare[i] : new ArrayBuffer(a.length);
          const copy = new Uint8Array(buf);
          copy.set(a);
          move.push(buf);
          return copy;
        });
        return { req: { op: "call", run, method, args: sent }, move };
      };
      let res;
      try {
        res = await w.request(make, run, method);
      } catch (e) {
        throw freed && !(e instanceof Hung) ? new Freed() : e;
      }
      if (freed) throw new Freed();
      for (let i = 0; i < res.outs.length && i < callers.length; i++) {
        callers[i].set(res.outs[i]);
        spare[i] = /** @type {ArrayBuffer} */ (res.outs[i].buffer);
      }
      return res.ok;
    };
  }
  standIn.free = async () => {
    if (freed) return;
    freed = true;
    w.freed(run);
  };
  return standIn;
}

/** @type {WeakMap<object, lab.API>} the wrapped face of each lab.wasm's API */
const faces = new WeakMap();

/**
 * withYours returns api with its constructors wrapped so that a config
 * with impl "yours" makes the run in the worker (see the top of this
 * file). The same api always gets the same face.
 * @param {lab.API} api
 * @returns {lab.API}
 */
export function withYours(api) {
  let face = faces.get(api);
  if (!face) {
    face = /** @type {lab.API} */ (/** @type {unknown} */ (wrap(/** @type {Record<string, unknown>} */ (/** @type {unknown} */ (api)), "", true)));
    faces.set(api, face);
  }
  return face;
}

/**
 * wrap copies obj with its constructors wrapped, and, if deep, those of
 * the objects it holds (one level: ratelab.fairqueue.newSim).
 * @param {Record<string, unknown>} obj
 * @param {string} prefix obj's path in ratelab, with a trailing dot
 * @param {boolean} deep
 * @returns {Record<string, unknown>}
 */
function wrap(obj, prefix, deep) {
  /** @type {Record<string, unknown>} */
  const out = {};
  for (const k of Object.keys(obj)) {
    const v = obj[k];
    if (typeof v === "function" && /^new[A-Z]/.test(k)) {
      const make = /** @type {(config: unknown) => unknown} */ (v), path = prefix + k;
      out[k] = (/** @type {unknown} */ config) => isYours(config) ? newRemote(path, config) : make(config);
    } else if (deep && v && typeof v === "object" && !Array.isArray(v)) {
      out[k] = wrap(/** @type {Record<string, unknown>} */ (v), prefix + k + ".", false);
    } else {
      out[k] = v;
    }
  }
  return out;
}

/**
 * isYours reports whether a run's config asks for Yours.
 * @param {unknown} config
 */
function isYours(config) {
  return !!config && typeof config === "object" && /** @type {{impl?: unknown}} */ (config).impl === "yours";
}

/**
 * replay runs ratelab.replay.run(exercise, cx) in the worker (it replays
 * on the reference and on Yours in one call) and resolves with its JSON
 * text; it rejects with Hung if Yours did not return in time.
 * @param {string} exercise
 * @param {string} cx the counterexample's JSON
 * @returns {Promise<string>}
 */
export async function replay(exercise, cx) {
  if (awaited) await awaited;
  const { ok } = await worker().request(() => ({ req: { op: "replay", exercise, cx }, move: [] }), 0, "replay");
  return String(ok);
}
