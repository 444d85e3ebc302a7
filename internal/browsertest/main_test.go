package browsertest

import (
	"context"
	"fmt"
	"os"
	"testing"
)

// assets is the static folder TestMain builds for the test servers:
// wasm_exec.js, and lab.wasm when ./wasm exists. Tests pass assets.Dir as
// ServerOptions.StaticDir; viz tests check assets.Wasm and assets.Err.
var assets Assets

func TestMain(m *testing.M) {
	os.Exit(run(m))
}

func run(m *testing.M) int {
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
