package main

import (
	"encoding/csv"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"ratelab/internal/store"
	"ratelab/internal/store/storetest"
)

// importRoster writes lines as a roster and imports it into db with extra
// flags; it returns the tokens printed by name, stderr and the status.
func importRoster(t *testing.T, db string, lines string, extra ...string) (map[string]string, string, int) {
	t.Helper()
	roster := filepath.Join(t.TempDir(), "roster.csv")
	if err := os.WriteFile(roster, []byte(lines), 0o644); err != nil {
		t.Fatal(err)
	}
	out, stderr, code := labserver(t, "", append(append([]string{"roster", "import", "--db", db}, extra...), roster)...)
	tokens := map[string]string{}
	if out == "" {
		return tokens, stderr, code
	}
	rows, err := csv.NewReader(strings.NewReader(out)).ReadAll()
	if err != nil || len(rows) == 0 || rows[0][0] != "name" {
		t.Fatalf("roster import printed %q (%v); want nothing, or CSV with a header", out, err)
	}
	for _, r := range rows[1:] {
		tokens[r[0]] = r[1]
	}
	return tokens, stderr, code
}

func openTestStore(t *testing.T, db string) *store.Store {
	t.Helper()
	st, err := store.Open(t.Context(), db, wallClock{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	return st
}

func TestRosterImportStoppedPrintsItsTokens(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db string) {
		if _, stderr, code := labserver(t, "correct horse battery\n", "instructor", "add", "--db", db, "prof"); code != 0 {
			t.Fatalf("instructor add: exit %d\n%s", code, stderr)
		}
		// Line 3 is the instructor's name: the import stops there, after ann.
		tokens, stderr, code := importRoster(t, db, "name\nann\nprof\nbob\n", "--reissue")
		if code != 2 || !strings.Contains(stderr, "line 3: prof: the name is an instructor's; stopped there") {
			t.Errorf("roster import stopping at line 3: exit %d\n%s\nwant 2, naming line 3 and why", code, stderr)
		}
		if len(tokens) != 1 || tokens["ann"] == "" {
			t.Fatalf("roster import stopping at line 3 printed tokens %v; want ann's, the one created", tokens)
		}
		st := openTestStore(t, db)
		if u, err := st.LearnerByToken(t.Context(), store.Hash(tokens["ann"])); err != nil || u.Name != "ann" {
			t.Errorf("ann's printed token = %+v, %v; want it to be ann's", u, err)
		}
		if _, _, err := st.Instructor(t.Context(), "prof"); err != nil {
			t.Errorf("prof after the import: %v; want still an instructor", err)
		}
	})
}

func TestRosterImportChecksEveryNameFirst(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db string) {
		for _, tt := range []struct{ name, lines, want string }{
			{"unusable name", "ann\nx/y\n", `line 2: "x/y" is not a usable name`},
			{"twice", "ann\nbob\nann\n", `line 3: "ann" is on line 1 already`},
		} {
			t.Run(tt.name, func(t *testing.T) {
				tokens, stderr, code := importRoster(t, db, tt.lines)
				if code != 2 || !strings.Contains(stderr, tt.want) || !strings.Contains(stderr, "nobody was created") || len(tokens) != 0 {
					t.Errorf("roster import: exit %d, tokens %v\n%s\nwant 2, no tokens, saying %q and that nobody was created", code, tokens, stderr, tt.want)
				}
			})
		}
		learners, _ := openTestStore(t, db).Users(t.Context(), store.Learner)
		if len(learners) != 0 {
			t.Errorf("learners after refused imports: %v; want none", learners)
		}
	})
}

func TestRosterReissueAndRemoveEndSessions(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db string) {
		tokens, stderr, code := importRoster(t, db, "ada\nbob\ncy\n")
		if code != 0 || len(tokens) != 3 {
			t.Fatalf("roster import: exit %d, tokens %v\n%s", code, tokens, stderr)
		}
		st := openTestStore(t, db)
		ctx := t.Context()
		far := time.Now().Add(12 * time.Hour)
		users := map[string]store.User{}
		for name, tok := range tokens {
			u, err := st.LearnerByToken(ctx, store.Hash(tok))
			if err != nil {
				t.Fatal(err)
			}
			users[name] = u
			if err := st.CreateSession(ctx, store.Hash("session-"+name), u.ID, far); err != nil {
				t.Fatal(err)
			}
		}
		sub, err := st.Submit(ctx, users["bob"].ID, "tokenbucket", []store.File{{Name: "a.go", Content: []byte("package tokenbucket")}})
		if err != nil {
			t.Fatal(err)
		}
		session := func(name string) error {
			_, err := st.SessionUser(ctx, store.Hash("session-"+name), time.Now())
			return err
		}

		// A reissued token ends its learner's sessions.
		again, _, code := importRoster(t, db, "ada\n", "--reissue")
		if code != 0 || again["ada"] == "" || again["ada"] == tokens["ada"] {
			t.Fatalf("roster import --reissue: exit %d, tokens %v; want a new token for ada", code, again)
		}
		if err := session("ada"); !errors.Is(err, store.ErrNotFound) {
			t.Errorf("ada's session after --reissue: %v; want it ended", err)
		}
		if err := session("bob"); err != nil {
			t.Errorf("bob's session after ada's --reissue: %v; want it untouched", err)
		}

		// roster remove: token and sessions end, submissions kept, marked.
		_, stderr, code = labserver(t, "", "roster", "remove", "--db", db, "bob")
		if code != 0 || !strings.Contains(stderr, "bob removed: token and sessions ended; their 1 submissions are kept in the gradebook as \"bob (removed ") {
			t.Errorf("roster remove bob: exit %d\n%s\nwant 0, saying his submission is kept", code, stderr)
		}
		if _, err := st.LearnerByToken(ctx, store.Hash(tokens["bob"])); !errors.Is(err, store.ErrNotFound) {
			t.Errorf("bob's token after roster remove: %v; want it refused", err)
		}
		if err := session("bob"); !errors.Is(err, store.ErrNotFound) {
			t.Errorf("bob's session after roster remove: %v; want it ended", err)
		}
		if got, err := st.Submission(ctx, sub.ID); err != nil || !strings.HasPrefix(got.Learner, "bob (removed ") {
			t.Errorf("bob's submission after roster remove = %q, %v; want it kept under bob (removed ...)", got.Learner, err)
		}
		if _, stderr, code := labserver(t, "", "roster", "remove", "--db", db, "bob"); code != 2 || !strings.Contains(stderr, "no learner of that name") {
			t.Errorf("roster remove bob twice: exit %d\n%s\nwant 2, no such learner", code, stderr)
		}
		if _, stderr, code := labserver(t, "", "roster", "remove", "--db", db, "cy"); code != 0 || !strings.Contains(stderr, "no submissions to keep") {
			t.Errorf("roster remove cy: exit %d\n%s", code, stderr)
		}
	})
}
