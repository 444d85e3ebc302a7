package fingerprint_test

import (
	"testing"

	"ratelab/internal/fingerprint"
	"ratelab/internal/store"
)

func TestFingerprint(t *testing.T) {
	orig := "package tokenbucket\n\nimport \"math/bits\"\n\n// Bucket holds tokens.\ntype Bucket struct{ tokens, cap uint64 }\n\nfunc (b *Bucket) Take(n uint64) bool {\n\tif b.tokens < n {\n\t\treturn false\n\t}\n\tb.tokens -= n\n\t_, _ = bits.Add64(n, 1, 0)\n\treturn true\n}\n"
	renamed := "package tokenbucket\nimport \"math/bits\"\nfunc (q *Bucket) Take(k uint64) bool { /* mine */ if q.tokens < k { return false }; q.tokens -= k; _, _ = bits.Add64(k, 1, 0); return true }\n"
	renamedType := "package tokenbucket\ntype Bucket struct{ tokens, cap uint64 }\n"
	changed := "package tokenbucket\nimport \"math/bits\"\nfunc (q *Bucket) Take(k uint64) bool { if q.tokens <= k { return false }; q.tokens -= k; _, _ = bits.Add64(k, 1, 0); return true }\n"
	fp := func(srcs ...string) string {
		var fs []store.File
		for i, s := range srcs {
			fs = append(fs, store.File{Name: string(rune('a'+i)) + ".go", Content: []byte(s)})
		}
		return fingerprint.Of(fs)
	}
	a := fp(orig)
	if a == "" {
		t.Fatal("Of = \"\"")
	}
	if b := fp(renamed, renamedType); b != a {
		t.Errorf("renamed, reformatted, commented, split and reordered: fingerprint %s; want the original's %s", b, a)
	}
	if c := fp(changed, renamedType); c == a {
		t.Error("a changed comparison has the original's fingerprint")
	}
	if fp("package tokenbucket\nfunc {") != "" {
		t.Error("code that does not parse has a fingerprint")
	}
}
