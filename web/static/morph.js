// @ts-check
// morph: update a part of the page in place to match new HTML, keeping the
// elements that stay (and so the keyboard focus, a scroll position, an
// open replay) instead of replacing them.
//
// Elements are matched among their siblings by tag and key: the id, else
// data-key, else data-testid; elements without a key match the next one
// of their tag without a key. A matched element keeps its identity: its
// attributes and children are brought to the new ones'. What the page's
// own scripts own stays as they left it: the `hidden` of a replay box
// (replay.js shows it), the `open` of a <details> (the reader's), and the
// whole replay box while its counterexample is the same.

/**
 * morph makes el's children those of html, reusing el's elements.
 * @param {Element} el
 * @param {string} html rendered and escaped by the server's templates
 */
export function morph(el, html) {
  const tpl = document.createElement("template");
  tpl.innerHTML = html;
  children(el, tpl.content);
}

/** @param {Node} n */
function key(n) {
  if (!(n instanceof Element)) return "#" + n.nodeType;
  return n.tagName + "|" + (n.id || n.getAttribute("data-key") || n.getAttribute("data-testid") || "");
}

/**
 * children brings old's child nodes to neu's, in order.
 * @param {Node} old
 * @param {Node} neu
 */
function children(old, neu) {
  /** @type {Map<string, Node[]>} the old children not matched yet, by key */
  const free = new Map();
  for (const o of old.childNodes) {
    const k = key(o);
    const list = free.get(k);
    if (list) list.push(o);
    else free.set(k, [o]);
  }
  /** @type {Node[]} */
  const want = [];
  for (const n of [...neu.childNodes]) {
    const o = free.get(key(n))?.shift();
    if (o) {
      update(o, n);
      want.push(o);
    } else {
      want.push(n);
    }
  }
  for (const list of free.values()) for (const o of list) old.removeChild(o);
  // Move or insert only the nodes out of place: a node left where it is
  // keeps the focus it holds.
  want.forEach((n, i) => {
    if (old.childNodes[i] !== n) old.insertBefore(n, old.childNodes[i] || null);
  });
}

/**
 * update brings the node old to neu, matched by key.
 * @param {Node} old
 * @param {Node} neu
 */
function update(old, neu) {
  if (!(old instanceof Element) || !(neu instanceof Element)) {
    if (old.nodeValue !== neu.nodeValue) old.nodeValue = neu.nodeValue;
    return;
  }
  const replay = old.hasAttribute("data-replay-cx");
  if (replay && old.getAttribute("data-replay-cx") === neu.getAttribute("data-replay-cx")) {
    return; // the same counterexample: its Replay, open or not, stays
  }
  /** @type {Set<string>} */
  const keep = new Set();
  if (replay) keep.add("hidden");
  if (old instanceof HTMLDetailsElement) keep.add("open");
  for (const a of [...old.attributes]) {
    if (!neu.hasAttribute(a.name) && !keep.has(a.name)) old.removeAttribute(a.name);
  }
  for (const a of neu.attributes) {
    if (!keep.has(a.name) && old.getAttribute(a.name) !== a.value) old.setAttribute(a.name, a.value);
  }
  children(old, neu);
}
