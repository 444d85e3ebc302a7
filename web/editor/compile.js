// @ts-check
// Compile errors as lines of the editor's files. The grader reports code
// that does not build as the compiler's lines (report.Exercise with status
// "error" and a message "does not build:\n<lines>", grader.CompileError;
// the live loop's not_built event carries the same lines alone), each
// "path/to/file.go:12:5: undefined: x", the path relative to wherever it
// was built: exercises/<name>/ locally, a sandbox's folder in class mode.
// Only the file's base name is kept, and only lines naming a file the
// editor has become marks.

/**
 * @typedef {object} CompileError
 * @property {string} file    the file's base name, e.g. "gcra.go"
 * @property {number} line    1-based
 * @property {number} column  1-based; 0 when the compiler gave none
 * @property {string} message e.g. "undefined: x"
 */

/** The prefix of a report's message when the code does not build (grader.notBuilt). */
const NOT_BUILT = "does not build:\n";

// A compiler line: an optional folder, the file, line, optional column, message.
const LINE = /^(?:.*[\\/])?([A-Za-z0-9][A-Za-z0-9_.-]*\.go):(\d+)(?::(\d+))?:\s*(.*)$/;

/**
 * compileErrors returns the errors named in text (a report's message or the
 * compiler's lines) that fall in one of files; indented continuation lines
 * (the compiler's "have/want" details) are appended to the error above.
 * @param {string} text
 * @param {Iterable<string>} files the editor's file names
 * @returns {CompileError[]}
 */
export function compileErrors(text, files) {
  const names = new Set(files);
  /** @type {CompileError[]} */
  const out = [];
  /** @type {CompileError | null} */
  let last = null;
  for (const raw of text.split("\n")) {
    const m = LINE.exec(raw.trim());
    if (m && names.has(m[1])) {
      last = { file: m[1], line: Number(m[2]), column: Number(m[3] || 0), message: m[4] };
      out.push(last);
    } else if (last && /^\s+\S/.test(raw)) {
      last.message += "\n" + raw.trim();
    } else {
      last = null;
    }
  }
  return out;
}

/**
 * reportCompileErrors returns the compiler's lines of a graded exercise
 * that did not build, or "" for any other result (grader.CompileError).
 * @param {{status?: string, message?: string} | null | undefined} result
 * @returns {string}
 */
export function reportCompileErrors(result) {
  if (!result || result.status !== "error" || !result.message || !result.message.startsWith(NOT_BUILT)) {
    return "";
  }
  return result.message.slice(NOT_BUILT.length);
}
