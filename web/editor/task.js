// @ts-check
// The task beside the editor: the stub's package doc comment, the
// "// Package x ..." block just above a file's package clause, as plain
// text. The exercise page of the local lab shows the lesson's task above
// the editor and does not ask for it; class pages may (data-editor-task).

/**
 * packageDoc returns the package doc comment found in files (doc.go first,
 * then the others by name), without its comment markers, or "".
 * @param {Record<string, string>} files
 * @returns {string}
 */
export function packageDoc(files) {
  const names = Object.keys(files).sort((a, b) => (a === "doc.go" ? -1 : b === "doc.go" ? 1 : a < b ? -1 : a > b ? 1 : 0));
  for (const name of names) {
    const doc = docOf(files[name]);
    if (doc) return doc;
  }
  return "";
}

/**
 * docOf returns the // comment block that ends right above the package
 * clause of src, if it starts with "Package".
 * @param {string} src
 * @returns {string}
 */
function docOf(src) {
  const lines = src.split("\n");
  const pkg = lines.findIndex((l) => /^package\s+\w+/.test(l));
  if (pkg <= 0) return "";
  let start = pkg;
  while (start > 0 && /^\/\/( |$)/.test(lines[start - 1])) start--;
  const text = lines.slice(start, pkg).map((l) => l.replace(/^\/\/ ?/, "")).join("\n").trim();
  return text.startsWith("Package ") ? text : "";
}
