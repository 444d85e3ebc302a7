package browsertest

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/chromedp/cdproto/fetch"
	"github.com/chromedp/cdproto/input"
	"github.com/chromedp/cdproto/network"
	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"
)

// CopyExercises copies the module's exercises/ into a temporary checkout
// and returns its root: the editor of a test writes there, never into the
// learner's own files.
func CopyExercises(t *testing.T) string {
	t.Helper()
	root, err := ModuleRoot(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	copyModule(t, filepath.Join(root, "exercises"), filepath.Join(dir, "exercises"))
	return dir
}

// waitEditorReady waits until the page's editor, if it has one, has
// loaded its files.
func waitEditorReady(t *testing.T, ctx context.Context) {
	t.Helper()
	ctx, cancel := context.WithTimeout(ctx, 30*time.Second)
	defer cancel()
	if err := chromedp.Do(ctx, chromedp.Poll[chromedp.Void](`!document.querySelector("[data-editor]") || !!document.querySelector("[data-editor-ready]")`,
		chromedp.WithPollingInterval(20*time.Millisecond))); err != nil {
		t.Fatalf("waiting for the editor to load its files: %v", err)
	}
}

// editorPage drives the editor of an exercise page.
type editorPage struct {
	t   *testing.T
	ctx context.Context
}

// poll waits for a JavaScript expression to return an object (null: not
// yet), and returns it; on a timeout it takes a screenshot and fails.
func (p editorPage) poll(what, expr string, timeout time.Duration) map[string]any {
	p.t.Helper()
	v, err := chromedp.Run(p.ctx, chromedp.Poll[map[string]any](expr,
		chromedp.WithPollingInterval(20*time.Millisecond), chromedp.WithPollingTimeout(timeout)))
	if err != nil {
		Screenshot(p.t, p.ctx, "editor-"+strings.ReplaceAll(what, " ", "-"))
		p.t.Fatalf("waiting for %s: %v (the save line says %q)", what, err, p.status())
	}
	return v
}

func (p editorPage) status() string {
	return Eval[string](p.t, p.ctx, `(document.querySelector('[data-testid="editor-status"]') || {}).textContent || ""`)
}

// waitState waits until the save line is in state (saved, saving,
// unsaved, conflict) and returns its text.
func (p editorPage) waitState(state string, timeout time.Duration) string {
	p.t.Helper()
	v := p.poll("the save line to say "+state, `(() => {
		const s = document.querySelector('[data-testid="editor-status"]');
		return s && s.dataset.saveState === `+strconv.Quote(state)+` ? {text: s.textContent} : null;
	})()`, timeout)
	return v["text"].(string)
}

// version is the version the editor last saved or loaded.
func (p editorPage) version() string {
	return Eval[string](p.t, p.ctx, `document.querySelector("[data-editor]").dataset.editorVersion || ""`)
}

// waitSaved waits until the editor says saved with a version other than
// before, and returns its line.
func (p editorPage) waitSaved(before string, timeout time.Duration) string {
	p.t.Helper()
	v := p.poll("the save line to say saved", `(() => {
		const s = document.querySelector('[data-testid="editor-status"]');
		const ed = document.querySelector("[data-editor]");
		return s && s.dataset.saveState === "saved" && ed.dataset.editorVersion !== `+strconv.Quote(before)+` ? {text: s.textContent} : null;
	})()`, timeout)
	return v["text"].(string)
}

// typeAndSave types text over the open file and waits until it is saved.
func (p editorPage) typeAndSave(text string, timeout time.Duration) {
	p.t.Helper()
	before := p.version()
	p.replaceAll(text)
	p.waitSaved(before, timeout)
}

// open opens file's tab by clicking it.
func (p editorPage) open(file string) {
	p.t.Helper()
	Do(p.t, p.ctx, chromedp.Click(`[data-editor] [role=tab][data-file="`+file+`"]`))
}

// text returns file's whole text as the editor holds it (the page shows
// only the lines in view), through the module's mount.
func (p editorPage) text(file string) string {
	p.t.Helper()
	v, err := chromedp.Run(p.ctx, chromedp.Evaluate[string](`import("/static/editor/editor.js").then((m) =>
		m.mount(document.querySelector("[data-editor]")).files()[`+strconv.Quote(file)+`])`, chromedp.EvalAwaitPromise))
	if err != nil {
		p.t.Fatalf("reading %s in the editor: %v", file, err)
	}
	return v
}

// replaceAll selects the open file's whole text and types text over it,
// as an input method does (Input.insertText), so the editor sees input
// events as from a learner.
func (p editorPage) replaceAll(text string) {
	p.t.Helper()
	Do(p.t, p.ctx, chromedp.Focus(`[data-editor] .cm-content`), chromedp.KeyEvent("a", chromedp.KeyModifiers(chromedp.ModifierCtrl)))
	if _, err := chromedp.Call(p.ctx, input.InsertText, input.InsertTextParams{Text: text}); err != nil {
		p.t.Fatal(err)
	}
}

// The editor on a local exercise page, without the live loop: it shows the
// exercise's files as tabs reachable by the keyboard, saves what is typed
// into exercises/<name>/, and when the disk changed under it (another
// editor) it does not overwrite it but offers the choice; "Keep mine"
// then saves over it.
func TestEditorSavesIntoExercises(t *testing.T) {
	t.Parallel()
	RequireChromium(t)
	root := CopyExercises(t)
	s := StartServer(t, ServerOptions{Files: root})
	ctx := NewBrowser(t, BrowserOptions{})
	console := Console(ctx)
	p := editorPage{t, ctx}
	Open(t, ctx, s, "/exercises/gcra", "editor")
	p.poll("the editor", `document.querySelector("[data-editor-ready]") ? {} : null`, 20*time.Second)

	// The files as tabs, in a tablist: the code (gcra.go) open first, not
	// the doc comment (doc.go); the arrow keys move along the tabs and
	// open them.
	tabs := Eval[[]string](t, ctx, `Array.from(document.querySelectorAll('[data-editor] [role=tablist] [role=tab]')).map((b) => b.dataset.file + ":" + b.getAttribute("aria-selected") + ":" + b.tabIndex)`)
	if strings.Join(tabs, " ") != "doc.go:false:-1 gcra.go:true:0" {
		t.Errorf("tabs = %v; want gcra.go selected and in the tab order, doc.go not", tabs)
	}
	focused := func() string {
		return Eval[string](t, ctx, `document.activeElement.dataset.file + ":" + document.activeElement.getAttribute("aria-selected")`)
	}
	Do(t, ctx, chromedp.Focus(`[data-editor] [role=tab][data-file="gcra.go"]`), chromedp.KeyEvent(kb.ArrowLeft))
	if got := focused(); got != "doc.go:true" {
		t.Errorf("after ArrowLeft on gcra.go's tab, the focus is on %q; want doc.go:true", got)
	}
	if !strings.HasPrefix(p.text("doc.go"), "// Package gcra") {
		t.Errorf("doc.go's text = %q; want the package doc comment", p.text("doc.go"))
	}
	Do(t, ctx, chromedp.KeyEvent(kb.ArrowRight))
	if got := focused(); got != "gcra.go:true" {
		t.Errorf("after ArrowRight on doc.go's tab, the focus is on %q; want gcra.go:true", got)
	}
	disk := filepath.Join(root, "exercises", "gcra", "gcra.go")
	stub, err := os.ReadFile(disk)
	if err != nil {
		t.Fatal(err)
	}
	if got := p.text("gcra.go"); got != string(stub) {
		t.Errorf("gcra.go's tab shows %q; want the file on disk", got)
	}
	// From the tabs, Tab goes into the code; Escape then Tab leaves it
	// (CodeMirror's tab-focus mode), while Tab alone indents.
	Do(t, ctx, chromedp.KeyEvent(kb.Tab))
	if !Eval[bool](t, ctx, `document.activeElement.classList.contains("cm-content")`) {
		t.Error("Tab from the tabs does not reach the code")
	}
	Do(t, ctx, chromedp.KeyEvent(kb.Escape), chromedp.KeyEvent(kb.Tab))
	if Eval[bool](t, ctx, `!!document.activeElement.closest("[data-editor] .cm-editor")`) {
		t.Error("Escape then Tab leaves the focus in the code: a keyboard user is trapped")
	}

	// Typing saves, once the typing pauses, into exercises/gcra/gcra.go.
	typed := string(stub) + "\n// typed in the browser\n"
	p.open("gcra.go")
	p.typeAndSave(typed, 20*time.Second)
	if got, _ := os.ReadFile(disk); string(got) != typed {
		t.Fatalf("gcra.go on disk = %q after the editor said saved; want what was typed", got)
	}

	// Another editor writes the file; the page, which has not heard (no
	// live loop here), saves its next edit on a stale base: the server
	// refuses, the page keeps its text and offers the choice.
	other := string(stub) + "\n// from vim\n"
	if err := os.WriteFile(disk, []byte(other), 0o644); err != nil {
		t.Fatal(err)
	}
	mine := typed + "// more from the browser\n"
	p.replaceAll(mine)
	p.waitState("conflict", 20*time.Second)
	WaitTestID(t, ctx, "editor-choice")
	if got, _ := os.ReadFile(disk); string(got) != other {
		t.Fatalf("gcra.go on disk = %q after a conflict; want the other editor's text kept", got)
	}
	Screenshot(t, ctx, "conflict")
	CheckA11y(t, ctx, RequireAxe(t), "the editor offering Reload or Keep mine")
	before := p.version()
	ClickTestID(t, ctx, "editor-keep")
	p.waitSaved(before, 20*time.Second)
	if got, _ := os.ReadFile(disk); string(got) != mine {
		t.Errorf("gcra.go on disk = %q after Keep mine; want the page's text", got)
	}
	// The live websocket (re)opens after a save on disk went unheard (the
	// lab restarted): the page, with nothing unsaved, reads it quietly.
	restarted := mine + "// saved while the lab was away\n"
	if err := os.WriteFile(disk, []byte(restarted), 0o644); err != nil {
		t.Fatal(err)
	}
	Eval[bool](t, ctx, `(document.dispatchEvent(new CustomEvent("ratelab:live-open", {detail: {reopened: true}})), true)`)
	p.poll("the reload once the live websocket opens", `(() => {
		const s = document.querySelector('[data-testid="editor-status"]');
		return s && s.textContent.startsWith("reloaded from disk: gcra.go") ? {} : null;
	})()`, 20*time.Second)
	if got := p.text("gcra.go"); got != restarted {
		t.Errorf("after the websocket reopened, gcra.go in the page = %q; want the disk's %q", got, restarted)
	}

	// On a laptop and on a phone: a picture of each to look at, and the
	// code area is on the screen whole, tabs and save line included.
	for _, size := range []struct {
		name string
		w, h int64
	}{{"laptop", 1280, 800}, {"phone", 390, 844}} {
		if size.name == "phone" {
			Phone(t, ctx)
		} else {
			Do(t, ctx, chromedp.EmulateViewport(size.w, size.h))
		}
		fit := Eval[map[string]float64](t, ctx, `(() => {
			document.querySelector('[data-testid="your-code"]').scrollIntoView({block: "start"});
			const r = (s) => document.querySelector(s).getBoundingClientRect();
			const code = r("[data-editor] .cm-editor"), tabs = r("[data-editor] [role=tablist]"), status = r('[data-testid="editor-status"]');
			return {left: code.left, right: code.right, codeHeight: code.height, width: innerWidth, height: innerHeight,
				top: tabs.top, bottom: status.bottom, scrollWidth: document.documentElement.scrollWidth};
		})()`)
		if fit["left"] < 0 || fit["right"] > fit["width"] || fit["scrollWidth"] > fit["width"] {
			t.Errorf("%s: the editor spans %v..%v, the page %v wide, in a window %v wide: it must fit the width", size.name, fit["left"], fit["right"], fit["scrollWidth"], fit["width"])
		}
		if fit["bottom"]-fit["top"] > fit["height"] || fit["codeHeight"] < 200 {
			t.Errorf("%s: tabs to save line take %v px of a %v px window, the code %v px: want them on one screen, with room to write", size.name, fit["bottom"]-fit["top"], fit["height"], fit["codeHeight"])
		}
		ScreenshotViewport(t, ctx, size.name)
	}

	// The browser logs the 409 it was answered, which the page expects.
	if errs := consoleErrorsBut(console(), "(Conflict)"); len(errs) > 0 {
		t.Errorf("console errors: %q", errs)
	}
}

// The editor with the live loop, end to end on a copy of the repository:
// what is typed is saved into exercises/, the live loop grades it as any
// save and the report below updates by itself; code that does not compile
// is marked on its line and its tab; a file changed on disk is reloaded
// quietly when the page has nothing unsaved, and otherwise the page offers
// to reload it.
func TestEditorWithLiveLoop(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("builds labserver and grades an exercise")
	}
	RequireChromium(t)
	dir, s := serveCopy(t)
	ctx := NewBrowser(t, BrowserOptions{Width: 1400, Height: 900, Timeout: 5 * time.Minute})
	console := Console(ctx)
	p := editorPage{t, ctx}
	Open(t, ctx, s, "/exercises/gcra", "editor")
	p.poll("the editor and the live websocket", `document.querySelector("[data-editor-ready]") && document.documentElement.dataset.live === "open" ? {} : null`, 30*time.Second)
	Eval[bool](t, ctx, `(window.ratelabNoReload = true)`)

	// Task, editor, report: in that order down the page.
	order := Eval[bool](t, ctx, `(() => {
		const y = (s) => document.querySelector(s).getBoundingClientRect().top;
		return y('[data-testid="task"]') < y('[data-testid="editor"]') && y('[data-testid="editor"]') < y('[data-live-report="gcra"]');
	})()`)
	if !order {
		t.Error("the page does not read task, editor, report from the top")
	}

	disk := filepath.Join(dir, "exercises", "gcra", "gcra.go")
	solution, err := os.ReadFile(filepath.Join(dir, "solutions", "gcra", "gcra.go"))
	if err != nil {
		t.Fatal(err)
	}
	p.open("gcra.go")
	p.typeAndSave(string(solution), 30*time.Second)
	if got, _ := os.ReadFile(disk); string(got) != string(solution) {
		t.Fatal("gcra.go on disk is not what was typed after the editor said saved")
	}
	p.poll("the report to show the graded save", `(() => {
		const b = document.querySelector('[data-live-report="gcra"] [data-testid="grade-gcra"]');
		const text = b ? b.textContent.trim() : "";
		return text === "passed" ? {text} : null;
	})()`, 3*time.Minute)
	Screenshot(t, ctx, "graded")

	// Code that does not compile: the compiler's line is marked in the
	// code and counted on the tab.
	broken := string(solution) + "\nfunc broken() { undefinedThing() }\n"
	p.typeAndSave(broken, 30*time.Second)
	mark := p.poll("the compile error's mark", `(() => {
		const tab = document.querySelector('[data-editor] [role=tab][data-file="gcra.go"]');
		const marks = document.querySelectorAll('[data-editor] .cm-lintRange-error');
		return tab && tab.hasAttribute("data-errors") && marks.length > 0 ?
			{tab: tab.textContent, mark: marks[0].textContent, line: (marks[0].closest(".cm-line") || {}).textContent || ""} : null;
	})()`, 3*time.Minute)
	if !strings.Contains(mark["tab"].(string), "1 error") || !strings.Contains(mark["mark"].(string), "undefinedThing") ||
		mark["line"] != "func broken() { undefinedThing() }" {
		t.Errorf("compile error shown as tab %q, mark %q on line %q; want the tab to say 1 error and the mark on undefinedThing() of func broken()", mark["tab"], mark["mark"], mark["line"])
	}
	ScreenshotViewport(t, ctx, "compile-error")
	p.typeAndSave(string(solution), 30*time.Second)
	p.poll("the marks to go once it builds", `document.querySelectorAll('[data-editor] .cm-lintRange-error').length === 0 &&
		!document.querySelector('[data-editor] [role=tab][data-errors]') ? {} : null`, 3*time.Minute)

	// Another editor saves the file while the page has nothing unsaved:
	// the page reloads it quietly and says so.
	fromVim := string(solution) + "\n// saved from vim\n"
	if err := os.WriteFile(disk, []byte(fromVim), 0o644); err != nil {
		t.Fatal(err)
	}
	reloaded := p.poll("the quiet reload", `(() => {
		const s = document.querySelector('[data-testid="editor-status"]');
		return s && s.textContent.startsWith("reloaded from disk") ? {text: s.textContent} : null;
	})()`, time.Minute)
	// os.WriteFile truncates, then writes: a reload may read the file
	// empty in between, and the write's own change reloads it again. The
	// page must end on the disk's text.
	for deadline := time.Now().Add(time.Minute); !strings.Contains(p.text("gcra.go"), "// saved from vim"); time.Sleep(100 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("a minute after a save from another editor, the page shows %q; want gcra.go as saved", p.text("gcra.go"))
		}
	}
	if got := p.status(); !strings.Contains(reloaded["text"].(string), "gcra.go") || !strings.HasPrefix(got, "reloaded from disk") {
		t.Errorf("after a save from another editor, the page says %q, then %q; want a quiet reload of gcra.go", reloaded["text"], got)
	}

	// Now the page has edits it cannot save (its saves fail on the way),
	// and another editor saves: the page keeps its text and offers to
	// reload from disk; reloading shows the disk's text.
	var failing atomic.Bool
	failing.Store(true)
	if err := chromedp.Listen(ctx, func(ev any) {
		if e, ok := ev.(*fetch.EventRequestPaused); ok {
			go func() {
				if failing.Load() && e.Request.Method == "PUT" {
					chromedp.Call(ctx, fetch.FailRequest, fetch.FailRequestParams{RequestID: e.RequestID, ErrorReason: network.ErrorReasonConnectionRefused})
					return
				}
				chromedp.Call(ctx, fetch.ContinueRequest, fetch.ContinueRequestParams{RequestID: e.RequestID})
			}()
		}
	}); err != nil {
		t.Fatal(err)
	}
	if _, err := chromedp.Call(ctx, fetch.Enable, fetch.EnableParams{Patterns: []*fetch.RequestPattern{{URLPattern: "*/api/exercises/*"}}}); err != nil {
		t.Fatal(err)
	}
	p.replaceAll(fromVim + "// unsaved in the browser\n")
	unsaved := p.waitState("unsaved", 30*time.Second)
	if !strings.Contains(unsaved, "trying again") {
		t.Errorf("a failed save says %q; want it to say it tries again", unsaved)
	}
	again := string(solution) + "\n// saved from vim again\n"
	if err := os.WriteFile(disk, []byte(again), 0o644); err != nil {
		t.Fatal(err)
	}
	p.waitState("conflict", time.Minute)
	WaitTestID(t, ctx, "editor-reload")
	if !strings.Contains(p.text("gcra.go"), "// unsaved in the browser") {
		t.Error("the page dropped its unsaved text when the disk changed")
	}
	Screenshot(t, ctx, "reload-offer")
	failing.Store(false)
	before := p.version()
	ClickTestID(t, ctx, "editor-reload")
	p.waitSaved(before, 10*time.Second)
	if got := p.text("gcra.go"); !strings.Contains(got, "// saved from vim again") || strings.Contains(got, "// unsaved in the browser") {
		t.Errorf("after Reload from disk the editor shows %q; want the disk's text", got)
	}
	if got, _ := os.ReadFile(disk); string(got) != again {
		t.Errorf("gcra.go on disk = %q after Reload from disk; want it untouched", got)
	}
	if !Eval[bool](t, ctx, `window.ratelabNoReload === true`) {
		t.Error("the page reloaded: the editor and the report must update in place")
	}
	// A failed PUT is logged by the browser as a network error: those were
	// made to fail on purpose.
	if errs := consoleErrorsBut(console(), "ERR_CONNECTION_REFUSED", "Failed to fetch"); len(errs) > 0 {
		t.Errorf("console errors: %q", errs)
	}
}

// consoleErrorsBut returns the console errors that hold none of expected.
func consoleErrorsBut(errs []string, expected ...string) []string {
	var out []string
	for _, e := range errs {
		if !slices.ContainsFunc(expected, func(x string) bool { return strings.Contains(e, x) }) {
			out = append(out, e)
		}
	}
	return out
}
