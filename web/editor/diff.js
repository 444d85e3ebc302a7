// @ts-check
// A small line diff for the editor's conflict prompt: what changed on disk
// (or in the draft saved elsewhere) against the text this page holds.

/** @typedef {{op: " " | "-" | "+", text: string}} Line */

/** MAX_CELLS bounds the diff's table (lines of a × lines of b). */
const MAX_CELLS = 1_000_000;

/**
 * lineDiff returns the lines of a and b in order, those only in a marked
 * "-", those only in b "+", common ones " " (a longest common
 * subsequence). Texts too long to compare line by line come out as all of
 * a removed and all of b added.
 * @param {string} a
 * @param {string} b
 * @returns {Line[]}
 */
export function lineDiff(a, b) {
  const x = a.split("\n");
  const y = b.split("\n");
  // Common lines at both ends need no table.
  let start = 0;
  while (start < x.length && start < y.length && x[start] === y[start]) start++;
  let ex = x.length, ey = y.length;
  while (ex > start && ey > start && x[ex - 1] === y[ey - 1]) { ex--; ey--; }
  /** @type {Line[]} */
  const out = x.slice(0, start).map((text) => ({ op: " ", text }));
  const xs = x.slice(start, ex), ys = y.slice(start, ey);
  const n = xs.length, m = ys.length;
  if (n * m > MAX_CELLS) {
    for (const text of xs) out.push({ op: "-", text });
    for (const text of ys) out.push({ op: "+", text });
  } else {
    // lcs[i][j]: the longest common subsequence of xs[i:] and ys[j:].
    const lcs = Array.from({ length: n + 1 }, () => new Uint32Array(m + 1));
    for (let i = n - 1; i >= 0; i--) {
      for (let j = m - 1; j >= 0; j--) {
        lcs[i][j] = xs[i] === ys[j] ? lcs[i + 1][j + 1] + 1 : Math.max(lcs[i + 1][j], lcs[i][j + 1]);
      }
    }
    let i = 0, j = 0;
    while (i < n || j < m) {
      if (i < n && j < m && xs[i] === ys[j]) {
        out.push({ op: " ", text: xs[i] }); i++; j++;
      } else if (i < n && (j === m || lcs[i + 1][j] >= lcs[i][j + 1])) {
        out.push({ op: "-", text: xs[i] }); i++;
      } else {
        out.push({ op: "+", text: ys[j] }); j++;
      }
    }
  }
  for (const text of x.slice(ex)) out.push({ op: " ", text });
  return out;
}

/**
 * hunks keeps the changed lines of d and context lines around each (at
 * most context on each side); a gap between kept lines becomes one line
 * "…". A diff without changes gives [].
 * @param {Line[]} d
 * @param {number} context
 * @returns {(Line | "…")[]}
 */
export function hunks(d, context) {
  const keep = new Array(d.length).fill(false);
  d.forEach((l, i) => {
    if (l.op === " ") return;
    for (let k = Math.max(0, i - context); k <= Math.min(d.length - 1, i + context); k++) keep[k] = true;
  });
  /** @type {(Line | "…")[]} */
  const out = [];
  let gap = false;
  d.forEach((l, i) => {
    if (!keep[i]) { gap = true; return; }
    if (gap && out.length > 0) out.push("…");
    gap = false;
    out.push(l);
  });
  return out;
}
