package store_test

import (
	"errors"
	"strings"
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

// A save based on a version saves only over that version: two tabs that
// each saved from version 1 cannot both win; the second learns it is stale
// and the first's files stay.
func TestSaveDraftOver(t *testing.T) {
	storetest.Each(t, func(t *testing.T, target string) {
		s := open(t, target)
		ctx := t.Context()
		u := learners(t, s, "ada")
		id := u["ada"].ID
		files := func(s string) []store.File {
			return []store.File{{Name: "tokenbucket.go", Content: []byte("package tokenbucket\n// " + s + "\n")}}
		}
		if v, err := s.SaveDraftOver(ctx, id, "tokenbucket", files("first"), 0); err != nil || v != 1 {
			t.Fatalf("SaveDraftOver(base 0) with no draft = %d, %v; want version 1", v, err)
		}
		if _, err := s.SaveDraftOver(ctx, id, "tokenbucket", files("another first"), 0); !errors.Is(err, store.ErrStale) {
			t.Errorf("a second SaveDraftOver(base 0) = %v; want ErrStale (a draft exists)", err)
		}
		if v, err := s.SaveDraftOver(ctx, id, "tokenbucket", files("tab A"), 1); err != nil || v != 2 {
			t.Fatalf("tab A's SaveDraftOver(base 1) = %d, %v; want version 2", v, err)
		}
		if _, err := s.SaveDraftOver(ctx, id, "tokenbucket", files("tab B"), 1); !errors.Is(err, store.ErrStale) {
			t.Errorf("tab B's SaveDraftOver(base 1) after tab A's = %v; want ErrStale", err)
		}
		if d, err := s.Draft(ctx, id, "tokenbucket"); err != nil || d.Version != 2 || !strings.Contains(string(d.Files[0].Content), "tab A") {
			t.Errorf("the draft = %+v, %v; want tab A's, version 2", d, err)
		}
		if v, err := s.SaveDraft(ctx, id, "tokenbucket", files("script")); err != nil || v != 3 {
			t.Errorf("SaveDraft (no base: the last save wins) = %d, %v; want version 3", v, err)
		}
	})
}
