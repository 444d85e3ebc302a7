package main

import (
	"context"
	"net/http"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/chromedp"

	"ratelab/internal/browsertest"
)

// TestClassDashboardLiveInBrowser signs an instructor in with a real
// browser and watches a learner's cell change on the dashboard, without a
// reload, when their submission is graded.
func TestClassDashboardLiveInBrowser(t *testing.T) {
	if testing.Short() {
		t.Skip("a browser test: make test runs it")
	}
	ctx := browsertest.NewBrowser(t, browsertest.BrowserOptions{Timeout: 2 * time.Minute})
	errs := browsertest.Console(ctx)
	db, tokens := setupClass(t, "ada", "bob")
	s := startClassServer(t, db, "--no-bench")

	browsertest.Do(t, ctx,
		chromedp.Navigate(s.URL+"/class/login"),
		chromedp.WaitVisible(browsertest.TestID("instructor-login")),
		chromedp.SendKeys(`[data-testid=instructor-login] input[name=name]`, "prof"),
		chromedp.SendKeys(`[data-testid=instructor-login] input[name=password]`, "correct horse battery"),
		chromedp.Submit(`[data-testid=instructor-login] input[name=password]`),
	)
	browsertest.WaitTestID(t, ctx, "dashboard-title")
	if got := browsertest.TextOf(t, ctx, "cell-ada-tokenbucket"); got != "—" {
		t.Errorf("ada's cell before any submission = %q, want —", got)
	}
	// Wait for the websocket, then mark the page: a reload would lose it.
	browsertest.Do(t, ctx, chromedp.Poll[chromedp.Void](`document.querySelector("[data-testid=live-state][data-live]")`, chromedp.WithPollingTimeout(20*time.Second)))
	browsertest.Eval[int](t, ctx, `window.__sameDocument = 1`)

	code, _, body := post(t, s, tokens["ada"], "tokenbucket", solutionFiles(t, "tokenbucket")...)
	if code != http.StatusAccepted {
		t.Fatalf("ada's submission: %d %v", code, body)
	}
	browsertest.Do(t, ctx, chromedp.Poll[chromedp.Void](
		`document.querySelector("[data-testid='cell-ada-tokenbucket']").textContent.trim() === "31 / 35"`,
		chromedp.WithPollingTimeout(90*time.Second)))
	if same := browsertest.Eval[int](t, ctx, `window.__sameDocument || 0`); same != 1 {
		t.Error("the dashboard reloaded instead of updating in place")
	}
	// The page as the server writes it says the same: the best score out
	// of the exercise's points (31 of 35 without the benchmark), not
	// "31 / 31", which read as full marks.
	browsertest.Do(t, ctx, chromedp.Reload(), chromedp.WaitVisible(browsertest.TestID("dashboard-title")))
	if got := browsertest.TextOf(t, ctx, "cell-ada-tokenbucket"); got != "31 / 35" {
		t.Errorf("ada's cell after a reload = %q, want 31 / 35", got)
	}
	if got := browsertest.TextOf(t, ctx, "cell-bob-tokenbucket"); got != "—" {
		t.Errorf("bob's cell = %q, want — (only ada submitted)", got)
	}
	browsertest.Screenshot(t, ctx, "dashboard")

	// The drill-down shows the report, built from the same components as
	// the exercise pages.
	browsertest.Do(t, ctx, chromedp.Click(`[data-testid='cell-ada-tokenbucket'] a`))
	browsertest.WaitTestID(t, ctx, "report")
	if got := browsertest.TextOf(t, ctx, "score"); !strings.HasPrefix(got, "31") {
		t.Errorf("drill-down score = %q, want 31 / 35", got)
	}
	if e := errs(); len(e) > 0 {
		t.Errorf("console errors: %q", e)
	}
}

// TestClassLearnerUploadsInBrowser signs a learner in with their token,
// uploads the exercise through the web form and follows the grading on the
// submission's page until its report shows.
func TestClassLearnerUploadsInBrowser(t *testing.T) {
	if testing.Short() {
		t.Skip("a browser test: make test runs it")
	}
	ctx := browsertest.NewBrowser(t, browsertest.BrowserOptions{Timeout: 2 * time.Minute})
	errs := browsertest.Console(ctx)
	db, tokens := setupClass(t, "ada")
	s := startClassServer(t, db, "--no-bench")
	abs, err := filepath.Abs(filepath.Join("..", "..", "solutions", "tokenbucket", "tokenbucket.go"))
	if err != nil {
		t.Fatal(err)
	}
	browsertest.Do(t, ctx,
		chromedp.Navigate(s.URL+"/class/login"),
		chromedp.WaitVisible(browsertest.TestID("learner-login")),
		chromedp.SendKeys(`[data-testid=learner-login] input[name=token]`, tokens["ada"]),
		chromedp.Submit(`[data-testid=learner-login] input[name=token]`),
	)
	browsertest.WaitTestID(t, ctx, "upload-form")
	browsertest.Do(t, ctx,
		chromedp.SetValue(`[data-testid=upload-form] select[name=exercise]`, "tokenbucket"),
		chromedp.SetUploadFiles(`[data-testid=upload-form] input[name=files]`, []string{abs}),
		chromedp.Submit(`[data-testid=upload-form] select[name=exercise]`),
	)
	browsertest.WaitTestID(t, ctx, "submission-title")
	browsertest.Eval[int](t, ctx, `window.__sameDocument = 1`)
	// The page follows the grading live, then shows the report in place:
	// a reload would race the read the page's own socket starts.
	// (A reload came 300 ms after the grading's end: the second's wait
	// gives it time to show; a page that keeps its document passes at once
	// or after, whatever the machine's speed.)
	browsertest.Do(t, ctx, chromedp.WaitVisible(browsertest.TestID("report")), chromedp.Sleep(time.Second))
	if same := browsertest.Eval[int](t, ctx, `window.__sameDocument || 0`); same != 1 {
		t.Error("the submission's page reloaded to show its report instead of reading it in place")
	}
	if got := browsertest.TextOf(t, ctx, "score"); !strings.HasPrefix(got, "31") {
		t.Errorf("score after the web upload = %q, want 31 / 35", got)
	}
	browsertest.Screenshot(t, ctx, "submission")
	if e := errs(); len(e) > 0 {
		t.Errorf("console errors: %q", e)
	}
}

// signInInstructor signs prof in at the login page and waits for the
// dashboard and its websocket.
func signInInstructor(t *testing.T, ctx context.Context, s *classServer) {
	t.Helper()
	browsertest.Do(t, ctx,
		chromedp.Navigate(s.URL+"/class/login"),
		chromedp.WaitVisible(browsertest.TestID("instructor-login")),
		chromedp.SendKeys(`[data-testid=instructor-login] input[name=name]`, "prof"),
		chromedp.SendKeys(`[data-testid=instructor-login] input[name=password]`, "correct horse battery"),
		chromedp.Submit(`[data-testid=instructor-login] input[name=password]`),
	)
	browsertest.WaitTestID(t, ctx, "dashboard-title")
	browsertest.Do(t, ctx, chromedp.Poll[chromedp.Void](`document.querySelector("[data-testid=live-state][data-live]")`, chromedp.WithPollingTimeout(20*time.Second)))
}

// colorScheme makes the tab's pages prefer a "light" or "dark" colour
// scheme, as the reader's system setting does.
func colorScheme(t *testing.T, ctx context.Context, scheme string) {
	t.Helper()
	if _, err := chromedp.Call(ctx, emulation.SetEmulatedMedia, emulation.SetEmulatedMediaParams{
		Features: []*emulation.MediaFeature{{Name: "prefers-color-scheme", Value: scheme}},
	}); err != nil {
		t.Fatalf("emulating prefers-color-scheme: %s: %v", scheme, err)
	}
}

// contrastJS defines contrast(el): the WCAG contrast ratio of el's text
// colour against the first opaque background at or above it.
const contrastJS = `window.contrast = function (el) {
	function rgb(s) { var m = s.match(/[\d.]+/g).map(Number); return { r: m[0], g: m[1], b: m[2], a: m.length > 3 ? m[3] : 1 }; }
	function lum(c) {
		var f = function (v) { v /= 255; return v <= 0.03928 ? v / 12.92 : Math.pow((v + 0.055) / 1.055, 2.4); };
		return 0.2126 * f(c.r) + 0.7152 * f(c.g) + 0.0722 * f(c.b);
	}
	var bg = null;
	for (var n = el; n && n.nodeType === 1; n = n.parentElement) {
		var c = rgb(getComputedStyle(n).backgroundColor);
		if (c.a > 0.99) { bg = c; break; }
	}
	if (!bg) { bg = rgb(getComputedStyle(document.body).backgroundColor); }
	var fg = lum(rgb(getComputedStyle(el).color)), b = lum(bg);
	return (Math.max(fg, b) + 0.05) / (Math.min(fg, b) + 0.05);
};`

// TestClassDashboardPitfallsInBrowser fills a class's pitfalls live and
// checks the dashboard an instructor reads: one table of the pitfalls hit
// (no card per exercise; the exercises with none hit on one line), counts
// shaded with readable text in both colour schemes, sorted from the
// keyboard, each count linking to the submissions behind it.
func TestClassDashboardPitfallsInBrowser(t *testing.T) {
	if testing.Short() {
		t.Skip("a browser test: make test runs it")
	}
	ctx := browsertest.NewBrowser(t, browsertest.BrowserOptions{Width: 1400, Height: 900, Timeout: 3 * time.Minute})
	errs := browsertest.Console(ctx)
	db, tokens := setupClass(t, "ada", "bob", "cy")
	s := startClassServer(t, db, "--no-bench")
	signInInstructor(t, ctx, s)
	browsertest.Eval[int](t, ctx, `window.__sameDocument = 1`)

	// ada lets the bucket pass its capacity; bob too, and lets time run
	// back; cy submits the reference.
	noCap := tokenbucketWith(t, "if carry|borrow != 0 {", "if carry != 0 {", "")
	noCapBack := tokenbucketWith(t, "if carry|borrow != 0 {", "if carry != 0 {", "")
	for i := range noCapBack {
		noCapBack[i].content = strings.Replace(noCapBack[i].content, "nowNs = max(nowNs, b.latestNs)", "", 1)
	}
	for _, sub := range []struct {
		learner string
		files   []upload
	}{
		{"ada", noCap},
		{"bob", noCapBack},
		{"cy", solutionFiles(t, "tokenbucket")},
	} {
		if code, _, body := post(t, s, tokens[sub.learner], "tokenbucket", sub.files...); code != http.StatusAccepted {
			t.Fatalf("%s's submission: %d %v", sub.learner, code, body)
		}
	}
	// Wait until the three gradings landed and the table followed them:
	// the cells change as each event comes, the table when the page has
	// been read again after it (data-live-reading gone).
	browsertest.Do(t, ctx, chromedp.Poll[chromedp.Void](`(function () {
		if (document.body.hasAttribute("data-live-reading")) { return false; }
		var cap = document.querySelector("[data-testid='pitfall-tokenbucket-capacity']");
		var graded = ["ada", "bob", "cy"].every(function (l) {
			return document.querySelector("[data-testid='cell-" + l + "-tokenbucket']").textContent.indexOf(" / 35") >= 0;
		});
		return graded && cap && cap.getAttribute("data-count") === "2" && document.querySelectorAll("[data-pitfalls-section] tbody tr").length >= 2;
	})()`, chromedp.WithPollingTimeout(2*time.Minute)))
	if same := browsertest.Eval[int](t, ctx, `window.__sameDocument || 0`); same != 1 {
		t.Error("the dashboard reloaded instead of updating in place")
	}
	// One table and one line: no card per exercise.
	if n := browsertest.Eval[int](t, ctx, `document.querySelectorAll("[data-pitfalls-section] .card, [data-pitfalls-section] table").length`); n != 1 {
		t.Errorf("the pitfalls section has %d tables and cards; want one table", n)
	}
	if n := browsertest.Eval[int](t, ctx, `document.querySelectorAll("[data-testid=pitfalls-quiet] [data-quiet]").length`); n != 9 {
		t.Errorf("the line of exercises with no pitfall hit names %d; want the other 9", n)
	}
	rows := func() []string {
		return browsertest.Eval[[]string](t, ctx, `Array.from(document.querySelectorAll("[data-pitfalls-section] tbody tr")).map(function (r) {
			return r.getAttribute("data-testid").replace("pitfall-tokenbucket-", "") + "=" + r.getAttribute("data-count") + ":" + r.querySelector(".heat").getAttribute("data-level");
		})`)
	}
	got := rows()
	if len(got) < 2 || got[0] != "capacity=2:3" || !slices.Contains(got, "backward-time=1:2") {
		t.Errorf("pitfall rows = %q; want capacity first (2 of 3 graded: level 3), backward-time 1 (level 2)", got)
	}
	browsertest.Screenshot(t, ctx, "dashboard-1400")

	// Sorting from the keyboard: the buttons sit in the column headers,
	// whose aria-sort follows.
	ariaSort := func() string {
		return browsertest.Eval[string](t, ctx, `Array.from(document.querySelectorAll("[data-pitfalls-section] th[aria-sort]")).map(function (th) { return th.getAttribute("data-sort-key") + ":" + th.getAttribute("aria-sort"); }).join(",")`)
	}
	counts := func() []string {
		return browsertest.Eval[[]string](t, ctx, `Array.from(document.querySelectorAll("[data-pitfalls-section] tbody tr")).map(function (r) { return r.getAttribute("data-count"); })`)
	}
	browsertest.Do(t, ctx, chromedp.Focus(browsertest.TestID("sort-count")), chromedp.KeyEvent("\r"))
	if a, c := ariaSort(), counts(); a != "count:descending" || !slices.IsSortedFunc(c, func(x, y string) int { return strings.Compare(y, x) }) {
		t.Errorf("after Enter on Learners: aria-sort %q, counts %q; want count:descending, most first", a, c)
	}
	browsertest.Do(t, ctx, chromedp.KeyEvent("\r"))
	if a, c := ariaSort(), counts(); a != "count:ascending" || !slices.IsSorted(c) {
		t.Errorf("after a second Enter: aria-sort %q, counts %q; want count:ascending, fewest first", a, c)
	}
	browsertest.Do(t, ctx, chromedp.Focus(browsertest.TestID("sort-exercise")), chromedp.KeyEvent(" "))
	if a, r := ariaSort(), rows(); a != "exercise:ascending" || r[0] != got[0] {
		t.Errorf("after Space on Exercise: aria-sort %q, rows %q; want exercise:ascending, the page's first order %q", a, r, got)
	}

	// Every shade keeps the count readable (4.5:1), in both schemes.
	browsertest.Eval[int](t, ctx, contrastJS+"; 1")
	shades := `(function () {
		var td = document.querySelector("[data-pitfalls-section] .heat"), a = td.querySelector("a"), was = td.getAttribute("data-level"), out = [];
		for (var l = 1; l <= 4; l++) { td.setAttribute("data-level", String(l)); out.push(Math.round(contrast(a) * 10) / 10); }
		td.setAttribute("data-level", was);
		return out;
	})()`
	for _, scheme := range []string{"light", "dark"} {
		colorScheme(t, ctx, scheme)
		for l, ratio := range browsertest.Eval[[]float64](t, ctx, shades) {
			if ratio < 4.5 {
				t.Errorf("%s scheme: a count shaded at level %d has contrast %.1f:1; want at least 4.5:1", scheme, l+1, ratio)
			}
		}
	}
	browsertest.Screenshot(t, ctx, "dashboard-1400-dark")
	colorScheme(t, ctx, "light")

	// A count links to the submissions behind it.
	browsertest.Do(t, ctx, chromedp.Click(`[data-testid='pitfall-tokenbucket-capacity'] a`))
	browsertest.WaitTestID(t, ctx, "filtered-title")
	learners := browsertest.Eval[[]string](t, ctx, `Array.from(document.querySelectorAll("[data-testid=submissions] tbody tr td:nth-child(2)")).map(function (td) { return td.textContent.trim(); }).sort()`)
	if !slices.Equal(learners, []string{"ada", "bob"}) {
		t.Errorf("capacity's submissions are %q; want ada's and bob's", learners)
	}
	browsertest.Screenshot(t, ctx, "pitfall-submissions")
	if e := errs(); len(e) > 0 {
		t.Errorf("console errors: %q", e)
	}
}

// TestClassRegradeKeepsTheStandingScoreInBrowser regrades a class while
// the grader is busy with another learner's endless loop, so that ada's
// regrade waits: her cell keeps its standing score with a "grading…" note
// beside it (it used to show nothing of the regrade), never a lower score
// at any moment, and the note goes once the new result is stored.
func TestClassRegradeKeepsTheStandingScoreInBrowser(t *testing.T) {
	if testing.Short() {
		t.Skip("a browser test: make test runs it")
	}
	ctx := browsertest.NewBrowser(t, browsertest.BrowserOptions{Width: 1400, Height: 900, Timeout: 3 * time.Minute})
	errs := browsertest.Console(ctx)
	db, tokens := setupClass(t, "ada", "bob")
	// bob's Available never returns: each check that calls it holds the
	// one worker for --call-cpu, a dozen of them, while ada's regrade waits.
	s := startClassServer(t, db, "--no-bench", "--call-cpu", "1s")
	signInInstructor(t, ctx, s)
	if code, _, body := post(t, s, tokens["ada"], "tokenbucket", solutionFiles(t, "tokenbucket")...); code != http.StatusAccepted {
		t.Fatalf("ada's submission: %d %v", code, body)
	}
	ada := `document.querySelector("[data-testid='cell-ada-tokenbucket']")`
	browsertest.Do(t, ctx, chromedp.Poll[chromedp.Void](ada+`.textContent.trim() === "31 / 35"`, chromedp.WithPollingTimeout(90*time.Second)))
	loop := tokenbucketWith(t, "func (b *TokenBucket) Available(nowNs uint64) uint64 {", "func (b *TokenBucket) Available(nowNs uint64) uint64 {\n\tfor nowNs > 0 {\n\t}\n", "")
	if code, _, body := post(t, s, tokens["bob"], "tokenbucket", loop...); code != http.StatusAccepted {
		t.Fatalf("bob's submission: %d %v", code, body)
	}
	browsertest.Do(t, ctx, chromedp.Poll[chromedp.Void](`document.querySelector("[data-testid='cell-bob-tokenbucket']").getAttribute("data-state") === "running"`, chromedp.WithPollingTimeout(60*time.Second)))

	browsertest.Do(t, ctx, chromedp.Click(browsertest.TestID("regrade")), chromedp.WaitVisible(browsertest.TestID("regraded")))
	// Record every text ada's cell shows from now on.
	browsertest.Eval[int](t, ctx, `(function () {
		var td = `+ada+`;
		window.__adaTexts = [td.textContent.trim()];
		new MutationObserver(function () { window.__adaTexts.push(td.textContent.trim()); }).observe(td, { subtree: true, childList: true, characterData: true });
		return 1;
	})()`)
	browsertest.Do(t, ctx, chromedp.Poll[chromedp.Void](ada+`.querySelector("[data-testid=cell-note]")`, chromedp.WithPollingTimeout(10*time.Second)))
	if got := browsertest.TextOf(t, ctx, "cell-ada-tokenbucket"); got != "31 / 35 grading…" {
		t.Errorf("ada's cell while her regrade waits = %q, want 31 / 35 grading…", got)
	}
	browsertest.Screenshot(t, ctx, "regrading")
	// The regrade lands once bob's loop has spun out its checks.
	browsertest.Do(t, ctx, chromedp.Poll[chromedp.Void](ada+`.getAttribute("data-state") === "done" && !`+ada+`.querySelector("[data-testid=cell-note]")`, chromedp.WithPollingTimeout(2*time.Minute)))
	if got := browsertest.TextOf(t, ctx, "cell-ada-tokenbucket"); got != "31 / 35" {
		t.Errorf("ada's cell after her regrade = %q, want 31 / 35", got)
	}
	for _, text := range browsertest.Eval[[]string](t, ctx, `window.__adaTexts`) {
		if !strings.HasPrefix(text, "31 / 35") {
			t.Errorf("during the regrade ada's cell showed %q; want her standing 31 / 35 throughout (seen: %q)", text, browsertest.Eval[[]string](t, ctx, `window.__adaTexts`))
			break
		}
	}
	if e := errs(); len(e) > 0 {
		t.Errorf("console errors: %q", e)
	}
}

// TestClassSubmitFormStyledInBrowser checks the learner's submit form
// wears the lab's look, not the platform's native controls: the select and
// the file input drawn by lab.css (the page's surface and lines, in the
// dark scheme too), as wide as the form, the submit a .button; and it fits
// a 390 px phone without sideways scrolling.
func TestClassSubmitFormStyledInBrowser(t *testing.T) {
	if testing.Short() {
		t.Skip("a browser test: make test runs it")
	}
	ctx := browsertest.NewBrowser(t, browsertest.BrowserOptions{Width: 1400, Height: 900})
	errs := browsertest.Console(ctx)
	db, tokens := setupClass(t, "ada")
	s := startClassServer(t, db, "--no-bench")
	browsertest.Do(t, ctx,
		chromedp.Navigate(s.URL+"/class/login"),
		chromedp.WaitVisible(browsertest.TestID("learner-login")),
		chromedp.SendKeys(`[data-testid=learner-login] input[name=token]`, tokens["ada"]),
		chromedp.Submit(`[data-testid=learner-login] input[name=token]`),
	)
	browsertest.WaitTestID(t, ctx, "upload-form")
	browsertest.Eval[int](t, ctx, contrastJS+"; 1")
	look := func() map[string]any {
		return browsertest.Eval[map[string]any](t, ctx, `(function () {
			var form = document.querySelector("[data-testid=upload-form]"), sel = form.querySelector("select"), file = form.querySelector("input[type=file]");
			var button = form.querySelector("button[type=submit]"), cs = getComputedStyle(sel), fs = getComputedStyle(file);
			var surface = getComputedStyle(document.documentElement).getPropertyValue("--surface").trim();
			var probe = document.createElement("div"); probe.style.color = surface; document.body.appendChild(probe);
			var surfaceRGB = getComputedStyle(probe).color; probe.remove();
			return {
				selectAppearance: cs.appearance, selectRadius: cs.borderTopLeftRadius, selectBackground: cs.backgroundColor === surfaceRGB,
				selectContrast: Math.round(contrast(sel) * 10) / 10, fileRadius: fs.borderTopLeftRadius,
				sameWidth: Math.abs(sel.getBoundingClientRect().width - file.getBoundingClientRect().width) < 1,
				button: button.classList.contains("button") && getComputedStyle(button).borderTopStyle === "none",
				pageWidth: document.documentElement.scrollWidth, viewport: window.innerWidth
			};
		})()`)
	}
	check := func(when string) {
		t.Helper()
		l := look()
		if l["selectAppearance"] != "none" || l["selectRadius"] != "8px" || l["selectBackground"] != true || l["fileRadius"] != "8px" || l["sameWidth"] != true || l["button"] != true {
			t.Errorf("%s: submit form %v; want the select and file input drawn by lab.css (no native look, 8px corners, the surface colour, one width) and a .button without a native border", when, l)
		}
		if c, _ := l["selectContrast"].(float64); c < 4.5 {
			t.Errorf("%s: the select's text has contrast %.1f:1; want at least 4.5:1", when, c)
		}
		if l["pageWidth"].(float64) > l["viewport"].(float64) {
			t.Errorf("%s: the page is %v px wide in a %v px viewport", when, l["pageWidth"], l["viewport"])
		}
	}
	check("1400 px")
	browsertest.Screenshot(t, ctx, "form-1400")
	colorScheme(t, ctx, "dark")
	check("1400 px, dark")
	browsertest.Screenshot(t, ctx, "form-1400-dark")
	browsertest.Phone(t, ctx)
	check("390 px, dark")
	browsertest.ScreenshotViewport(t, ctx, "form-390-dark")
	colorScheme(t, ctx, "light")
	check("390 px")
	browsertest.ScreenshotViewport(t, ctx, "form-390")
	if e := errs(); len(e) > 0 {
		t.Errorf("console errors: %q", e)
	}
}

// TestClassDashboardWidthInBrowser checks the scores table uses a wide
// screen's width (at 1400 px all ten exercise columns and the learner's in
// view, no scrolling), and on a 390 px phone scrolls sideways inside its
// box with a cue (a hint and a shaded edge) while the learner's name stays
// in view.
func TestClassDashboardWidthInBrowser(t *testing.T) {
	if testing.Short() {
		t.Skip("a browser test: make test runs it")
	}
	ctx := browsertest.NewBrowser(t, browsertest.BrowserOptions{Width: 1400, Height: 900, Timeout: 3 * time.Minute})
	errs := browsertest.Console(ctx)
	db, tokens := setupClass(t, "ada", "bob")
	s := startClassServer(t, db, "--no-bench")
	signInInstructor(t, ctx, s)
	// ada's best and a lower latest: the widest a cell gets. Each step
	// waits for the cell's words after that grading (a wait on its state
	// alone could see the previous grading's "done").
	for _, step := range []struct {
		files []upload
		want  string
	}{
		{solutionFiles(t, "tokenbucket"), "31 / 35"},
		{tokenbucketWith(t, "if carry|borrow != 0 {", "if carry != 0 {", ""), "31 / 35 (latest 26)"},
	} {
		if code, _, body := post(t, s, tokens["ada"], "tokenbucket", step.files...); code != http.StatusAccepted {
			t.Fatalf("ada's submission: %d %v", code, body)
		}
		browsertest.Do(t, ctx, chromedp.Poll[chromedp.Void](`document.querySelector("[data-testid='cell-ada-tokenbucket']").textContent.trim() === "`+step.want+`"`, chromedp.WithPollingTimeout(90*time.Second)))
	}
	browsertest.Screenshot(t, ctx, "dashboard-1400")

	// At 1400 px every exercise's column is in view: the scores table
	// does not scroll, and says nothing about scrolling.
	wide := browsertest.Eval[map[string]any](t, ctx, `(function () {
		var inner = document.querySelector("[data-testid=gradebook]").closest(".table-scroll"), box = inner.closest("[data-scroll-x]");
		var ths = Array.from(document.querySelectorAll("[data-testid=gradebook] thead th")), right = inner.getBoundingClientRect().right;
		return { scrolls: inner.scrollWidth > inner.clientWidth, columns: ths.length,
			offscreen: ths.filter(function (th) { return th.getBoundingClientRect().right > Math.min(right, window.innerWidth) + 1; }).length,
			more: box ? box.getAttribute("data-more") || "" : "", hint: box ? getComputedStyle(box.querySelector(".scroll-hint")).display : "none" };
	})()`)
	if wide["scrolls"] != false || wide["columns"] != 11.0 || wide["offscreen"] != 0.0 || wide["more"] != "" || wide["hint"] != "none" {
		t.Errorf("scores at 1400 px: %v; want 11 columns in view, no scrolling, no hint", wide)
	}

	// On a phone the table scrolls sideways, says so, and keeps the
	// learner's name in view.
	browsertest.Phone(t, ctx)
	browsertest.Do(t, ctx, chromedp.Poll[chromedp.Void](`(document.querySelector("[data-testid=scores-scroll]").getAttribute("data-more") || "").indexOf("right") >= 0`, chromedp.WithPollingTimeout(10*time.Second)))
	if hint := browsertest.Eval[string](t, ctx, `getComputedStyle(document.querySelector("[data-testid=scores-scroll-hint]")).display`); hint == "none" {
		t.Error("at 390 px the scores table hides columns and shows no scroll hint")
	}
	if w := browsertest.Eval[int](t, ctx, `document.documentElement.scrollWidth`); w > 390 {
		t.Errorf("at 390 px the page is %d px wide: it scrolls as a whole, not the table", w)
	}
	browsertest.ScreenshotViewport(t, ctx, "dashboard-390")
	browsertest.Eval[int](t, ctx, `(function () { var i = document.querySelector("[data-testid=scores-scroll] .table-scroll"); i.scrollLeft = i.scrollWidth; return 1; })()`)
	browsertest.Do(t, ctx, chromedp.Poll[chromedp.Void](`(document.querySelector("[data-testid=scores-scroll]").getAttribute("data-more") || "") === "left"`, chromedp.WithPollingTimeout(10*time.Second)))
	sticky := browsertest.Eval[map[string]any](t, ctx, `(function () {
		var inner = document.querySelector("[data-testid=scores-scroll] .table-scroll"), name = document.querySelector("[data-testid=gradebook] tbody th");
		return { box: Math.round(inner.getBoundingClientRect().left), name: Math.round(name.getBoundingClientRect().left), text: name.textContent };
	})()`)
	if d := sticky["name"].(float64) - sticky["box"].(float64); d < -1 || d > 2 {
		t.Errorf("scrolled to the last column, the learner's name %v sits at %v px, the box at %v: want it kept at the box's left edge", sticky["text"], sticky["name"], sticky["box"])
	}
	browsertest.ScreenshotViewport(t, ctx, "dashboard-390-scrolled")
	colorScheme(t, ctx, "dark")
	browsertest.Screenshot(t, ctx, "dashboard-390-dark")

	if e := errs(); len(e) > 0 {
		t.Errorf("console errors: %q", e)
	}
}
