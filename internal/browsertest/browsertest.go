package browsertest

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/chromedp/cdproto/page"
	"github.com/chromedp/chromedp"

	"ratelab/grader/report"
	"ratelab/internal/live"
	"ratelab/internal/server"
	"ratelab/internal/store"
	"ratelab/web"
)

// MissingChromium is the message a browser test skips (or fails) with when
// no browser is found.
const MissingChromium = "chromium not found: install it (apt-get install chromium) to run browser tests"

// Chromium returns the path of the browser to drive: $CHROMIUM if set (it
// must exist), else /usr/bin/chromium, else chromium or chromium-browser on
// $PATH.
func Chromium() (string, error) {
	if p := os.Getenv("CHROMIUM"); p != "" {
		if _, err := os.Stat(p); err != nil {
			return "", fmt.Errorf("%s ($CHROMIUM=%s: %v)", MissingChromium, p, err)
		}
		return p, nil
	}
	if _, err := os.Stat("/usr/bin/chromium"); err == nil {
		return "/usr/bin/chromium", nil
	}
	for _, name := range []string{"chromium", "chromium-browser"} {
		if p, err := exec.LookPath(name); err == nil {
			return p, nil
		}
	}
	return "", errors.New(MissingChromium)
}

// RequireChromium returns the browser's path. Without one it skips the
// test, or fails it when RATELAB_REQUIRE_BROWSER=1.
func RequireChromium(t testing.TB) string {
	t.Helper()
	p, err := Chromium()
	if err == nil {
		return p
	}
	if os.Getenv("RATELAB_REQUIRE_BROWSER") == "1" {
		t.Fatalf("%v (RATELAB_REQUIRE_BROWSER=1)", err)
	}
	t.Skip(err.Error())
	return ""
}

// Server is a lab server running on a loopback port for one test.
type Server struct {
	URL    string       // e.g. http://127.0.0.1:41234, no trailing slash
	Store  *store.Store // the seeded database, still open: tests may save more
	DBPath string
}

// ServerOptions configure StartServer. The zero value serves the embedded
// assets and an empty database.
type ServerOptions struct {
	// StaticDir is served under /static/ before the embedded assets, as
	// `labserver serve --static-dir` does: pass Assets.Dir to serve a
	// freshly built lab.wasm and wasm_exec.js.
	StaticDir string
	// Reports are saved, in order, before the server starts.
	Reports []*report.Report
	// SavedAt stamps the saves; zero means 2026-03-02 09:30 UTC.
	SavedAt time.Time
	// Files, if set, is a checkout whose exercises/ the exercise pages'
	// editor reads and writes (server.Config.Files), as labserver serve
	// does with its live loop; give a copy (CopyExercises), never the
	// learner's own.
	Files string
	// Live, if set, is the live loop's hub whose events the pages follow
	// (server.Config.Live), as labserver serve has: a test publishes on it,
	// or runs live.Run over it with a grader of its own.
	Live *live.Hub
}

// fixedClock always says the same time, so pages render the same.
type fixedClock time.Time

func (c fixedClock) Now() time.Time { return time.Time(c) }

// StartServer starts the lab's real handler (internal/server, as
// `labserver serve` builds it) on 127.0.0.1 with a temporary database. The
// test's cleanup stops it.
func StartServer(t testing.TB, o ServerOptions) *Server {
	t.Helper()
	if o.SavedAt.IsZero() {
		o.SavedAt = time.Date(2026, 3, 2, 9, 30, 0, 0, time.UTC)
	}
	ctx := context.Background()
	dbPath := filepath.Join(t.TempDir(), "lab.db")
	st, err := store.Open(ctx, dbPath, fixedClock(o.SavedAt))
	if err != nil {
		t.Fatalf("opening the test database: %v", err)
	}
	t.Cleanup(func() { st.Close() })
	for _, r := range o.Reports {
		if err := st.SaveReport(ctx, r); err != nil {
			t.Fatalf("seeding a report: %v", err)
		}
	}
	h := server.New(server.Config{
		Reports:  st,
		Static:   web.Static(o.StaticDir),
		Location: time.UTC,
		Files:    o.Files,
		Live:     o.Live,
	})
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatalf("listening on loopback: %v", err)
	}
	srv := &http.Server{Handler: h, ReadHeaderTimeout: 10 * time.Second}
	done := make(chan error, 1)
	go func() { done <- srv.Serve(ln) }()
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		srv.Shutdown(ctx)
		if err := <-done; !errors.Is(err, http.ErrServerClosed) {
			t.Errorf("test server: %v", err)
		}
	})
	return &Server{URL: "http://" + ln.Addr().String(), Store: st, DBPath: dbPath}
}

// BrowserOptions configure NewBrowser. The zero value is a 1280×900
// viewport.
type BrowserOptions struct {
	Width, Height int
	// EveryFrame lets the tab's pages animate at the browser's own frame
	// rate, for a test of the frame loop itself; otherwise the tab's
	// requestAnimationFrame calls back at most FrameRate times a second
	// (see frameCapJS).
	EveryFrame bool
	// Timeout bounds the whole test's use of the browser; zero means 3
	// minutes, generous because tabs run side by side on a machine that
	// may be busy: it catches a test that hangs, and judges no speed.
	Timeout time.Duration
}

// shared is the one Chromium the browser tests of a test binary share
// once its TestMain called ShareBrowser.
var shared struct {
	mu     sync.Mutex
	on     bool               // ShareBrowser was called and its close func not yet
	ctx    context.Context    // the browser's first tab: each test's tab is a child
	cancel context.CancelFunc // closes the browser
}

// ShareBrowser makes every later NewBrowser open its test's tab in one
// Chromium for the whole test binary, which the first of them starts,
// instead of starting a Chromium per test. Call it from TestMain before
// m.Run, and the func it returns after m.Run: it closes the browser, if one
// was started. A test binary that does not call it (its TestMain cannot
// close a shared browser) gets a Chromium per test, as before.
func ShareBrowser() (closeBrowser func()) {
	shared.mu.Lock()
	shared.on = true
	shared.mu.Unlock()
	return func() {
		shared.mu.Lock()
		defer shared.mu.Unlock()
		shared.on = false
		if shared.cancel != nil {
			shared.cancel()
			shared.ctx, shared.cancel = nil, nil
		}
	}
}

// startBrowser starts a headless Chromium with no deadline (the first Run
// binds the browser's life to the context it gets) and returns the context
// of its first tab, whose children are new tabs, and the func that closes
// it. chromedp's own errors go to logf.
func startBrowser(path string, logf func(string, ...any)) (context.Context, context.CancelFunc, error) {
	opts := append(chromedp.DefaultExecAllocatorOptions[:],
		chromedp.ExecPath(path),
		chromedp.Headless,
		chromedp.NoSandbox, // tests run as root in CI
		chromedp.DisableGPU,
		chromedp.NoFirstRun,
		chromedp.Flag("disable-background-networking", true),
		chromedp.Flag("disable-component-update", true),
		chromedp.Flag("disable-sync", true),
		chromedp.Flag("hide-scrollbars", true),
		// No UserDataDir: chromedp makes a temporary profile and removes
		// it when the browser closes. Each tab has a browser context of
		// its own anyway (see NewBrowser).
	)
	allocCtx, cancelAlloc := chromedp.NewExecAllocator(context.Background(), opts...)
	ctx, cancelFirst := chromedp.NewContext(allocCtx, chromedp.WithErrorf(logf))
	if err := chromedp.Do(ctx); err != nil {
		cancelFirst()
		cancelAlloc()
		return nil, nil, fmt.Errorf("starting %s: %w", path, err)
	}
	return ctx, func() { cancelFirst(); cancelAlloc() }, nil
}

// sharedBrowser returns the first tab of the shared browser, starting it if
// none runs (the first call, or the browser went away: crashed or killed),
// or nil if ShareBrowser is not on.
func sharedBrowser(path string) (context.Context, error) {
	shared.mu.Lock()
	defer shared.mu.Unlock()
	if !shared.on {
		return nil, nil
	}
	if shared.ctx != nil && shared.ctx.Err() == nil {
		return shared.ctx, nil
	}
	if shared.cancel != nil {
		shared.cancel()
		shared.ctx, shared.cancel = nil, nil
	}
	logf := func(format string, args ...any) {
		fmt.Fprintf(os.Stderr, "browsertest: chromedp: "+format+"\n", args...)
	}
	ctx, cancel, err := startBrowser(path, logf)
	if err != nil {
		return nil, err
	}
	shared.ctx, shared.cancel = ctx, cancel
	return ctx, nil
}

// NewBrowser opens a tab for one test and returns its context, for
// chromedp.Run and chromedp.Do. The tab runs in the shared browser when
// TestMain called ShareBrowser, else in a headless Chromium started for
// this test. It skips (or fails, see RequireChromium) without a browser.
//
// The tab has a browser context of its own, as a new incognito window
// has: no cookies, storage or cache from another test's tab. Its viewport
// is o.Width×o.Height CSS pixels at scale 1, by device-metrics emulation,
// whatever the size of the window it opens in; Phone changes it. The test's
// cleanup closes the tab (and the browser if it was this test's own).
func NewBrowser(t testing.TB, o BrowserOptions) context.Context {
	t.Helper()
	path := RequireChromium(t)
	if o.Width == 0 || o.Height == 0 {
		o.Width, o.Height = 1280, 900
	}
	if o.Timeout == 0 {
		o.Timeout = 3 * time.Minute
	}
	parent, err := sharedBrowser(path)
	if err != nil {
		t.Fatal(err)
	}
	if parent == nil {
		var finished atomic.Bool // chromedp may log from its goroutines after the test
		logf := func(format string, args ...any) {
			if !finished.Load() {
				t.Logf("chromedp: "+format, args...)
			}
		}
		ctx, closeBrowser, err := startBrowser(path, logf)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { // after the tab's cleanup, registered below
			finished.Store(true)
			closeBrowser()
		})
		parent = ctx
	}
	// A new tab, in a window and a browser context of its own. Its first
	// Run creates it, with no deadline: that Run binds the tab's life to
	// its context.
	tab, cancelTab := chromedp.NewContext(parent, chromedp.WithNewBrowserContext())
	if err := chromedp.Do(tab, chromedp.EmulateViewport(int64(o.Width), int64(o.Height))); err != nil {
		cancelTab()
		t.Fatalf("opening a tab: %v", err)
	}
	if !o.EveryFrame {
		if _, err := chromedp.Call(tab, page.AddScriptToEvaluateOnNewDocument, page.AddScriptToEvaluateOnNewDocumentParams{Source: frameCapJS}); err != nil {
			cancelTab()
			t.Fatalf("capping the tab's frame rate: %v", err)
		}
	}
	tctx, cancelTimeout := context.WithTimeout(tab, o.Timeout)
	t.Cleanup(func() {
		cancelTimeout()
		cancelTab()
	})
	return tctx
}

// FrameRate is the most animation frames a second a test's page draws,
// unless its BrowserOptions ask for EveryFrame.
const FrameRate = 20

// frameCapJS runs in every document of a test's tab before the page's own
// scripts: requestAnimationFrame still calls back in an animation frame
// of the browser, with its timestamp, but at most FrameRate times a
// second, and cancelAnimationFrame cancels what it queued. A visualization
// advances by the real time between its frames (up to its cap of 100 to
// 250 ms), so its virtual time runs as fast as at the browser's 60 frames
// a second, while the browser lays out, paints and composites a third as
// many frames. What a test reads is still one frame's figures.
var frameCapJS = `(() => {
	const raf = window.requestAnimationFrame.bind(window), gap = 1000 / ` + strconv.Itoa(FrameRate) + `;
	let queue = new Map(), next = 1, pending = false, last = -Infinity;
	const flush = (ts) => {
		pending = false;
		last = ts;
		const q = queue;
		queue = new Map();
		for (const cb of q.values()) {
			try { cb(ts); } catch (err) { setTimeout(() => { throw err; }); }
		}
	};
	window.requestAnimationFrame = (cb) => {
		const id = next++;
		queue.set(id, cb);
		if (!pending) {
			pending = true;
			const wait = last + gap - performance.now();
			if (wait > 1) setTimeout(() => raf(flush), wait);
			else raf(flush);
		}
		return id;
	};
	window.cancelAnimationFrame = (id) => { queue.delete(id); };
})();`

// Do runs chromedp actions in the tab and fails the test on error.
func Do(t testing.TB, ctx context.Context, actions ...chromedp.Action[chromedp.Void]) {
	t.Helper()
	if err := chromedp.Do(ctx, actions...); err != nil {
		t.Fatalf("browser: %v", err)
	}
}

// Open navigates the tab to the server's path (e.g. "/lessons/week-1") and
// waits until the element with data-testid waitFor is visible.
func Open(t testing.TB, ctx context.Context, s *Server, path, waitFor string) {
	t.Helper()
	Do(t, ctx, chromedp.Navigate(s.URL+path))
	WaitTestID(t, ctx, waitFor)
}

// TestID returns the CSS selector of the element with that data-testid.
func TestID(id string) chromedp.CSS {
	return chromedp.CSS(fmt.Sprintf("[data-testid=%q]", id))
}

// WaitTestID waits until the element with that data-testid is visible.
func WaitTestID(t testing.TB, ctx context.Context, id string) {
	t.Helper()
	if err := chromedp.Do(ctx, chromedp.WaitVisible(TestID(id))); err != nil {
		t.Fatalf("waiting for [data-testid=%q]: %v", id, err)
	}
}

// ClickTestID clicks the element with that data-testid.
func ClickTestID(t testing.TB, ctx context.Context, id string) {
	t.Helper()
	if err := chromedp.Do(ctx, chromedp.Click(TestID(id))); err != nil {
		t.Fatalf("clicking [data-testid=%q]: %v", id, err)
	}
}

// TextOf returns the visible text of the element with that data-testid
// (its innerText; "" if it has no layout box, as chromedp.Text says), with
// runs of white space collapsed to one space, once it is in the page. The
// element is found and read in one step in the page: a page that redraws
// itself (a live view reading itself again) may replace the element
// between two steps, which would leave a handle to a node that is gone.
func TextOf(t testing.TB, ctx context.Context, id string) string {
	t.Helper()
	sel, _ := json.Marshal(string(TestID(id)))
	v, err := chromedp.Run(ctx, chromedp.Poll[struct{ Text string }](`(() => {
		const e = document.querySelector(`+string(sel)+`);
		if (!e) return null;
		return {Text: e.offsetWidth || e.offsetHeight || e.getClientRects().length ? e.innerText : ""};
	})()`, chromedp.WithPollingInterval(20*time.Millisecond)))
	if err != nil {
		t.Fatalf("reading the text of [data-testid=%q]: %v", id, err)
	}
	return strings.Join(strings.Fields(v.Text), " ")
}

// Eval evaluates a JavaScript expression in the page and decodes its value.
func Eval[T any](t testing.TB, ctx context.Context, expr string) T {
	t.Helper()
	v, err := chromedp.Run(ctx, chromedp.Evaluate[T](expr))
	if err != nil {
		t.Fatalf("evaluating %s: %v", expr, err)
	}
	return v
}

// Console collects the tab's console errors and uncaught exceptions from
// now on. Call the returned func to read what was collected so far.
func Console(ctx context.Context) func() []string {
	var (
		mu   sync.Mutex
		msgs []string
	)
	messages := chromedp.Console(ctx)
	go func() {
		for m, err := range messages {
			if err != nil {
				return
			}
			if m.IsException() || m.Type == chromedp.ConsoleError {
				mu.Lock()
				msgs = append(msgs, m.String())
				mu.Unlock()
			}
		}
	}()
	return func() []string {
		mu.Lock()
		defer mu.Unlock()
		return append([]string(nil), msgs...)
	}
}

var (
	shotsOnce sync.Once
	shotsDir  string
	shotsErr  error
)

// ScreenshotDir returns where screenshots go: $RATELAB_SCREENSHOTS,
// created if needed (make test-browser sets it to .ratelab/screenshots),
// or "" if it is not set: then no picture is taken. A picture checks
// nothing (it is there to be looked at), and a full page's, in each
// scheme, of every page the tests open was a fifth of the browser's work
// in make test, written to a folder nobody opened.
func ScreenshotDir() (string, error) {
	shotsOnce.Do(func() {
		if d := os.Getenv("RATELAB_SCREENSHOTS"); d != "" {
			shotsDir, shotsErr = d, os.MkdirAll(d, 0o755)
		}
	})
	return shotsDir, shotsErr
}

// saveScreenshot captures the picture with action as <test>-<name>.png in
// ScreenshotDir, logs where it went and returns it; it returns "" and
// captures nothing if pictures are not taken.
func saveScreenshot(t testing.TB, ctx context.Context, name string, action chromedp.Action[[]byte]) string {
	t.Helper()
	dir, err := ScreenshotDir()
	if err != nil {
		t.Fatalf("screenshot folder: %v", err)
	}
	if dir == "" {
		return ""
	}
	file := filepath.Join(dir, unsafeName.ReplaceAllString(t.Name()+"-"+name, "_")+".png")
	png, err := chromedp.Run(ctx, action)
	if err != nil {
		t.Fatalf("screenshot %s: %v", name, err)
	}
	if err := os.WriteFile(file, png, 0o644); err != nil {
		t.Fatalf("screenshot %s: %v", name, err)
	}
	t.Logf("screenshot: %s", file)
	return file
}

var unsafeName = regexp.MustCompile(`[^A-Za-z0-9._-]+`)

// Screenshot saves a full-page PNG of the tab as <test>-<name>.png in
// ScreenshotDir, logs its path and returns it; it returns "" and takes
// none if pictures are not taken.
func Screenshot(t testing.TB, ctx context.Context, name string) string {
	t.Helper()
	return saveScreenshot(t, ctx, name, chromedp.FullScreenshot(100))
}

// ScreenshotViewport is Screenshot of the visible viewport only, e.g. a
// visualization in motion or the first screen of a phone.
func ScreenshotViewport(t testing.TB, ctx context.Context, name string) string {
	t.Helper()
	return saveScreenshot(t, ctx, name, chromedp.CaptureScreenshot())
}

// Phone switches the tab to a phone-sized viewport (390×844 CSS pixels,
// mobile, touch).
func Phone(t testing.TB, ctx context.Context) {
	t.Helper()
	Do(t, ctx, chromedp.EmulateViewport(390, 844, chromedp.EmulateMobile, chromedp.EmulateTouch, chromedp.EmulateScale(2)))
}
