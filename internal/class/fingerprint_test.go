package class_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"ratelab/grader"
	"ratelab/grader/report"
	"ratelab/internal/class"
	"ratelab/internal/store"
	"ratelab/internal/store/storetest"
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
		return class.Fingerprint(fs)
	}
	a := fp(orig)
	if a == "" {
		t.Fatal("Fingerprint = \"\"")
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

// A submission that is the reference solution, or another learner's code,
// is flagged; nothing is refused.
func TestSubmissionCopyFlags(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db string) {
		f := newClassOn(t, db, class.Config{}, func(context.Context, grader.Options) (*report.Report, error) {
			return result(report.Passed, ""), nil
		})
		paths, _ := filepath.Glob("../../solutions/tokenbucket/*.go")
		var sol []store.File
		for _, p := range paths {
			if filepath.Ext(p) == ".go" && !filepath.IsAbs(p) && filepath.Base(p) != "" && !isTest(p) {
				sol = append(sol, store.File{Name: filepath.Base(p), Content: must(os.ReadFile(p))})
			}
		}
		sub, err := f.c.Submit(t.Context(), f.ada, "tokenbucket", sol)
		if err != nil {
			t.Fatal(err)
		}
		bobs := f.submit(t, f.bob, okSource)
		adas := f.submit(t, f.ada, "// copied\npackage tokenbucket\n\nimport \"math/bits\"\n\nvar _ = bits.Mul64\n")
		for _, tt := range []struct {
			id   int64
			sol  bool
			same string
		}{{sub.ID, true, ""}, {bobs.ID, false, "ada"}, {adas.ID, false, "bob"}} {
			got, err := f.st.Submission(t.Context(), tt.id)
			same := ""
			if len(got.SameAs) > 0 {
				same = got.SameAs[0]
			}
			if err != nil || got.MatchesSolution != tt.sol || same != tt.same || got.Fingerprint == "" {
				t.Errorf("submission %d: MatchesSolution %v, SameAs %q, fingerprint %q, %v; want %v, %q", tt.id, got.MatchesSolution, got.SameAs, got.Fingerprint, err, tt.sol, tt.same)
			}
		}
	})
}

func isTest(p string) bool { return len(p) > 8 && p[len(p)-8:] == "_test.go" }

// The gradebook is kept as gradings finish: a finished grading does not
// read every stored result again (here one is made unreadable after the
// gradebook was first built), and the cell and pitfall counts follow.
func TestGradebookIsIncremental(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db string) {
		f := newClassOn(t, db, class.Config{}, func(context.Context, grader.Options) (*report.Report, error) {
			return result(report.Failed, ""), nil
		})
		first := f.submit(t, f.ada, okSource)
		f.waitDone(t, first.ID)
		gb, err := f.c.Gradebook(t.Context())
		if err != nil || !gb.Cell("ada", "tokenbucket").Graded {
			t.Fatalf("Gradebook = %+v, %v", gb, err)
		}
		// The store's own handle: the same statement on either backend.
		if _, err := f.st.DB().Exec(fmt.Sprintf(`UPDATE jobs SET result = 'not json' WHERE submission_id = %d`, first.ID)); err != nil {
			t.Fatal(err)
		}
		second := f.submit(t, f.bob, okSource)
		e := f.waitDone(t, second.ID)
		if e.Cell == nil || !e.Cell.Graded || e.Graded != 2 || len(e.Pitfalls) != 1 || e.Pitfalls[0].Learners != 2 {
			t.Errorf("done event: cell %+v, graded %d, pitfalls %+v; want bob's graded cell, 2 graded, 2 learners on the pitfall", e.Cell, e.Graded, e.Pitfalls)
		}
		gb, err = f.c.Gradebook(t.Context())
		if err != nil || gb.Cell("bob", "tokenbucket").Latest != 1 || gb.Graded["tokenbucket"] != 2 {
			t.Errorf("Gradebook after a grading = %+v, %v", gb, err)
		}
	})
}
