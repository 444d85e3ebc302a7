package browsertest

import (
	"bytes"
	"compress/gzip"
	"context"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/cdproto/network"
	"github.com/chromedp/chromedp"

	"ratelab/internal/weekbuild"
	"ratelab/lab/course"
)

var weightLoads = flag.Int("weight.loads", 3, "TestPageWeight: loads of each lesson page, each in a fresh browser context (nothing cached)")

// pageLoad is what one load of a page cost, as Chromium saw it.
type pageLoad struct {
	bytes        int64   // on the wire, headers included: the sum of Network.loadingFinished's encodedDataLength
	requests     int     // responses that finished loading
	wasm         string  // the one WebAssembly file loaded, as its name under /static/
	wasmBytes    int64   // its share of bytes
	wasmEncoding string  // its Content-Encoding ("" for none)
	wasmFrom     string  // the script whose call fetched it, as its name under /static/
	firstFrameMs float64 // the performance mark "ratelab:first-frame", from navigation start
}

// TestPageWeight loads every lesson page in Chromium and reports, per page,
// the bytes transferred (headers included, every response of the load) and
// the time from navigation start to the first visualization frame: the
// performance mark "ratelab:first-frame" that viz/common.js sets when the
// page's first visualization has drawn. Each page gets a server of its
// own, started for it, and -weight.loads loads, each in a fresh browser
// context (an empty cache), one after the other: "cold" is the first load
// of that server (which may compress what it serves then), "warm" the
// median of the others.
//
// Times are reported, never asserted. What it asserts: every lesson page
// draws a first frame from one WebAssembly file, its week's build
// (internal/weekbuild), not its Yours build, which only "Yours" needs, fetched
// from the head by viz/early.js; and that file comes as Brotli (Chromium accepts br on localhost as on HTTPS; not
// on plain HTTP to another host), in fewer bytes than gzip at its best
// compression makes of it.
//
// The other tests of the package run beside it in tabs of their own, so for
// figures to compare, run it alone:
//
//	RATELAB_REQUIRE_BROWSER=1 go test -count=1 -run TestPageWeight -v ./internal/browsertest/
//
// make bench prints the same figures (BenchmarkLessonFirstFrame), with
// the machine's load beside them.
func TestPageWeight(t *testing.T) {
	t.Parallel()
	RequireChromium(t) // TestMain builds lab.wasm only when a browser is there
	requireWasm(t)
	if !assets.Weeks {
		t.Fatal("BuildAssets built no week's WebAssembly")
	}
	type row struct {
		slug  string
		loads []pageLoad
	}
	var rows []row
	for _, w := range course.Weeks() {
		slug := w.Lesson.Slug
		r := row{slug: slug}
		want := weekbuild.Name(w.Number)
		raw, err := os.ReadFile(filepath.Join(assets.Dir, want))
		if err != nil {
			t.Fatal(err)
		}
		var gz bytes.Buffer
		zw, _ := gzip.NewWriterLevel(&gz, gzip.BestCompression)
		zw.Write(raw)
		zw.Close()
		t.Run(slug, func(t *testing.T) {
			s := StartServer(t, ServerOptions{StaticDir: assets.Dir})
			for i := range *weightLoads {
				t.Run(fmt.Sprint("load", i+1), func(t *testing.T) {
					l := loadPage(t, s, "/lessons/"+slug)
					r.loads = append(r.loads, l)
					if l.wasm != want {
						t.Fatalf("the page loaded %s, want its week's build %s", l.wasm, want)
					}
					// The head starts it, before the page's other scripts
					// (web/page/layout.templ's earlyWasm).
					if l.wasmFrom != "viz/early.js" {
						t.Errorf("%s was fetched by %q, want viz/early.js, from the head", want, l.wasmFrom)
					}
					if l.wasmEncoding != "br" {
						t.Errorf("%s came with Content-Encoding %q, want br (Chromium accepts it)", want, l.wasmEncoding)
					}
					if l.wasmBytes >= int64(gz.Len()) {
						t.Errorf("%s: %d bytes on the wire, headers included; want fewer than gzip's best, %d", want, l.wasmBytes, gz.Len())
					}
				})
			}
		})
		rows = append(rows, r)
	}

	var b strings.Builder
	fmt.Fprintf(&b, "%-8s %10s %9s %-12s %10s %-4s %13s %15s\n", "page", "bytes", "requests", "wasm", "its bytes", "enc", "frame cold ms", "frame warm ms")
	for _, r := range rows {
		if len(r.loads) == 0 {
			continue
		}
		first, warm := r.loads[0], r.loads[1:]
		if len(warm) == 0 {
			warm = r.loads
		}
		frames := make([]float64, len(warm))
		for i, l := range warm {
			frames[i] = l.firstFrameMs
		}
		fmt.Fprintf(&b, "%-8s %10d %9d %-12s %10d %-4s %13.0f %15.0f\n",
			r.slug, first.bytes, first.requests, first.wasm, first.wasmBytes, first.wasmEncoding, first.firstFrameMs, median(frames))
	}
	t.Logf("first load of each lesson page (%d loads a page):\n%s", *weightLoads, b.String())
}

// loadPage opens path in a new tab with an empty cache, waits for the
// first visualization frame and for the network to go quiet, and returns
// what the load cost.
func loadPage(t testing.TB, s *Server, path string) pageLoad {
	t.Helper()
	// Every frame the browser offers: a capped frame rate would delay the
	// first one.
	ctx := NewBrowser(t, BrowserOptions{EveryFrame: true})
	var (
		mu       sync.Mutex
		urls     = map[network.RequestID]string{}
		encoding = map[network.RequestID]string{}
		from     = map[network.RequestID]string{}
		finished = map[network.RequestID]float64{}
		inFlight = map[network.RequestID]bool{}
	)
	err := chromedp.Listen(ctx, func(ev any) {
		mu.Lock()
		defer mu.Unlock()
		switch e := ev.(type) {
		case *network.EventRequestWillBeSent:
			urls[e.RequestID] = e.Request.URL
			if in := e.Initiator; in != nil && in.Stack != nil && len(in.Stack.CallFrames) > 0 {
				from[e.RequestID] = in.Stack.CallFrames[0].URL
			}
			inFlight[e.RequestID] = true
		case *network.EventResponseReceived:
			for k, v := range e.Response.Headers {
				if strings.EqualFold(k, "Content-Encoding") {
					encoding[e.RequestID] = fmt.Sprint(v)
				}
			}
		case *network.EventLoadingFinished:
			finished[e.RequestID] = e.EncodedDataLength
			delete(inFlight, e.RequestID)
		case *network.EventLoadingFailed:
			delete(inFlight, e.RequestID)
		}
	})
	if err != nil {
		t.Fatalf("listening to the network: %v", err)
	}
	Do(t, ctx, chromedp.Navigate(s.URL+path))
	ms, err := chromedp.Run(ctx, chromedp.Poll[float64](`(() => {
		const m = performance.getEntriesByName("ratelab:first-frame", "mark")[0];
		return m ? m.startTime : null;
	})()`, chromedp.WithPollingInterval(10*time.Millisecond), chromedp.WithPollingTimeout(vizTimeout)))
	if err != nil {
		t.Fatalf("%s: waiting for the first visualization frame (the performance mark ratelab:first-frame): %v", path, err)
	}
	waitQuiet(t, ctx, &mu, inFlight)

	mu.Lock()
	defer mu.Unlock()
	l := pageLoad{firstFrameMs: ms}
	for id, n := range finished {
		l.bytes += int64(n)
		l.requests++
		if name, ok := strings.CutPrefix(strings.SplitN(urls[id], "?", 2)[0], s.URL+"/static/"); ok && strings.HasSuffix(name, ".wasm") {
			if l.wasm != "" {
				t.Fatalf("%s: two WebAssembly files loaded, %s and %s", path, l.wasm, name)
			}
			l.wasm, l.wasmBytes, l.wasmEncoding = name, int64(n), encoding[id]
			l.wasmFrom = strings.TrimPrefix(from[id], s.URL+"/static/")
		}
	}
	if l.wasm == "" {
		t.Fatalf("%s: no WebAssembly among the %d responses", path, l.requests)
	}
	return l
}

// waitQuiet waits until the page has loaded and no request is in flight.
func waitQuiet(t testing.TB, ctx context.Context, mu *sync.Mutex, inFlight map[network.RequestID]bool) {
	t.Helper()
	if _, err := chromedp.Run(ctx, chromedp.Poll[bool](`document.readyState === "complete"`,
		chromedp.WithPollingInterval(10*time.Millisecond), chromedp.WithPollingTimeout(vizTimeout))); err != nil {
		t.Fatalf("waiting for the page's load event: %v", err)
	}
	deadline := time.Now().Add(vizTimeout)
	for {
		mu.Lock()
		n := len(inFlight)
		mu.Unlock()
		if n == 0 {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("%d requests still in flight after %v", n, vizTimeout)
		}
		time.Sleep(10 * time.Millisecond) // polling the event log, not timing anything
	}
}

// median returns the median of xs, which it sorts.
func median(xs []float64) float64 {
	slices.Sort(xs)
	n := len(xs)
	if n == 0 {
		return 0
	}
	if n%2 == 1 {
		return xs[n/2]
	}
	return (xs[n/2-1] + xs[n/2]) / 2
}
