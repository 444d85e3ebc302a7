// @ts-check
// The learner's files as tabs over one CodeMirror view: a WAI-ARIA tablist
// (arrow keys, Home and End move between the tabs and open them; Tab goes
// on into the code), one EditorState per file (each keeps its own undo
// history and cursor), Go highlighting, and compile errors as lint marks
// on their lines, counted on their tab.

import { EditorState } from "@codemirror/state";
import {
  EditorView, keymap, lineNumbers, highlightActiveLine, highlightActiveLineGutter, drawSelection,
} from "@codemirror/view";
import { defaultKeymap, history, historyKeymap, indentWithTab } from "@codemirror/commands";
import { LanguageSupport, bracketMatching, indentOnInput, indentUnit, syntaxHighlighting } from "@codemirror/language";
import { goLanguage } from "@codemirror/lang-go";
import { diagnosticCount, lintGutter, setDiagnostics } from "@codemirror/lint";
import { classHighlighter } from "@lezer/highlight";

/** @typedef {import("./compile.js").CompileError} CompileError */

let nextID = 0;

export class Tabs {
  /**
   * @param {HTMLElement} root where the tablist and the code go
   * @param {string} label the tablist's accessible name
   * @param {() => void} onEdit called on every change of any file's text
   * @param {() => void} onSave called on Ctrl-S (Cmd-S): save now
   */
  constructor(root, label, onEdit, onSave) {
    this.id = "editor-" + ++nextID;
    this.onEdit = onEdit;
    /** @type {Map<string, EditorState>} the files' states; the open one's is the view's */
    this.states = new Map();
    /** @type {Map<string, number>} compile errors per file */
    this.errors = new Map();
    /** @type {string} the open file */
    this.open = "";
    this.list = document.createElement("div");
    this.list.className = "editor-tabs";
    this.list.setAttribute("role", "tablist");
    this.list.setAttribute("aria-label", label);
    this.list.addEventListener("keydown", (e) => this.onKey(e));
    this.panel = document.createElement("div");
    this.panel.className = "editor-code";
    this.panel.id = this.id + "-panel";
    this.panel.setAttribute("role", "tabpanel");
    root.append(this.list, this.panel);
    this.view = new EditorView({ parent: this.panel });
    this.extensions = [
      lineNumbers(), highlightActiveLineGutter(), highlightActiveLine(), drawSelection(),
      history(), indentOnInput(), bracketMatching(), lintGutter(),
      new LanguageSupport(goLanguage), syntaxHighlighting(classHighlighter),
      indentUnit.of("\t"), EditorState.tabSize.of(4),
      // Tab indents, as in any Go editor; Escape then Tab (or Ctrl-M, which
      // toggles it) moves the focus on instead: CodeMirror's tab-focus mode.
      keymap.of([
        { key: "Mod-s", preventDefault: true, run: () => { onSave(); return true; } },
        ...defaultKeymap, ...historyKeymap, indentWithTab,
      ]),
      // tabindex: the code is in the tab order already (contenteditable),
      // but axe-core counts only a tabindex as focusable content of the
      // scrolling area around it.
      EditorView.contentAttributes.of({ "aria-label": "Code", tabindex: "0" }),
      EditorView.updateListener.of((u) => {
        if (!u.docChanged) return;
        // A marked line edited away takes its mark with it: the tab's
        // count follows what is still marked.
        const n = diagnosticCount(u.state);
        if (this.open && n !== (this.errors.get(this.open) || 0)) {
          this.errors.set(this.open, n);
          this.label(this.open);
        }
        this.onEdit();
      }),
    ];
  }

  /**
   * set replaces every file (a load, or a reload from disk) and opens the
   * one that was open if it is still there, else the first with code in
   * it: doc.go holds the package's doc comment, the task, and the code
   * goes in the others.
   * @param {Record<string, string>} files
   */
  set(files) {
    const names = Object.keys(files).sort();
    this.states = new Map(names.map((n) => [n, EditorState.create({ doc: files[n], extensions: this.extensions })]));
    this.errors = new Map();
    const open = this.states.has(this.open) ? this.open : names.find((n) => n !== "doc.go") || names[0] || "";
    this.open = "";
    this.renderTabs();
    if (open) this.show(open, false);
  }

  /** files returns every file's text now. @returns {Record<string, string>} */
  files() {
    if (this.open) this.states.set(this.open, this.view.state);
    /** @type {Record<string, string>} */
    const out = {};
    for (const [name, st] of this.states) out[name] = st.doc.toString();
    return out;
  }

  renderTabs() {
    this.list.replaceChildren();
    for (const name of this.states.keys()) {
      const tab = document.createElement("button");
      tab.type = "button";
      tab.id = this.tabID(name);
      tab.className = "editor-tab";
      tab.setAttribute("role", "tab");
      tab.setAttribute("aria-controls", this.panel.id);
      tab.setAttribute("data-file", name);
      tab.addEventListener("click", () => this.show(name, false));
      this.list.append(tab);
      this.label(name);
    }
    this.select();
  }

  /** @param {string} name */
  tabID(name) {
    return this.id + "-tab-" + name.replace(/[^A-Za-z0-9_-]/g, "_");
  }

  /** label writes a tab's text: the name, and its compile errors if any. @param {string} name */
  label(name) {
    const tab = this.list.querySelector(`[data-file="${CSS.escape(name)}"]`);
    if (!tab) return;
    const n = this.errors.get(name) || 0;
    tab.replaceChildren(name);
    if (n) {
      const mark = document.createElement("span");
      mark.className = "editor-tab-errors";
      mark.textContent = n === 1 ? "1 error" : n + " errors";
      tab.append(" ", mark);
    }
    tab.toggleAttribute("data-errors", n > 0);
  }

  /** select marks the open tab selected, the only one in the tab order. */
  select() {
    for (const tab of this.list.querySelectorAll("[role=tab]")) {
      const on = tab.getAttribute("data-file") === this.open;
      tab.setAttribute("aria-selected", String(on));
      /** @type {HTMLElement} */ (tab).tabIndex = on ? 0 : -1;
    }
    if (this.open) this.panel.setAttribute("aria-labelledby", this.tabID(this.open));
  }

  /**
   * show opens file name in the view.
   * @param {string} name
   * @param {boolean} focusTab move the focus to its tab (arrow keys)
   */
  show(name, focusTab) {
    const st = this.states.get(name);
    if (!st) return;
    if (this.open && this.open !== name) this.states.set(this.open, this.view.state);
    if (this.open !== name) {
      this.open = name;
      this.view.setState(st);
    }
    this.select();
    if (focusTab) {
      /** @type {HTMLElement | null} */ (this.list.querySelector(`[data-file="${CSS.escape(name)}"]`))?.focus();
    }
  }

  /** @param {KeyboardEvent} e */
  onKey(e) {
    const names = [...this.states.keys()];
    const i = names.indexOf(this.open);
    /** @type {number | null} */
    let j = null;
    if (e.key === "ArrowRight") j = (i + 1) % names.length;
    else if (e.key === "ArrowLeft") j = (i - 1 + names.length) % names.length;
    else if (e.key === "Home") j = 0;
    else if (e.key === "End") j = names.length - 1;
    if (j === null) return;
    e.preventDefault();
    this.show(names[j], true);
  }

  /**
   * mark shows compile errors as lint marks on their lines (replacing any
   * shown before) and counts them on the tabs; [] clears them.
   * @param {CompileError[]} errs
   */
  mark(errs) {
    if (this.open) this.states.set(this.open, this.view.state);
    this.errors = new Map();
    for (const e of errs) this.errors.set(e.file, (this.errors.get(e.file) || 0) + 1);
    for (const [name, st] of this.states) {
      const doc = st.doc;
      const diags = errs.filter((e) => e.file === name).map((e) => {
        const line = doc.line(Math.min(Math.max(e.line, 1), doc.lines));
        const from = Math.min(line.from + Math.max(e.column - 1, 0), line.to);
        return { from, to: line.to > from ? line.to : from, severity: /** @type {const} */ ("error"), message: e.message, source: "go build" };
      });
      if (name === this.open) {
        this.view.dispatch(setDiagnostics(this.view.state, diags));
      } else {
        this.states.set(name, st.update(setDiagnostics(st, diags)).state);
      }
      this.label(name);
    }
  }
}
