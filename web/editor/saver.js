// @ts-check
// The saver: keeps the editor's files where the backend keeps them,
// without losing a keystroke. Edits are saved once typing pauses (delay
// ms); one save is in flight at a time, and edits made during it are saved
// after it. A save that fails on the way (network, server fault) is tried
// again, 2 s later, then 4, 8... up to 30 s, while the text stays in the
// page; a refused save (bad files) waits for the next edit; a conflict
// (the files changed elsewhere: on disk locally, in another tab or on
// another machine in class mode) stops saving until the learner chooses.

import { SaveError } from "./backend.js";

/** @typedef {import("./backend.js").Backend} Backend */
/** @typedef {import("./backend.js").Files} Files */
/** @typedef {import("./backend.js").Snapshot} Snapshot */

/**
 * @typedef {{state: "saved", opened?: boolean} | {state: "saving"} | {state: "unsaved", why: string, retrying: boolean}
 *   | {state: "conflict", disk: Snapshot}} SaveState
 */

/**
 * sameFiles reports whether a and b hold the same names and contents.
 * @param {Files} a
 * @param {Files} b
 */
export function sameFiles(a, b) {
  const ka = Object.keys(a);
  return ka.length === Object.keys(b).length && ka.every((k) => Object.hasOwn(b, k) && a[k] === b[k]);
}

export class Saver {
  /**
   * @param {Backend} backend
   * @param {() => Files} current the editor's files now
   * @param {(s: SaveState) => void} report told every change of state
   * @param {number} delay ms of quiet before an edit is saved
   */
  constructor(backend, current, report, delay) {
    this.backend = backend;
    this.current = current;
    this.report = report;
    this.delay = delay;
    /** @type {Files} what the backend holds, as far as this page knows */
    this.saved = {};
    /** the version of saved ("" before the first load) */
    this.version = "";
    /** @type {ReturnType<typeof setTimeout> | undefined} */
    this.timer = undefined;
    /** @type {Promise<void> | null} the save in flight */
    this.inFlight = null;
    this.retryMs = 0;
    /** true while a conflict waits for the learner's choice */
    this.blocked = false;
    /** the state last told */
    this.state = "";
    /** the text of a refused save: not sent again unchanged */
    /** @type {Files | null} */
    this.refused = null;
  }

  /** @param {SaveState} s */
  tell(s) {
    this.state = s.state;
    this.report(s);
  }

  /**
   * loaded records what the backend holds (after a load or a reload).
   * @param {Snapshot} s
   */
  loaded(s) {
    this.saved = { ...s.files };
    this.version = s.version;
    this.blocked = false;
    this.refused = null;
    this.retryMs = 0;
    clearTimeout(this.timer);
    this.tell({ state: "saved", opened: true });
  }

  /** dirty reports whether the editor holds text the backend does not. */
  dirty() {
    return !sameFiles(this.current(), this.saved);
  }

  /** edited is called on every edit: saves once typing pauses. */
  edited() {
    if (this.blocked) return;
    this.retryMs = 0;
    if (!this.inFlight) this.tell({ state: "saving" });
    this.schedule(this.delay);
  }

  /** @param {number} ms */
  schedule(ms) {
    clearTimeout(this.timer);
    this.timer = setTimeout(() => { void this.flush(); }, ms);
  }

  /**
   * flush saves the editor's files now (after the save in flight, if any)
   * and resolves once it is done, whatever the outcome: read dirty() or
   * the state reported to know it.
   * @returns {Promise<void>}
   */
  async flush() {
    clearTimeout(this.timer);
    while (this.inFlight) await this.inFlight;
    if (this.blocked || !this.dirty()) {
      // Nothing to save: a save line that said "saving…" (edits typed
      // back to the saved text) says saved again; otherwise it stays.
      if (!this.blocked && this.state === "saving") this.tell({ state: "saved" });
      return;
    }
    const files = this.current();
    if (this.refused && sameFiles(files, this.refused)) return;
    this.inFlight = this.saveOnce(files);
    try {
      await this.inFlight;
    } finally {
      this.inFlight = null;
    }
  }

  /**
   * overwrite saves the editor's files over what the disk holds now
   * (version base): the learner's "Keep mine" after a conflict.
   * @param {string} base
   */
  async overwrite(base) {
    while (this.inFlight) await this.inFlight;
    this.blocked = false;
    this.version = base;
    this.saved = {}; // whatever it was, the disk's files differ: save
    await this.flush();
  }

  /** @param {Files} files */
  async saveOnce(files) {
    this.tell({ state: "saving" });
    try {
      const r = await this.backend.save(files, this.version);
      switch (r.kind) {
        case "saved":
          this.saved = files;
          this.version = r.version;
          this.refused = null;
          this.retryMs = 0;
          if (this.dirty()) {
            this.schedule(this.delay); // typed during the save
          } else {
            this.tell({ state: "saved" });
          }
          return;
        case "conflict":
          this.blocked = true;
          clearTimeout(this.timer);
          this.tell({ state: "conflict", disk: r.disk });
          return;
        case "refused":
          this.refused = files;
          this.tell({ state: "unsaved", why: r.message, retrying: false });
          return;
      }
    } catch (err) {
      if (!(err instanceof SaveError)) throw err;
      this.retryMs = Math.min(this.retryMs ? this.retryMs * 2 : 2000, 30000);
      this.tell({ state: "unsaved", why: err.message + "; trying again in " + this.retryMs / 1000 + " s", retrying: true });
      this.schedule(this.retryMs);
    }
  }
}
