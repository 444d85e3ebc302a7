package store_test

import (
	"errors"
	"testing"

	"ratelab/internal/store"
	"ratelab/internal/store/storetest"
)

// A draft is saved per learner and exercise; each save replaces the files
// and numbers a new version.
func TestDrafts(t *testing.T) {
	storetest.Each(t, func(t *testing.T, target string) {
		s := open(t, target)
		ctx := t.Context()
		u := learners(t, s, "ada", "bob")
		if _, err := s.Draft(ctx, u["ada"].ID, "tokenbucket"); !errors.Is(err, store.ErrNotFound) {
			t.Fatalf("Draft before any save: err = %v, want ErrNotFound", err)
		}
		first := []store.File{{Name: "tokenbucket.go", Content: []byte("package tokenbucket\n// one\n")}}
		if v, err := s.SaveDraft(ctx, u["ada"].ID, "tokenbucket", first); err != nil || v != 1 {
			t.Fatalf("SaveDraft = %d, %v; want version 1", v, err)
		}
		second := []store.File{
			{Name: "tokenbucket.go", Content: []byte("package tokenbucket\n// two\n")},
			{Name: "extra.go", Content: []byte("package tokenbucket\n")},
		}
		if v, err := s.SaveDraft(ctx, u["ada"].ID, "tokenbucket", second); err != nil || v != 2 {
			t.Fatalf("SaveDraft again = %d, %v; want version 2", v, err)
		}
		d, err := s.Draft(ctx, u["ada"].ID, "tokenbucket")
		if err != nil || d.Version != 2 || d.Exercise != "tokenbucket" || len(d.Files) != 2 || d.UpdatedAt.IsZero() {
			t.Fatalf("Draft = %+v, %v; want version 2 with two files", d, err)
		}
		// By name: extra.go first.
		if d.Files[0].Name != "extra.go" || string(d.Files[1].Content) != "package tokenbucket\n// two\n" {
			t.Errorf("Draft's files = %q; want extra.go, then the second save's tokenbucket.go", d.Files)
		}
		if _, err := s.Draft(ctx, u["bob"].ID, "tokenbucket"); !errors.Is(err, store.ErrNotFound) {
			t.Errorf("bob's draft: err = %v, want ErrNotFound (ada's is hers)", err)
		}
		if _, err := s.Draft(ctx, u["ada"].ID, "gcra"); !errors.Is(err, store.ErrNotFound) {
			t.Errorf("ada's draft of gcra: err = %v, want ErrNotFound", err)
		}
		if v, err := s.SaveDraft(ctx, u["bob"].ID, "tokenbucket", first); err != nil || v != 1 {
			t.Errorf("bob's first SaveDraft = %d, %v; want version 1 (versions are per draft)", v, err)
		}
	})
}
