package class_test

import (
	"strings"
	"testing"

	"ratelab/internal/class"
	"ratelab/internal/store"
)

const okSource = "package tokenbucket\n\nimport \"math/bits\"\n\nvar _ = bits.Mul64\n"

func TestValidate(t *testing.T) {
	big := "package tokenbucket\n//" + strings.Repeat("x", 70<<10) + "\n"
	tests := []struct {
		name     string
		exercise string
		files    []store.File
		want     string // a phrase of the one expected problem; "" means valid
	}{
		{"valid", "tokenbucket", []store.File{{Name: "tokenbucket.go", Content: []byte(okSource)}}, ""},
		{"unknown exercise", "leakybucket", []store.File{{Name: "a.go", Content: []byte("package leakybucket")}}, "no exercise called"},
		{"no files", "tokenbucket", nil, "no files"},
		{"dot dot", "tokenbucket", []store.File{{Name: "../x.go", Content: []byte(okSource)}}, "may not contain a folder"},
		{"slash", "tokenbucket", []store.File{{Name: "a/b.go", Content: []byte(okSource)}}, "may not contain a folder"},
		{"test file", "tokenbucket", []store.File{{Name: "tokenbucket_test.go", Content: []byte(okSource)}}, "test files are not submitted"},
		{"not go", "tokenbucket", []store.File{{Name: "notes.txt", Content: []byte("hi")}}, "only .go files"},
		{"too big", "tokenbucket", []store.File{{Name: "big.go", Content: []byte(big)}}, "over the limit"},
		{"wrong package", "tokenbucket", []store.File{{Name: "a.go", Content: []byte("package main\n")}}, "want package tokenbucket"},
		{"unsafe", "tokenbucket", []store.File{{Name: "a.go", Content: []byte("package tokenbucket\nimport \"unsafe\"\nvar _ = unsafe.Sizeof(0)\n")}}, `import "unsafe" is not allowed`},
		{"os/exec", "tokenbucket", []store.File{{Name: "a.go", Content: []byte("package tokenbucket\nimport \"os/exec\"\nvar _ = exec.Command\n")}}, "it starts processes"},
		{"net/http", "tokenbucket", []store.File{{Name: "a.go", Content: []byte("package tokenbucket\nimport _ \"net/http\"\n")}}, "it reaches the network"},
		{"cgo", "tokenbucket", []store.File{{Name: "a.go", Content: []byte("package tokenbucket\nimport \"C\"\n")}}, "cgo is not allowed"},
		{"linkname", "tokenbucket", []store.File{{Name: "a.go", Content: []byte("package tokenbucket\n\n//go:linkname now runtime.nanotime\nfunc now() int64\n")}}, "//go:linkname is not allowed"},
		{"embed", "tokenbucket", []store.File{{Name: "a.go", Content: []byte("package tokenbucket\n\n//go:embed x\nvar s string\n")}}, "//go:embed is not allowed"},
		{"syntax", "tokenbucket", []store.File{{Name: "a.go", Content: []byte("package tokenbucket\nfunc {\n")}}, "does not parse"},
		{"browser only", "tokenbucket", []store.File{{Name: "bomb_js.go", Content: []byte(okSource)}}, "bomb_js.go: a name ending in _js.go is compiled for that platform only"},
		{"wasm only", "tokenbucket", []store.File{{Name: "big_wasm.go", Content: []byte(okSource)}}, "without _wasm"},
		{"linux only", "tokenbucket", []store.File{{Name: "x_linux.go", Content: []byte(okSource)}}, "without _linux"},
		{"one arch", "tokenbucket", []store.File{{Name: "x_amd64.go", Content: []byte(okSource)}}, "without _amd64"},
		{"os and arch", "tokenbucket", []store.File{{Name: "x_windows_arm64.go", Content: []byte(okSource)}}, "without _windows_arm64"},
		{"underscores of no platform", "tokenbucket", []store.File{{Name: "token_bucket_unix.go", Content: []byte(okSource)}}, ""},
		{"go:build", "tokenbucket", []store.File{{Name: "a.go", Content: []byte("//go:build js\n\npackage tokenbucket\n")}}, `the build constraint "//go:build js" is not allowed`},
		{"+build", "tokenbucket", []store.File{{Name: "a.go", Content: []byte("// +build !linux\n\npackage tokenbucket\n")}}, `the build constraint "// +build !linux" is not allowed`},
		{"+build below", "tokenbucket", []store.File{{Name: "a.go", Content: []byte("package tokenbucket\n\n//+build wasm\n")}}, "build constraint"},
		{"duplicate", "tokenbucket", []store.File{{Name: "a.go", Content: []byte(okSource)}, {Name: "a.go", Content: []byte(okSource)}}, "uploaded twice"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := class.Validate(tt.exercise, tt.files, class.Limits{})
			switch {
			case tt.want == "" && len(got) > 0:
				t.Errorf("Validate = %q; want no problem", got)
			case tt.want != "" && (len(got) != 1 || !strings.Contains(got[0], tt.want)):
				t.Errorf("Validate = %q; want one problem containing %q", got, tt.want)
			}
		})
	}
}

// TestValidateDraft: a draft is judged on its names and sizes only, as it is
// typed; the same files as a submission are judged on their source too.
func TestValidateDraft(t *testing.T) {
	half := []store.File{{Name: "tokenbucket.go", Content: []byte("package tokenbucket\n\nimport \"os\"\n\nfunc f() { os.")}}
	if p := class.ValidateDraft("tokenbucket", half, class.Limits{}); len(p) != 0 {
		t.Errorf("ValidateDraft of half-typed code = %q; want it saved", p)
	}
	if p := class.Validate("tokenbucket", half, class.Limits{}); len(p) == 0 {
		t.Error("Validate of half-typed code found nothing; want it refused")
	}
	for _, bad := range [][]store.File{
		{{Name: "../x.go", Content: []byte("package tokenbucket")}},
		{{Name: "tokenbucket_test.go", Content: []byte("package tokenbucket")}},
		{{Name: "tokenbucket.go", Content: make([]byte, 65<<10)}},
		{{Name: "tokenbucket_js.go", Content: []byte("package tokenbucket")}},
		nil,
	} {
		if p := class.ValidateDraft("tokenbucket", bad, class.Limits{}); len(p) == 0 {
			t.Errorf("class.ValidateDraft(%v…) found nothing; want a refusal", bad)
		}
	}
	if p := class.ValidateDraft("nope", half, class.Limits{}); len(p) == 0 {
		t.Error("ValidateDraft of an unknown exercise found nothing")
	}
}
