package precompress

import (
	"bytes"
	"crypto/sha256"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// content is something worth compressing, large enough to span blocks.
func content(seed string) []byte {
	return []byte(strings.Repeat("func (b *Bucket) TryAcquire(nowNs uint64) bool "+seed+"\n", 4000))
}

func TestWriteWritesCopiesThatDecodeToTheFile(t *testing.T) {
	path := filepath.Join(t.TempDir(), "lab.wasm")
	raw := content("1")
	if err := os.WriteFile(path, raw, 0o644); err != nil {
		t.Fatal(err)
	}
	copies, err := Write(path)
	if err != nil {
		t.Fatalf("Write(%s) = %v", path, err)
	}
	if len(copies) != len(Encodings) {
		t.Fatalf("Write made %d copies, want %d", len(copies), len(Encodings))
	}
	sum := sha256.Sum256(raw)
	for i, c := range copies {
		if c.Encoding != Encodings[i] || c.Path != path+Encodings[i].Ext || c.Kept {
			t.Errorf("copy %d = %+v, want a new %s at %s", i, c, Encodings[i].Name, path+Encodings[i].Ext)
		}
		body, err := os.ReadFile(c.Path)
		if err != nil {
			t.Fatal(err)
		}
		if len(body) != c.Size || len(body) >= len(raw)/10 {
			t.Errorf("%s: %d bytes (Size %d) for %d raw", c.Path, len(body), c.Size, len(raw))
		}
		if !Matches(c.Encoding.Name, body, sum) {
			t.Errorf("Matches(%q, %s, sum of the file) = false, want true", c.Encoding.Name, c.Path)
		}
	}
	// Nothing left behind but the file and its copies.
	entries, _ := os.ReadDir(filepath.Dir(path))
	if len(entries) != 1+len(Encodings) {
		t.Errorf("the folder holds %d files, want %d", len(entries), 1+len(Encodings))
	}
}

func TestWriteKeepsCurrentCopiesAndReplacesStaleOnes(t *testing.T) {
	path := filepath.Join(t.TempDir(), "lab.wasm")
	if err := os.WriteFile(path, content("old"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := Write(path); err != nil {
		t.Fatal(err)
	}
	again, err := Write(path)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range again {
		if !c.Kept {
			t.Errorf("Write of an unchanged file rewrote %s", c.Path)
		}
	}

	raw := content("new") // the file rebuilt: its copies are stale
	if err := os.WriteFile(path, raw, 0o644); err != nil {
		t.Fatal(err)
	}
	sum := sha256.Sum256(raw)
	for _, enc := range Encodings {
		old, _ := os.ReadFile(path + enc.Ext)
		if Matches(enc.Name, old, sum) {
			t.Fatalf("Matches(%q, the old copy, sum of the new file) = true, want false", enc.Name)
		}
	}
	fresh, err := Write(path)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range fresh {
		body, _ := os.ReadFile(c.Path)
		if c.Kept || !Matches(c.Encoding.Name, body, sum) {
			t.Errorf("after a rebuild, %s: Kept %v, Matches %v; want rewritten to the new content", c.Path, c.Kept, Matches(c.Encoding.Name, body, sum))
		}
	}
}

func TestMatchesRefusesWhatDoesNotDecodeToTheContent(t *testing.T) {
	raw := content("x")
	sum := sha256.Sum256(raw)
	for _, enc := range Encodings {
		body, err := Compress(enc.Name, raw)
		if err != nil {
			t.Fatal(err)
		}
		cases := []struct {
			name string
			body []byte
			want bool
		}{
			{"the copy", body, true},
			{"truncated", body[:len(body)/2], false},
			{"empty", nil, false},
			{"the raw file", raw, false},
			{"another file's copy", must(Compress(enc.Name, content("y"))), false},
			{"corrupted", corrupt(body), false},
		}
		for _, c := range cases {
			if got := Matches(enc.Name, c.body, sum); got != c.want {
				t.Errorf("Matches(%q, %s, sum) = %v, want %v", enc.Name, c.name, got, c.want)
			}
		}
	}
	if Matches("zstd", raw, sum) {
		t.Errorf(`Matches("zstd", ...) = true, want false (an unknown coding)`)
	}
}

func must(b []byte, err error) []byte {
	if err != nil {
		panic(err)
	}
	return b
}

func corrupt(b []byte) []byte {
	c := bytes.Clone(b)
	c[len(c)/2] ^= 0xff
	return c
}
