// Class mode's live views: a submission's grading as it happens, and the
// instructor's dashboard updating as results land. Both read JSON events
// from a websocket (internal/server/class_live.go); without this script the
// pages still work, reloaded by hand. The events are named in events.js
// (internal/event).

import { EVENT } from "./events.js";

(function () {
  "use strict";

  function socket(path) {
    var proto = location.protocol === "https:" ? "wss://" : "ws://";
    return new WebSocket(proto + location.host + path);
  }

  function num(x) {
    return Number.isInteger(x) ? String(x) : x.toFixed(1);
  }

  // readPage, once set below, reads a learner's page again for its live
  // parts (data-live-part); a page without it reloads instead.
  var readPage = null;

  // A submission's page: list each check as it runs; when graded, show
  // the report: on a learner's page by reading its live parts again (a
  // reload there would race the read her page's own socket starts, and
  // navigate away from a report already shown), elsewhere by a reload.
  var live = document.querySelector("[data-live-submission]");
  if (live) {
    var status = live.querySelector("[data-testid=live-status]");
    var log = live.querySelector("[data-testid=progress]");
    var ws = socket(live.getAttribute("data-live-submission"));
    ws.onmessage = function (m) {
      var e = JSON.parse(m.data);
      var li;
      switch (e.type) {
        case EVENT.QUEUED: status.textContent = "Queued: waiting for a grader…"; break;
        case EVENT.RUNNING: status.textContent = e.message ? "Grading: " + e.message + "…" : "Grading…"; break;
        case EVENT.BUILD: status.textContent = "Building your code…"; break;
        case EVENT.START: status.textContent = "Running " + e.check + "…"; break;
        case EVENT.CHECK:
          li = document.createElement("li");
          li.setAttribute("data-status", e.result.status);
          li.textContent = e.result.id + ": " + e.result.status + " (" + num(e.result.score) + " / " + num(e.result.max_score) + ")";
          log.appendChild(li);
          break;
        case EVENT.GRADE:
          status.textContent = "Graded: " + (e.status || "") + " " + num(e.score) + " / " + num(e.max_score) + ". Loading the report…";
          ws.onclose = null;
          ws.close(1000);
          if (readPage) { readPage(); } else { setTimeout(function () { location.reload(); }, 300); }
          break;
        case EVENT.RESYNC: location.reload(); break;
      }
    };
    ws.onclose = function (ev) {
      if (ev.code !== 1000) { status.textContent += " (live updates stopped: reload the page)"; }
    };
  }

  // served holds each live part's HTML (data-live-part) as the server
  // last wrote it, read before any script here changes the page.
  var served = {};
  var liveParts = function (root) { return root.querySelectorAll("[data-live-part]"); };
  Array.prototype.forEach.call(liveParts(document), function (p) { served[p.getAttribute("data-live-part")] = p.outerHTML; });

  // Wide tables scroll sideways in a box (templ scrollBox): mark the edges
  // that hide more (data-more="left", "right" or both), which lab.css
  // shades and hints at; on a screen wide enough nothing is marked.
  var scrollBoxes = function () {
    var boxes = document.querySelectorAll("[data-scroll-x]");
    for (var i = 0; i < boxes.length; i++) {
      (function (box) {
        var inner = box.querySelector(".table-scroll");
        if (!inner || box.hasAttribute("data-scroll-watched")) { return; }
        box.setAttribute("data-scroll-watched", "");
        var mark = function () {
          var more = [];
          if (inner.scrollLeft > 1) { more.push("left"); }
          if (inner.scrollLeft + inner.clientWidth < inner.scrollWidth - 1) { more.push("right"); }
          if (more.length) { box.setAttribute("data-more", more.join(" ")); } else { box.removeAttribute("data-more"); }
        };
        inner.addEventListener("scroll", mark, { passive: true });
        window.addEventListener("resize", mark);
        mark();
      })(boxes[i]);
    }
  };
  scrollBoxes();

  // focusKey names the element that has the keyboard focus inside root,
  // so that the same one can take it back in root's fresh copy.
  var focusKey = function (root) {
    var a = document.activeElement;
    if (!a || a === document.body || !root.contains(a)) { return null; }
    var names = ["data-testid", "data-sort", "href", "id"];
    for (var i = 0; i < names.length; i++) {
      if (a.hasAttribute(names[i])) { return "[" + names[i] + "=\"" + a.getAttribute(names[i]).replace(/"/g, "\\\"") + "\"]"; }
    }
    return null;
  };
  var refocus = function (root, key) {
    var el = key ? root.querySelector(key) : null;
    if (el && el.focus) { el.focus(); }
  };

  // updateCells brings part's table cells (td with a data-testid) to the
  // fresh copy's in place, and reports whether it could: false when the
  // cells differ in number or names (a learner or an exercise came), and
  // the part must be replaced whole. A changed cell flashes.
  var updateCells = function (part, fresh) {
    var now = part.querySelectorAll("td[data-testid]"), next = fresh.querySelectorAll("td[data-testid]");
    if (now.length !== next.length) { return false; }
    for (var i = 0; i < now.length; i++) {
      if (now[i].getAttribute("data-testid") !== next[i].getAttribute("data-testid")) { return false; }
    }
    for (var k = 0; k < now.length; k++) {
      var td = now[k], nx = next[k];
      if (td.innerHTML === nx.innerHTML && td.getAttribute("data-state") === nx.getAttribute("data-state")) { continue; }
      for (var a = 0; a < nx.attributes.length; a++) { td.setAttribute(nx.attributes[a].name, nx.attributes[a].value); }
      var key = focusKey(td);
      td.innerHTML = nx.innerHTML;
      refocus(td, key);
      td.classList.remove("flash");
      void td.offsetWidth;
      td.classList.add("flash");
    }
    return true;
  };

  // follow keeps a page's live parts (data-live-part) as a reload would
  // show them: it returns a function that reads the page again (one read
  // at a time; one asked for meanwhile comes after) and replaces each part
  // whose HTML the server changed, keeping the keyboard focus; a part
  // marked data-live-cells has its cells updated in place instead. Then it
  // calls after, and counts the reads in body's data-live-reads.
  // While a read is under way or asked for, the body carries
  // data-live-reading: what the page shows beyond the cells may be older
  // than the last event (tests wait for it to go).
  var follow = function (state, after) {
    var busy = false, again = false;
    var read = function () {
      document.body.setAttribute("data-live-reading", "1");
      if (busy) { again = true; return; }
      busy = true;
      fetch(location.pathname + location.search, { credentials: "same-origin", headers: { Accept: "text/html" } })
        .then(function (r) { if (!r.ok) { throw new Error("reading the page: " + r.status); } return r.text(); })
        .then(function (html) {
          var doc = new DOMParser().parseFromString(html, "text/html");
          var parts = liveParts(document);
          for (var i = 0; i < parts.length; i++) {
            var part = parts[i], name = part.getAttribute("data-live-part");
            var fresh = doc.querySelector("[data-live-part=\"" + name + "\"]");
            if (!fresh) { continue; }
            var cells = part.hasAttribute("data-live-cells");
            if (!cells && fresh.outerHTML === served[name]) { continue; }
            served[name] = fresh.outerHTML;
            if (cells && updateCells(part, fresh)) { continue; }
            var key = focusKey(part);
            var node = document.importNode(fresh, true);
            part.replaceWith(node);
            refocus(node, key);
          }
          scrollBoxes();
          if (after) { after(); }
          document.body.setAttribute("data-live-reads", String(Number(document.body.getAttribute("data-live-reads") || 0) + 1));
        })
        .catch(function () { if (state) { state.textContent = "live updates stopped: reload the page"; state.removeAttribute("data-live"); } })
        .then(function () {
          busy = false;
          if (again) { again = false; read(); return; }
          document.body.removeAttribute("data-live-reading");
        });
    };
    return read;
  };

  // listen opens a page's websocket of events and reads the page again
  // (read) on each, saying in state whether it is live.
  var listen = function (path, state, read, onEvent) {
    var ws = socket(path);
    ws.onopen = function () { if (state) { state.textContent = "live"; state.setAttribute("data-live", "1"); } };
    ws.onclose = function () { if (state) { state.textContent = "live updates stopped: reload the page"; state.removeAttribute("data-live"); } };
    ws.onmessage = function (m) {
      var e = JSON.parse(m.data);
      if (e.type === EVENT.RESYNC) { location.reload(); return; }
      if (e.type === EVENT.HELLO) { return; }
      if (onEvent) { onEvent(e); }
      read();
    };
  };

  // A learner's pages (her home, an exercise, a submission) follow her
  // submissions' gradings and the course's changes.
  var mine = document.querySelector("[data-live-page]");
  if (mine) {
    var mineState = document.querySelector("[data-testid=live-state]");
    readPage = follow(mineState, null);
    listen(mine.getAttribute("data-live-page"), mineState, readPage, null);
  }

  // The dashboard: a learner's cell takes the words the server sends at
  // once (internal/class/cell writes them; nothing here does), then the
  // page is read again for the rest (the cells, the pitfalls table, which
  // this script sorts, the scores that count, the due dates, the
  // submissions, the queue).
  var dash = document.querySelector("[data-live-dashboard]");
  if (dash) {
    var state = document.querySelector("[data-testid=live-state]");
    var cell = function (learner, exercise) {
      var cells = document.querySelectorAll("td[data-learner]");
      for (var i = 0; i < cells.length; i++) {
        if (cells[i].getAttribute("data-learner") === learner && cells[i].getAttribute("data-exercise") === exercise) {
          return cells[i];
        }
      }
      return null;
    };
    // show writes a cell as class.Cell's text and note say, as the page
    // does (web/page/class.templ).
    var show = function (td, c) {
      td.setAttribute("data-state", c.state || "");
      td.setAttribute("data-status", c.latest_status || "");
      td.textContent = "";
      if (c.submission > 0) {
        var a = document.createElement("a");
        a.href = "/class/submissions/" + c.submission;
        a.textContent = c.text;
        td.appendChild(a);
      } else {
        td.appendChild(document.createTextNode(c.text));
      }
      if (c.note) {
        var small = document.createElement("small");
        small.className = "cell-note";
        small.setAttribute("data-testid", "cell-note");
        small.textContent = c.note;
        td.appendChild(document.createTextNode(" "));
        td.appendChild(small);
      }
    };

    // The pitfalls table: sorted by exercise (the server's order) or by
    // count, most first; a second press of the same button reverses.
    var pitfalls = document.querySelector("[data-pitfalls-section]");
    var sort = { key: "exercise", dir: "ascending" };
    var applySort = function () {
      var table = pitfalls && pitfalls.querySelector("table");
      if (!table) { return; }
      var tbody = table.tBodies[0];
      var rows = Array.prototype.slice.call(tbody.rows);
      var sign = sort.dir === "ascending" ? 1 : -1;
      var order = function (r) { return Number(r.getAttribute("data-order")); };
      var count = function (r) { return Number(r.getAttribute("data-count")); };
      rows.sort(function (a, b) {
        if (sort.key === "count" && count(a) !== count(b)) { return sign * (count(a) - count(b)); }
        return sort.key === "count" ? order(a) - order(b) : sign * (order(a) - order(b));
      });
      rows.forEach(function (r) { tbody.appendChild(r); });
      var ths = table.querySelectorAll("th[data-sort-key]");
      for (var i = 0; i < ths.length; i++) {
        if (ths[i].getAttribute("data-sort-key") === sort.key) { ths[i].setAttribute("aria-sort", sort.dir); } else { ths[i].removeAttribute("aria-sort"); }
      }
    };
    if (pitfalls) {
      pitfalls.addEventListener("click", function (ev) {
        var target = /** @type {Element} */ (ev.target);
        var button = target.closest ? target.closest("button[data-sort]") : null;
        if (!button) { return; }
        var key = button.getAttribute("data-sort");
        if (key === sort.key) {
          sort.dir = sort.dir === "ascending" ? "descending" : "ascending";
        } else {
          sort = { key: key, dir: key === "count" ? "descending" : "ascending" };
        }
        applySort();
      });
    }
    listen(dash.getAttribute("data-live-dashboard"), state, follow(state, applySort), function (e) {
      if (!e.learner || !e.cell) { return; }
      var td = cell(e.learner, e.exercise);
      if (td) { show(td, e.cell); }
    });
  }
})();
