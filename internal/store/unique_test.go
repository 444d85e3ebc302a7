package store

import (
	"fmt"
	"testing"
	"time"

	"ratelab/internal/store/storetest"
)

type fixedClock struct{ t time.Time }

func (c fixedClock) Now() time.Time { return c.t }

// TestIsUnique checks isUnique on the driver's own errors: a duplicate in a
// UNIQUE column and in a primary key are, another constraint's failure and
// an error that only says so in its text are not.
func TestIsUnique(t *testing.T) {
	storetest.Each(t, testIsUnique)
}

func testIsUnique(t *testing.T, target string) {
	ctx := t.Context()
	s, err := Open(ctx, target, fixedClock{time.Date(2026, 3, 2, 9, 0, 0, 0, time.UTC)})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	ada, err := s.AddLearner(ctx, "ada", []byte("hash-a"))
	if err != nil {
		t.Fatal(err)
	}
	if err := s.CreateSession(ctx, []byte("session"), ada.ID, time.Date(2026, 3, 3, 0, 0, 0, 0, time.UTC)); err != nil {
		t.Fatal(err)
	}
	insertUser := `INSERT INTO users (name, role, token_hash, created_at_ns) VALUES (?, ?, ?, 0)`
	_, dupName := s.db.ExecContext(ctx, insertUser, "ada", "learner", []byte("hash-b"))
	_, dupKey := s.db.ExecContext(ctx, `INSERT INTO sessions (id_hash, user_id, expires_at_ns) VALUES (?, ?, 0)`, []byte("session"), ada.ID)
	_, badRole := s.db.ExecContext(ctx, insertUser, "bob", "admin", []byte("hash-c"))
	_, noName := s.db.ExecContext(ctx, insertUser, nil, "learner", []byte("hash-d"))
	tests := []struct {
		name string
		err  error
		want bool
	}{
		{"UNIQUE column", dupName, true},
		{"primary key", dupKey, true},
		{"CHECK", badRole, false},
		{"NOT NULL", noName, false},
		{"text only", fmt.Errorf("UNIQUE constraint failed: users.name"), false},
		{"nil", nil, false},
	}
	for _, tt := range tests {
		if tt.want && tt.err == nil || tt.name != "nil" && !tt.want && tt.err == nil {
			t.Fatalf("%s: the statement did not fail", tt.name)
		}
		if got := isUnique(tt.err); got != tt.want {
			t.Errorf("isUnique(%s: %v) = %v; want %v", tt.name, tt.err, got, tt.want)
		}
	}
}
