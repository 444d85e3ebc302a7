package precompress

import (
	"crypto/sha256"
	"os"
	"path/filepath"
	"testing"
)

// TestKeepWritesTheLastFilesCopies: a file rebuilt while its copies are
// being written (here: from Keep's own report of the first Write) has its
// copies written again, and the copies left are the last file's.
func TestKeepWritesTheLastFilesCopies(t *testing.T) {
	path := filepath.Join(t.TempDir(), "lab.wasm")
	if err := os.WriteFile(path, content("first"), 0o644); err != nil {
		t.Fatal(err)
	}
	last := content("second")
	writes := make(chan []Copy, 3)
	n := 0 // Writes reported, counted in the one goroutine that reports
	var touch func()
	touch, stop := Keep(path, func(copies []Copy, err error) {
		if err != nil {
			t.Errorf("Write: %v", err)
		}
		if n++; n == 1 {
			// The file is rebuilt: the live loop touches again.
			if err := os.WriteFile(path, last, 0o644); err != nil {
				t.Error(err)
			}
			touch()
		}
		writes <- copies
	})
	touch()
	<-writes
	second := <-writes
	stop()
	touch() // after stop: nothing
	if len(second) != len(Encodings) {
		t.Fatalf("the second Write made %d copies, want %d", len(second), len(Encodings))
	}
	sum := sha256.Sum256(last)
	for _, enc := range Encodings {
		body, err := os.ReadFile(path + enc.Ext)
		if err != nil || !Matches(enc.Name, body, sum) {
			t.Errorf("%s%s does not hold the last file (err %v)", path, enc.Ext, err)
		}
	}
	if len(writes) != 0 {
		t.Errorf("%d more Writes after stop", len(writes))
	}
}

// TestWriteOnlyTheEncodingsNamed: Write with encodings named writes those
// copies alone, and an unknown name is an error.
func TestWriteOnlyTheEncodingsNamed(t *testing.T) {
	path := filepath.Join(t.TempDir(), "lab.wasm")
	if err := os.WriteFile(path, content("gz"), 0o644); err != nil {
		t.Fatal(err)
	}
	copies, err := Write(path, "gzip")
	if err != nil || len(copies) != 1 || copies[0].Encoding.Name != "gzip" {
		t.Fatalf("Write(path, gzip) = %+v, %v; want the gzip copy alone", copies, err)
	}
	if _, err := os.Stat(path + ".br"); !os.IsNotExist(err) {
		t.Errorf("Write(path, gzip) wrote a Brotli copy (stat: %v)", err)
	}
	if _, err := Write(path, "zstd"); err == nil {
		t.Error("Write(path, zstd) = nil error, want one naming the encoding")
	}
}
