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

  // The dashboard: update a learner's cell and the exercise's pitfalls.
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
    var setText = function (td, text, submission) {
      td.textContent = "";
      var a = document.createElement("a");
      a.href = "/class/submissions/" + submission;
      a.textContent = text;
      td.appendChild(a);
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
        if (td.getAttribute("data-status") === "") { setText(td, "grading…", e.submission); }
        return;
      }
      if (e.type !== EVENT.DONE || !e.cell) { return; }
      var c = e.cell;
      td.setAttribute("data-state", c.state);
      td.setAttribute("data-status", c.latest_status || "");
      setText(td, c.graded ? num(c.best) + " / " + num(c.max) + (c.latest !== c.best ? " (latest " + num(c.latest) + ")" : "") : "—", c.submission); // as cellText in web/page/class.go
      td.classList.remove("flash");
      void td.offsetWidth;
      td.classList.add("flash");
      var graded = document.querySelector("[data-graded=\"" + e.exercise + "\"]");
      if (graded && e.graded) { graded.textContent = "(" + e.graded + " graded)"; }
      var ol = document.querySelector("ol[data-pitfalls=\"" + e.exercise + "\"]");
      if (ol && e.pitfalls) {
        ol.textContent = "";
        e.pitfalls.forEach(function (p) {
          var li = document.createElement("li");
          var code = document.createElement("code");
          code.textContent = p.pitfall;
          li.appendChild(code);
          li.appendChild(document.createTextNode(": " + p.learners));
          ol.appendChild(li);
        });
      }
    };
  }
})();
