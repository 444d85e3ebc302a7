package browsertest

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/chromedp/chromedp"
)

// tinyWasm is a valid, empty WebAssembly module padded with a custom
// section, large enough for the server to gzip it.
func tinyWasm() []byte {
	payload := make([]byte, 4096)
	name := "pad"
	size := 1 + len(name) + len(payload) // name length byte, name, payload
	b := []byte{0x00, 'a', 's', 'm', 0x01, 0x00, 0x00, 0x00, 0x00}
	for v := size; ; { // LEB128
		c := byte(v & 0x7f)
		v >>= 7
		if v != 0 {
			b = append(b, c|0x80)
			continue
		}
		b = append(b, c)
		break
	}
	b = append(b, byte(len(name)))
	b = append(b, name...)
	return append(b, payload...)
}

// The browser fetches /static/lab.wasm with gzip, gets application/wasm,
// and may compile it under the pages' Content-Security-Policy.
func TestWasmServedToBrowser(t *testing.T) {
	t.Parallel()
	ctx := NewBrowser(t, BrowserOptions{})
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "lab.wasm"), tinyWasm(), 0o644); err != nil {
		t.Fatal(err)
	}
	s := StartServer(t, ServerOptions{StaticDir: dir})
	Open(t, ctx, s, "/", "course-title")
	got, err := chromedp.Run(ctx, chromedp.Evaluate[string](`
		(async () => {
			const resp = await fetch('/static/lab.wasm');
			const type = resp.headers.get('content-type');
			const mod = await WebAssembly.compileStreaming(resp);
			return type + ' ' + WebAssembly.Module.customSections(mod, 'pad').length;
		})()`, chromedp.EvalAwaitPromise))
	if err != nil {
		t.Fatalf("compiling /static/lab.wasm in the page: %v", err)
	}
	if got != "application/wasm 1" {
		t.Errorf("fetched wasm: content-type and custom sections = %q, want %q", got, "application/wasm 1")
	}
}
