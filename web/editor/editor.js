// @ts-check
// The lab's in-browser editor: the learner's Go files of one exercise as
// tabs, saved as they type, with compile errors marked on their lines.
// Bundled with CodeMirror 6 into web/static/editor/editor.js (make editor;
// the bundle is committed, see the Makefile). A page only renders the
// element and loads the bundle and its stylesheet (templ: page.Editor):
//
//   <div data-editor="gcra" data-editor-mode="local|class" …>
//     fallback text, replaced once the editor runs
//   </div>
//
// Attributes, the contract between the pages and this module:
//
//   data-editor          the exercise's ID (required).
//   data-editor-mode     "local": the single-learner lab's exercises/<ID>/
//                        through GET/PUT /api/exercises/<ID>/files, and the
//                        live loop's events (live.js) for changes on disk
//                        and compile errors. "class": the learner's draft
//                        through GET/PUT /class/api/drafts/<ID>, with Check
//                        and Submit buttons.
//   data-editor-files    local: the files API (default /api/exercises/<ID>/files).
//   data-editor-drafts   class: the drafts API (default /class/api/drafts/<ID>).
//   data-editor-checks   class: Check's API (default /class/api/checks); the
//                        attribute present and empty: no Check button. POST
//                        {"exercise"} → {"check", "result": report.Exercise},
//                        shown below the editor (drawn here; or, if the
//                        answer also holds "report", that HTML as the
//                        server's templates render it, Replay included);
//                        429 shows its Retry-After.
//   data-editor-submit   class: where Submit posts the files (default
//                        /class/submissions; multipart, Accept: application/json);
//                        present and empty: no Submit button.
//   data-editor-csrf     class: the page's CSRF token, sent as the
//                        X-CSRF-Token header on PUT and POST, and as the
//                        _csrf field of Submit's form.
//   data-editor-task     present: show the stub's package doc comment
//                        beside the editor as the task (the local exercise
//                        page shows the lesson's task above it instead).
//   data-editor-errors   compiler lines to mark when the editor opens
//                        (the page's latest grade did not build).
//   data-editor-delay    ms of quiet typing before a save (default 700 in
//                        class mode, 1000 locally, where each save regrades).
//
// Saving: "saved", "saving…" or "not saved: <why>" in an aria-live line
// (data-testid=editor-status, its state in data-save-state: saved, saving,
// unsaved or conflict); the element's data-editor-version is the version
// saved (tests and scripts wait on it). A save that
// fails on the way is tried again while the text stays in the page; the
// page warns before it is left with text not saved. Locally, a save is a
// write into exercises/<ID>/ that the live loop grades as any save; when
// the files change on disk the editor reloads them quietly if nothing here
// is unsaved, and otherwise offers "Reload from disk" or "Keep mine". In
// class mode the draft is read again when the page comes back to the front
// (another tab may have saved it), likewise.
//
// Keyboard: the tabs are a tablist (arrow keys, Home, End); Tab indents in
// the code, as Go editors do, and Escape then Tab leaves the editor (or
// Ctrl-M, Shift-Alt-M on a Mac, turns Tab into a focus move until pressed
// again): CodeMirror's tab-focus mode, said under the editor.
//
// The module also exports mount (for pages that add the element later; on
// an element already mounted it returns its editor, whose files() are the
// texts it holds now).

import { EVENT } from "../static/events.js";
import { classBackend, localBackend, problemText, request } from "./backend.js";
import { compileErrors, reportCompileErrors } from "./compile.js";
import { hunks, lineDiff } from "./diff.js";
import { gradeWords, renderResult } from "./report.js";
import { Saver } from "./saver.js";
import { Tabs } from "./tabs.js";
import { packageDoc } from "./task.js";

/** @typedef {import("./backend.js").Snapshot} Snapshot */
/** @typedef {import("./saver.js").SaveState} SaveState */

/**
 * h makes an element with a class, attributes and children.
 * @param {string} tag
 * @param {Record<string, string>} attrs
 * @param {...(Node | string)} children
 */
function h(tag, attrs, ...children) {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, v);
  e.append(...children);
  return e;
}

/**
 * attr returns el's attribute name, or def when it is absent.
 * @param {HTMLElement} el
 * @param {string} name
 * @param {string} def
 */
function attr(el, name, def) {
  const v = el.getAttribute(name);
  return v === null ? def : v;
}

/** @type {WeakMap<HTMLElement, Editor>} */
const mounted = new WeakMap();

/**
 * mount starts the editor in el (a [data-editor] element), once.
 * @param {HTMLElement} el
 * @returns {Editor}
 */
export function mount(el) {
  let ed = mounted.get(el);
  if (!ed) {
    ed = new Editor(el);
    mounted.set(el, ed);
  }
  return ed;
}

class Editor {
  /** @param {HTMLElement} el */
  constructor(el) {
    this.el = el;
    this.exercise = attr(el, "data-editor", "");
    this.mode = attr(el, "data-editor-mode", "local");
    const local = this.mode === "local";
    const csrf = attr(el, "data-editor-csrf", "");
    this.csrf = csrf;
    const id = encodeURIComponent(this.exercise);
    this.backend = local
      ? localBackend(attr(el, "data-editor-files", "/api/exercises/" + id + "/files"))
      : classBackend(attr(el, "data-editor-drafts", "/class/api/drafts/" + id), csrf);
    const delay = Number(attr(el, "data-editor-delay", local ? "1000" : "700")) || 700;

    el.classList.add("editor");
    el.replaceChildren();
    const main = h("div", { class: "editor-main" });
    this.status = h("p", { class: "editor-status", role: "status", "aria-live": "polite", "data-testid": "editor-status" }, "loading…");
    this.choice = h("div", { class: "editor-choice note", "data-testid": "editor-choice", hidden: "" });
    this.actions = h("div", { class: "editor-actions" });
    this.out = h("div", { class: "editor-out", "aria-live": "polite", "data-testid": "editor-out" });
    this.tabs = new Tabs(main, (local ? "Files of exercises/" : "Files of your draft of ") + this.exercise, () => this.saver.edited(), () => { void this.saver.flush(); });
    main.append(
      h("div", { class: "editor-bar" }, this.status, this.actions),
      this.choice,
      h("p", { class: "editor-help" },
        "Tab indents; to leave the code with the keyboard press Esc, then Tab (or Ctrl-M to make Tab move the focus). ",
        local ? "Your edits are saved into exercises/" + this.exercise + "/ as you type, and graded as any save." : "Your draft is saved as you type."),
    );
    el.append(main, this.out);
    this.saver = new Saver(this.backend, () => this.tabs.files(), (s) => this.showState(s), delay);

    if (!local) this.classButtons();
    // A page sent to the background (another tab, a phone's home screen)
    // may never come back: save what waits for the pause in typing.
    document.addEventListener("visibilitychange", () => {
      if (document.visibilityState === "hidden") void this.saver.flush();
      else if (!local) void this.refresh();
    });
    // Back to this page (class mode): the draft may have been saved from
    // another tab meanwhile; read it before this page saves over it.
    if (!local) window.addEventListener("focus", () => { void this.refresh(); });
    window.addEventListener("beforeunload", (e) => {
      if (this.saver.dirty() || this.saver.inFlight) {
        e.preventDefault();
        e.returnValue = ""; // older browsers need it set to ask
      }
    });
    if (local) this.followLive();
    void this.load(attr(el, "data-editor-errors", ""));
  }

  /**
   * files returns the text of every file as the editor holds it now,
   * saved or not.
   * @returns {Record<string, string>}
   */
  files() {
    return this.tabs.files();
  }

  /**
   * load reads the files, trying again every 5 s until it can.
   * @param {string} errors compiler lines to mark once loaded
   */
  async load(errors) {
    for (let wait = 5; ; wait = Math.min(wait * 2, 60)) {
      try {
        const s = await this.backend.load();
        this.tabs.set(s.files);
        this.saver.loaded(s);
        this.el.setAttribute("data-editor-ready", "");
        if (this.el.hasAttribute("data-editor-task")) this.showTask(s.files);
        if (errors) this.tabs.mark(compileErrors(errors, Object.keys(s.files)));
        return;
      } catch (err) {
        this.say("unsaved", "not loaded: " + (err instanceof Error ? err.message : String(err)) + "; trying again in " + wait + " s");
        await new Promise((r) => setTimeout(r, wait * 1000));
      }
    }
  }

  /** @param {Record<string, string>} files */
  showTask(files) {
    const doc = packageDoc(files);
    if (!doc) return;
    const id = "editor-task-" + this.exercise;
    const body = h("div", { class: "editor-task-text", tabindex: "0", role: "region", "aria-labelledby": id }, doc);
    this.el.prepend(h("aside", { class: "editor-task", "data-testid": "editor-task" }, h("h3", { id }, "The task"), body));
    this.el.classList.add("editor--with-task");
  }

  /**
   * say writes the save line.
   * @param {string} state saved, saving, unsaved, conflict
   * @param {string} text
   */
  say(state, text) {
    if (this.status.textContent === text && this.status.getAttribute("data-save-state") === state) {
      return; // said already: a screen reader would read it again on every keystroke
    }
    this.status.textContent = text;
    this.status.setAttribute("data-save-state", state);
  }

  /** @param {SaveState} s */
  showState(s) {
    switch (s.state) {
      case "saved":
        // Read, not written: until an edit there is nothing this page saved.
        this.say("saved", s.opened ? "no edits yet" : "saved");
        this.el.setAttribute("data-editor-version", this.saver.version);
        break;
      case "saving":
        this.say("saving", "saving…");
        break;
      case "unsaved":
        this.say("unsaved", "not saved: " + s.why + (s.retrying ? "" : ". Your text stays here; edit it to save again."));
        break;
      case "conflict":
        if (this.mode === "local") {
          this.say("conflict", "not saved: the files changed on disk since they were opened here.");
          this.offer(s.disk, "The files in exercises/" + this.exercise + "/ changed on disk (another editor?) while this page had its own edits.");
        } else {
          this.say("conflict", "not saved: your draft was saved from another tab or machine since this page read it.");
          this.offer(s.disk, "Your draft of " + this.exercise + " was saved from another tab or machine while this page had its own edits.");
        }
        break;
    }
  }

  /**
   * offer asks the learner which copy to keep: the disk's, or theirs.
   * @param {Snapshot} disk
   * @param {string} why
   */
  offer(disk, why) {
    const reload = h("button", { type: "button", class: "button", "data-testid": "editor-reload" },
      this.mode === "local" ? "Reload from disk" : "Take the saved draft");
    const keep = h("button", { type: "button", class: "button button--quiet", "data-testid": "editor-keep" }, "Keep mine (overwrite)");
    reload.addEventListener("click", () => {
      this.choice.hidden = true;
      this.tabs.set(disk.files);
      this.saver.loaded(disk);
      this.say("saved", this.mode === "local" ? "reloaded from disk" : "reloaded the saved draft");
    });
    keep.addEventListener("click", () => {
      this.choice.hidden = true;
      void this.saver.overwrite(disk.version);
    });
    this.choice.replaceChildren(h("p", { role: "alert" }, why), this.changes(disk), h("div", { class: "editor-choice-buttons" }, reload, " ", keep));
    this.choice.hidden = false;
  }

  /**
   * changes shows, file by file, the lines that differ between this
   * page's text (marked −) and disk's (+), with a line of context.
   * @param {Snapshot} disk
   * @returns {HTMLElement}
   */
  changes(disk) {
    const mine = this.tabs.files();
    const where = this.mode === "local" ? "on disk" : "in the saved draft";
    const box = h("div", { class: "editor-diff", "data-testid": "editor-diff" },
      h("p", {}, "What differs: lines marked + are " + where + ", lines marked − are yours here."));
    const names = [...new Set([...Object.keys(mine), ...Object.keys(disk.files)])].sort();
    for (const name of names) {
      const a = mine[name], b = disk.files[name];
      if (a === b) continue;
      if (a === undefined || b === undefined) {
        box.append(h("p", {}, h("code", {}, name), a === undefined ? " is new " + where + "." : " is gone " + where + "."));
        continue;
      }
      const pre = h("pre", { tabindex: "0", role: "region", "aria-label": "Changes to " + name });
      for (const l of hunks(lineDiff(a, b), 1)) {
        if (l === "…") {
          pre.append(h("span", { class: "editor-diff-gap" }, "…"), "\n");
        } else {
          const sign = l.op === "-" ? "−" : l.op;
          pre.append(l.op === " " ? sign + " " + l.text : h(l.op === "+" ? "ins" : "del", {}, sign + " " + l.text), "\n");
        }
      }
      box.append(h("p", { class: "editor-diff-file" }, h("code", {}, name)), pre);
    }
    return box;
  }

  /**
   * followLive listens to the live loop's events (live.js): a save seen
   * under exercises/<ID>/ (ours, or another editor's), and compile errors.
   */
  followLive() {
    // The websocket (re)opened (the lab restarted?): a save made
    // meanwhile was not heard of.
    document.addEventListener("ratelab:live-open", (e) => {
      const d = /** @type {CustomEvent<{reopened: boolean}>} */ (e).detail;
      if (d && d.reopened) void this.refresh(); // the first opening: the files were just read
    });
    document.addEventListener("ratelab:saved", (e) => {
      const d = /** @type {CustomEvent<{exercises: string[]}>} */ (e).detail;
      if (d.exercises.includes(this.exercise)) void this.refresh();
    });
    document.addEventListener("ratelab:not-built", (e) => {
      const d = /** @type {CustomEvent<{exercises: string[], message: string}>} */ (e).detail;
      if (d.exercises.includes(this.exercise)) this.tabs.mark(compileErrors(d.message, Object.keys(this.tabs.files())));
    });
    document.addEventListener("ratelab:graded", (e) => {
      const d = /** @type {CustomEvent<{exercise: string}>} */ (e).detail;
      if (d.exercise === this.exercise) this.tabs.mark([]); // it built
    });
  }

  /**
   * refresh reads the files again and takes what changed elsewhere: a save
   * seen on disk (local), the draft saved from another tab or machine
   * (class, when this page comes back to the front). Nothing unsaved here:
   * the new files replace the old quietly, and the save line says so.
   * Edits not saved yet: the learner chooses.
   */
  async refresh() {
    if (!this.el.hasAttribute("data-editor-ready")) return; // the first load reads it
    /** @type {Snapshot} */
    let now;
    for (;;) {
      while (this.saver.inFlight) await this.saver.inFlight; // our own save's answer first
      const known = this.saver.version;
      try {
        now = await this.backend.load();
      } catch {
        return; // the next event will try again
      }
      // A save of ours that started or ended during the read: read again,
      // or the read could undo it.
      if (!this.saver.inFlight && this.saver.version === known) break;
    }
    if (now.version === this.saver.version || this.saver.blocked) return;
    const local = this.mode === "local";
    if (!this.saver.dirty()) {
      const before = this.tabs.files();
      const changed = Object.keys(now.files).filter((n) => before[n] !== now.files[n]);
      this.tabs.set(now.files);
      this.saver.loaded(now);
      this.say("saved", (local ? "reloaded from disk: " : "reloaded: ") + (changed.join(", ") || "files") +
        (local ? " changed there" : " changed in another tab or on another machine"));
      return;
    }
    this.saver.blocked = true;
    this.say("conflict", local ? "not saved: the files changed on disk while you were editing here." : "not saved: your draft changed elsewhere while you were editing here.");
    this.offer(now, local
      ? "The files in exercises/" + this.exercise + "/ changed on disk while this page has edits not saved yet."
      : "Your draft of " + this.exercise + " was saved from another tab or machine while this page has edits not saved yet.");
  }

  /** classButtons adds Check and Submit (class mode). */
  classButtons() {
    const checks = attr(this.el, "data-editor-checks", "/class/api/checks");
    const submit = attr(this.el, "data-editor-submit", "/class/submissions");
    if (checks) {
      // Check is the secondary action, Submit the main one: they look it.
      const b = h("button", { type: "button", class: "button button--quiet", "data-testid": "editor-check" }, "Check");
      b.addEventListener("click", () => { void this.check(/** @type {HTMLButtonElement} */ (b), checks); });
      this.actions.append(b);
    }
    if (submit) {
      const b = h("button", { type: "button", class: "button", "data-testid": "editor-submit" }, "Submit");
      b.addEventListener("click", () => { void this.submit(/** @type {HTMLButtonElement} */ (b), submit); });
      this.actions.append(" ", b);
    }
  }

  /**
   * saved flushes the draft and reports whether every edit is saved,
   * saying why not in the output area.
   */
  async saved() {
    this.out.replaceChildren(h("p", {}, "Saving your draft…"));
    await this.saver.flush();
    if (this.saver.dirty()) {
      this.out.replaceChildren(h("p", { class: "note trap" }, "Your draft is not saved, so it was not sent: " + this.status.textContent));
      return false;
    }
    return true;
  }

  /** @returns {Record<string, string>} */
  headers() {
    /** @type {Record<string, string>} */
    const hd = { Accept: "application/json" };
    if (this.csrf) hd["X-CSRF-Token"] = this.csrf;
    return hd;
  }

  /**
   * check grades the saved draft in the sandbox (not a submission) and
   * shows the report below the editor, marking compile errors.
   * @param {HTMLButtonElement} button
   * @param {string} url
   */
  async check(button, url) {
    button.disabled = true;
    try {
      if (!(await this.saved())) return;
      this.out.replaceChildren(h("p", {}, "Checking your draft (it does not count as a submission)…"));
      const { status, body, response } = await request(url, {
        method: "POST",
        headers: { ...this.headers(), "Content-Type": "application/json" },
        body: JSON.stringify({ exercise: this.exercise }),
      });
      if (status === 429) {
        const wait = response.headers.get("Retry-After") || "a few";
        this.out.replaceChildren(h("p", { class: "note trap", "data-testid": "check-wait" },
          "You have used your checks for now: try again in " + wait + " s. Submitting does not use them."));
        return;
      }
      if (status !== 200 || !body || !body.result) {
        this.out.replaceChildren(h("p", { class: "note trap" }, "Not checked: " + problemText(status, body)));
        return;
      }
      const lines = reportCompileErrors(body.result);
      this.tabs.mark(lines ? compileErrors(lines, Object.keys(this.tabs.files())) : []);
      if (typeof body.report === "string" && body.report) {
        const box = h("div", { "data-testid": "check-report" });
        box.innerHTML = body.report; // rendered and escaped by the server's templates
        this.out.replaceChildren(h("h3", {}, "Check"), box);
      } else {
        this.out.replaceChildren(h("h3", {}, "Check"), renderResult(body.result));
      }
    } catch (err) {
      this.out.replaceChildren(h("p", { class: "note trap" }, "Not checked: " + (err instanceof Error ? err.message : String(err))));
    } finally {
      button.disabled = false;
    }
  }

  /**
   * submit posts the saved draft's files as a submission and links to its
   * page.
   * @param {HTMLButtonElement} button
   * @param {string} url
   */
  async submit(button, url) {
    button.disabled = true;
    try {
      if (!(await this.saved())) return;
      const form = new FormData();
      if (this.csrf) form.append("_csrf", this.csrf);
      form.append("exercise", this.exercise);
      for (const [name, text] of Object.entries(this.tabs.files())) {
        form.append("files", new File([text], name, { type: "text/x-go" }));
      }
      const { status, body } = await request(url, { method: "POST", headers: this.headers(), body: form });
      if ((status === 200 || status === 202) && body && body.url) {
        const link = h("a", { href: body.url, "data-testid": "submission-link" }, "Submission " + (body.number || body.id));
        const line = h("p", { class: "note", "data-testid": "submit-line", "data-state": "grading" }, link, " is being graded…");
        this.out.replaceChildren(line);
        if (body.live) this.follow(body.url, body.live, line, link);
        return;
      }
      this.out.replaceChildren(h("p", { class: "note trap" }, "Not submitted: " + problemText(status, body)));
    } catch (err) {
      this.out.replaceChildren(h("p", { class: "note trap" }, "Not submitted: " + (err instanceof Error ? err.message : String(err))));
    } finally {
      button.disabled = false;
    }
  }

  /**
   * follow listens to a submission's grading (its websocket, live) and,
   * once it is done, turns the submit line into the grade: the score, and
   * when it was late its penalty and the score that counts.
   * @param {string} url the submission's page, which answers its JSON
   * @param {string} live its websocket's path
   * @param {HTMLElement} line
   * @param {HTMLElement} link
   */
  follow(url, live, line, link) {
    const ws = new WebSocket((location.protocol === "https:" ? "wss://" : "ws://") + location.host + live);
    let ended = false;
    const end = async () => {
      if (ended) return;
      ended = true;
      ws.close();
      try {
        const { status, body } = await request(url, { headers: { Accept: "application/json" } });
        if (status !== 200 || !body) throw new Error("the server answered " + status);
        if (body.state === "superseded") {
          line.replaceChildren(link, ": superseded by a newer submission before it was graded.");
          return;
        }
        if (body.state !== "done") {
          line.replaceChildren(link, " is being graded: its page will have the grade.");
          return;
        }
        line.replaceChildren(link, ": " + gradeWords(body));
        line.setAttribute("data-state", "graded");
      } catch (err) {
        line.replaceChildren(link, " was submitted; its grade is on its page (" + (err instanceof Error ? err.message : String(err)) + ").");
      }
    };
    ws.onmessage = (m) => {
      const e = JSON.parse(m.data);
      if (e.type === EVENT.GRADE) void end();
    };
    ws.onclose = () => { void end(); };
  }
}

for (const el of document.querySelectorAll("[data-editor]")) {
  mount(/** @type {HTMLElement} */ (el));
}
