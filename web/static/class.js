// Class mode's live views: a submission's grading as it happens, and the
// instructor's dashboard updating as results land. Both read JSON events
// from a websocket (internal/server/class_live.go); without this script the
// pages still work, reloaded by hand.
(function () {
  "use strict";

  // EVENT is every event "type" the server sends: the EventType constants
  // of internal/class/events.go, where each is described. Match events
  // against this table only; TestClassJSEventTypes (internal/class) fails
  // when it and the Go constants differ.
  var EVENT = {
    HELLO: "hello",     // the dashboard's stream opens
    QUEUED: "queued",   // waiting for a worker
    RUNNING: "running", // a worker took the job
    BUILD: "build",     // building the learner's code
    START: "start",     // a check started: e.check
    RESULT: "result",   // a check's result: e.result
    DONE: "done",       // graded and stored: e.summary, or e.message
    RESYNC: "resync"    // this view fell behind: reload
  };

  function socket(path) {
    var proto = location.protocol === "https:" ? "wss://" : "ws://";
    return new WebSocket(proto + location.host + path);
  }

  function num(x) {
    return Number.isInteger(x) ? String(x) : x.toFixed(1);
  }

  // A submission's page: list each check as it runs, reload when graded.
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
        case EVENT.RESULT:
          li = document.createElement("li");
          li.setAttribute("data-status", e.result.status);
          li.textContent = e.result.id + ": " + e.result.status + " (" + num(e.result.score) + " / " + num(e.result.max_score) + ")";
          log.appendChild(li);
          break;
        case EVENT.DONE:
          status.textContent = "Graded: " + (e.status || "") + " " + num(e.score) + " / " + num(e.max_score) + ". Loading the report…";
          setTimeout(function () { location.reload(); }, 300);
          break;
        case EVENT.RESYNC: location.reload(); break;
      }
    };
    ws.onclose = function (ev) {
      if (ev.code !== 1000) { status.textContent += " (live updates stopped: reload the page)"; }
    };
  }

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

  // The dashboard: update a learner's cell with the words the server sends
  // (internal/class/cell writes them; nothing here does), and the pitfalls
  // table, which the server renders again and this script sorts.
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
    // refreshPitfalls fetches the table again (one request at a time; a
    // grading that lands meanwhile asks for one more), keeping the sort
    // and the keyboard focus on a sort button.
    var fetching = false, again = false;
    var refreshPitfalls = function () {
      if (!pitfalls) { return; }
      if (fetching) { again = true; return; }
      fetching = true;
      fetch(pitfalls.getAttribute("data-pitfalls-section"), { credentials: "same-origin" })
        .then(function (r) { if (!r.ok) { throw new Error("pitfalls: " + r.status); } return r.text(); })
        .then(function (html) {
          var body = pitfalls.querySelector("[data-pitfalls-body]");
          var focused = document.activeElement && body && body.contains(document.activeElement) ? document.activeElement.getAttribute("data-sort") : null;
          var tmp = document.createElement("div");
          tmp.innerHTML = html;
          var fresh = tmp.querySelector("[data-pitfalls-body]");
          if (body && fresh) { body.replaceWith(fresh); }
          applySort();
          scrollBoxes();
          if (focused) {
            var b = pitfalls.querySelector("button[data-sort=\"" + focused + "\"]");
            if (b) { b.focus(); }
          }
          pitfalls.setAttribute("data-refreshed", String(Number(pitfalls.getAttribute("data-refreshed") || 0) + 1));
        })
        .catch(function () { state.textContent = "live updates stopped: reload the page"; })
        .then(function () {
          fetching = false;
          if (again) { again = false; refreshPitfalls(); }
        });
    };

    var dws = socket(dash.getAttribute("data-live-dashboard"));
    dws.onopen = function () { state.textContent = "live"; state.setAttribute("data-live", "1"); };
    dws.onclose = function () { state.textContent = "live updates stopped: reload the page"; state.removeAttribute("data-live"); };
    dws.onmessage = function (m) {
      var e = JSON.parse(m.data);
      if (e.type === EVENT.RESYNC) { location.reload(); return; }
      if (!e.learner) { return; }
      var td = cell(e.learner, e.exercise);
      if (!td) { return; }
      if (e.type === EVENT.QUEUED || e.type === EVENT.RUNNING) {
        td.setAttribute("data-state", e.type);
        if (e.cell) { show(td, e.cell); }
        return;
      }
      if (e.type !== EVENT.DONE || !e.cell) { return; }
      show(td, e.cell);
      td.classList.remove("flash");
      void td.offsetWidth;
      td.classList.add("flash");
      if (e.pitfalls) { refreshPitfalls(); }
    };
  }
})();
