package browsertest

import (
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/cdproto/page"
	"github.com/chromedp/chromedp"

	"ratelab/internal/live"
)

// countFilesGETs is run in the page before its scripts: it counts the GETs
// of the exercise's files API in window.filesGETs.
const countFilesGETs = `window.filesGETs = 0;
const fetch0 = window.fetch;
window.fetch = function (url, init) {
	if (String(url).includes("/files") && (!init || !init.method || init.method === "GET")) window.filesGETs++;
	return fetch0.apply(this, arguments);
};`

// ringHue is the hue, in degrees, of the focus ring of the focused code,
// and its colour.
const ringHue = `(() => {
	const c = getComputedStyle(document.querySelector("[data-editor] .cm-editor.cm-focused")).outlineColor;
	const [r, g, b] = c.match(/[\d.]+/g).map(Number).map((v) => v / 255);
	const max = Math.max(r, g, b), min = Math.min(r, g, b), d = max - min;
	let h = 0;
	if (d > 0) h = max === r ? 60 * (((g - b) / d) % 6) : max === g ? 60 * ((b - r) / d + 2) : 60 * ((r - g) / d + 4);
	return {hue: (h + 360) % 360, color: c, sat: max === 0 ? 0 : d / max};
})()`

// The local editor as it opens and meets a change on disk: it reads its
// files once (the live websocket's first opening does not read them
// again), says nothing was saved before any edit, rings the focused code
// in a colour other than the errors' red, and its conflict prompt shows
// the lines that differ between the disk and the page.
func TestEditorOpensOnceAndShowsTheConflict(t *testing.T) {
	t.Parallel()
	RequireChromium(t)
	root := CopyExercises(t)
	s := StartServer(t, ServerOptions{Files: root, Live: &live.Hub{}})
	ctx := NewBrowser(t, BrowserOptions{})
	p := editorPage{t, ctx}
	if _, err := chromedp.Call(ctx, page.AddScriptToEvaluateOnNewDocument, page.AddScriptToEvaluateOnNewDocumentParams{Source: countFilesGETs}); err != nil {
		t.Fatal(err)
	}
	Open(t, ctx, s, "/exercises/gcra", "editor")
	p.poll("the editor and the live websocket", `document.querySelector("[data-editor-ready]") && document.documentElement.dataset.live === "open" ? {} : null`, 20*time.Second)
	if n := Eval[int](t, ctx, `window.filesGETs`); n != 1 {
		t.Errorf("the page read the exercise's files %d times as it opened; want once", n)
	}
	if got := p.status(); strings.Contains(got, "saved") {
		t.Errorf("the freshly opened editor says %q: nothing has been saved yet", got)
	}

	Do(t, ctx, chromedp.Focus(`[data-editor] .cm-content`))
	p.poll("the focused code", `document.querySelector("[data-editor] .cm-editor.cm-focused") ? {} : null`, 10*time.Second)
	ring := Eval[map[string]any](t, ctx, ringHue)
	if hue, sat := ring["hue"].(float64), ring["sat"].(float64); sat > 0.3 && (hue < 45 || hue > 330) {
		t.Errorf("the focused code's ring is %v (hue %.0f°): the red of errors; want another colour", ring["color"], hue)
	}

	// The disk changes under edits not saved yet (no live loop runs here:
	// the save finds it out).
	disk := filepath.Join(root, "exercises", "gcra", "gcra.go")
	stub, err := os.ReadFile(disk)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(disk, []byte(strings.Replace(string(stub), "package gcra", "package gcra\n\n// from vim", 1)), 0o644); err != nil {
		t.Fatal(err)
	}
	p.open("gcra.go")
	p.replaceAll(string(stub) + "\n// typed here\n")
	p.waitState("conflict", 20*time.Second)
	diff := TextOf(t, ctx, "editor-diff")
	if !strings.Contains(diff, "+ // from vim") || !strings.Contains(diff, "− // typed here") || !strings.Contains(diff, "gcra.go") {
		t.Errorf("the conflict prompt's changes = %q; want gcra.go's lines: + // from vim (the disk), − // typed here (yours)", diff)
	}
	Screenshot(t, ctx, "editor-conflict-diff")
	CheckA11y(t, ctx, RequireAxe(t), "the conflict prompt with its changes")
}

// Check and Submit of the class editor look different: Submit is the main
// action, Check the secondary one.
func TestEditorCheckAndSubmitDiffer(t *testing.T) {
	t.Parallel()
	RequireChromium(t)
	stub := &classStub{files: map[string]string{"gcra.go": "package gcra\n"}}
	srv := httptest.NewServer(stub.handler(t))
	defer srv.Close()
	ctx := NewBrowser(t, BrowserOptions{})
	p := editorPage{t, ctx}
	Do(t, ctx, chromedp.Navigate(srv.URL+"/class/exercises/gcra"))
	p.poll("the editor", `document.querySelector("[data-editor-ready]") ? {} : null`, 20*time.Second)
	look := Eval[map[string]string](t, ctx, `(() => {
		const s = (id) => { const c = getComputedStyle(document.querySelector('[data-testid="' + id + '"]')); return c.backgroundColor + " " + c.color + " " + c.borderColor; };
		return {check: s("editor-check"), submit: s("editor-submit")};
	})()`)
	if look["check"] == look["submit"] {
		t.Errorf("Check and Submit look the same (%s): Submit is the main action, Check the secondary", look["check"])
	}
	if got := p.status(); strings.Contains(got, "saved") {
		t.Errorf("the freshly opened class editor says %q: nothing has been saved yet", got)
	}
}
