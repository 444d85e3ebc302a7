package jsconst

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

func write(t *testing.T, dir, name, src string) string {
	t.Helper()
	path := filepath.Join(dir, name)
	if err := os.WriteFile(path, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

func TestGoStringsReadsOneTypesConstantsOfOnePackage(t *testing.T) {
	dir := t.TempDir()
	files := []string{
		write(t, dir, "kind.go", "package p\n\ntype Kind string\n\nconst (\n\tDone Kind = \"done\"\n\tHello Kind = \"hello\"\n\tOther = \"other\"\n)\n\nconst Max int = 3\n"),
		write(t, dir, "more.go", "package p\n\nconst Queued Kind = `queued`\n"),
		write(t, dir, "kind_test.go", "package p_test\n\nconst Fake Kind = \"fake\"\n"),
	}
	got, err := GoStrings(files, "p", "Kind")
	if want := []string{"done", "hello", "queued"}; err != nil || !slices.Equal(got, want) {
		t.Fatalf("GoStrings = %q, %v; want %q", got, err, want)
	}
	bad := write(t, dir, "bad.go", "package p\n\nconst Joined Kind = \"a\" + \"b\"\n")
	if _, err := GoStrings([]string{bad}, "p", "Kind"); err == nil || !strings.Contains(err.Error(), "not a string literal") {
		t.Fatalf("a constant that is not a literal: error %v, want one saying so", err)
	}
}

func TestJSTableReadsTheNamedTable(t *testing.T) {
	dir := t.TempDir()
	path := write(t, dir, "page.js", "// @ts-check\nconst OTHER = {\n  X: \"x\",\n};\n\n/** event types */\nconst EVENT = {\n  HELLO: \"hello\", // first\n  DONE: \"done\",\n  QUEUED_AGAIN: \"queued\"\n};\n")
	got, err := JSTable(path, "EVENT")
	if want := []string{"done", "hello", "queued"}; err != nil || !slices.Equal(got, want) {
		t.Fatalf("JSTable = %q, %v; want %q", got, err, want)
	}
	if _, err := JSTable(path, "KINDS"); err == nil || !strings.Contains(err.Error(), "KINDS") {
		t.Fatalf("a missing table: error %v, want one naming it", err)
	}
}
