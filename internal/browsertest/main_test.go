package browsertest

import (
	"context"
	"flag"
	"fmt"
	"os"
	"runtime"
	"strconv"
	"testing"
)

// assets is the static folder TestMain builds for the test servers:
// wasm_exec.js, and lab.wasm when ./wasm exists. Tests pass assets.Dir as
// ServerOptions.StaticDir; viz tests check assets.Wasm and assets.Err.
var assets Assets

// tabs is how many tests run at once, each in a tab of its own, unless
// -parallel says otherwise: one more than go test's default (one per core),
// at least three. A test's tab mostly waits for its page's virtual time to
// run, which the page advances by the real time between frames whatever
// their rate, so a few tabs share the cores well; more would mostly share
// them thinner (a lesson's visualizations draw every frame), and the
// watchdog of Yours' worker counts wall time (see yoursSpeed). No test's
// verdict depends on how fast its tab runs.
var tabs = max(3, runtime.GOMAXPROCS(0)+1)

func TestMain(m *testing.M) {
	os.Exit(run(m))
}

func run(m *testing.M) int {
	flag.Parse()
	given := false
	flag.Visit(func(f *flag.Flag) { given = given || f.Name == "test.parallel" })
	if !given {
		flag.Set("test.parallel", strconv.Itoa(tabs))
	}
	dir, err := os.MkdirTemp("", "ratelab-static-")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 2
	}
	defer os.RemoveAll(dir)
	// Building lab.wasm takes a while; only do it when a browser will use it.
	if _, err := Chromium(); err == nil {
		assets = BuildAssets(context.Background(), dir)
		if assets.Err != nil {
			fmt.Fprintln(os.Stderr, "browsertest: static assets:", assets.Err)
		}
	}
	// One Chromium for the whole binary: each test opens a tab in it.
	closeBrowser := ShareBrowser()
	defer closeBrowser()
	return m.Run()
}
