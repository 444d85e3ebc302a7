package web_test

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"ratelab/web"
)

func TestStaticEmbedsAssets(t *testing.T) {
	for _, name := range []string{"lab.css", "favicon.svg"} {
		b, err := fs.ReadFile(web.Static(""), name)
		if err != nil || len(b) == 0 {
			t.Errorf("embedded %s: %d bytes, %v", name, len(b), err)
		}
	}
}

func TestStaticOverrideDir(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "lab.css"), []byte("/* from disk */"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "lab.wasm"), []byte("\x00asm\x01\x00\x00\x00"), 0o644); err != nil {
		t.Fatal(err)
	}
	fsys := web.Static(dir)
	if b, _ := fs.ReadFile(fsys, "lab.css"); string(b) != "/* from disk */" {
		t.Errorf("lab.css = %q; want the override folder's copy", b)
	}
	if b, err := fs.ReadFile(fsys, "lab.wasm"); err != nil || !strings.HasPrefix(string(b), "\x00asm") {
		t.Errorf("lab.wasm from the override folder: %q, %v", b, err)
	}
	if b, err := fs.ReadFile(fsys, "favicon.svg"); err != nil || !strings.Contains(string(b), "<svg") {
		t.Errorf("favicon.svg should fall through to the embedded copy: %v", err)
	}
	if _, err := fs.Stat(fsys, "nope.js"); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("Stat(nope.js) err = %v, want ErrNotExist", err)
	}
}
