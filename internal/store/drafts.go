package store

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"
)

// Drafts: what a learner's editor last saved of an exercise, per learner
// and exercise, so that a reload, a second tab or another machine shows the
// same code. A draft is no submission: it is graded only when the learner
// checks it (a submission of KindCheck) or submits it.

// Draft is a learner's saved code of one exercise.
type Draft struct {
	Exercise string
	Files    []File // by name
	// Version is 1 after the first save and one more after each: a
	// client tells its own save from another tab's by it.
	Version   int64
	UpdatedAt time.Time
}

// Draft returns the learner's draft of exercise, or ErrNotFound if they
// saved none.
func (s *Store) Draft(ctx context.Context, userID int64, exercise string) (Draft, error) {
	var (
		d    = Draft{Exercise: exercise}
		body string
		at   int64
	)
	err := s.db.QueryRowContext(ctx, `SELECT files, version, updated_at_ns FROM drafts WHERE user_id = ? AND exercise_id = ?`,
		userID, exercise).Scan(&body, &d.Version, &at)
	if errors.Is(err, sql.ErrNoRows) {
		return Draft{}, ErrNotFound
	}
	if err != nil {
		return Draft{}, fmt.Errorf("store: %w", err)
	}
	var files map[string]string
	if err := json.Unmarshal([]byte(body), &files); err != nil {
		return Draft{}, fmt.Errorf("store: the draft of %s: %w", exercise, err)
	}
	d.Files = FilesOf(files)
	d.UpdatedAt = time.Unix(0, at).UTC()
	return d, nil
}

// SaveDraft replaces the learner's draft of exercise with files (validated
// by the caller, as an upload is) and returns its new version. The last
// save wins: two tabs saving in turn leave the later one's files.
func (s *Store) SaveDraft(ctx context.Context, userID int64, exercise string, files []File) (int64, error) {
	body, err := draftJSON(files)
	if err != nil {
		return 0, err
	}
	var v int64
	err = s.db.QueryRowContext(ctx, `
INSERT INTO drafts (user_id, exercise_id, files, version, updated_at_ns) VALUES (?, ?, ?, 1, ?)
ON CONFLICT (user_id, exercise_id) DO UPDATE SET files = excluded.files, version = drafts.version + 1, updated_at_ns = excluded.updated_at_ns
RETURNING version`, userID, exercise, body, ns(s.clock.Now())).Scan(&v)
	if err != nil {
		return 0, fmt.Errorf("store: saving the draft: %w", err)
	}
	return v, nil
}

// ErrStale is SaveDraftOver's error when the draft is no longer the
// version the save was based on: another tab or machine saved meanwhile.
var ErrStale = errors.New("store: the draft changed since the version given")

// SaveDraftOver is SaveDraft if the learner's draft is still version base
// (0: none saved yet), in one statement; otherwise it saves nothing and
// returns ErrStale, so that a save from a tab that has not seen another
// tab's never overwrites it unawares.
func (s *Store) SaveDraftOver(ctx context.Context, userID int64, exercise string, files []File, base int64) (int64, error) {
	body, err := draftJSON(files)
	if err != nil {
		return 0, err
	}
	q, args := `
UPDATE drafts SET files = ?, version = version + 1, updated_at_ns = ?
WHERE user_id = ? AND exercise_id = ? AND version = ? RETURNING version`, []any{body, ns(s.clock.Now()), userID, exercise, base}
	if base == 0 {
		q, args = `
INSERT INTO drafts (user_id, exercise_id, files, version, updated_at_ns) VALUES (?, ?, ?, 1, ?)
ON CONFLICT (user_id, exercise_id) DO NOTHING RETURNING version`, []any{userID, exercise, body, ns(s.clock.Now())}
	}
	var v int64
	err = s.db.QueryRowContext(ctx, q, args...).Scan(&v)
	if errors.Is(err, sql.ErrNoRows) {
		return 0, ErrStale
	}
	if err != nil {
		return 0, fmt.Errorf("store: saving the draft: %w", err)
	}
	return v, nil
}

// draftJSON is files as the drafts table keeps them: a JSON object of
// name to content.
func draftJSON(files []File) (string, error) {
	body, err := json.Marshal(ByName(files))
	if err != nil {
		return "", fmt.Errorf("store: encoding the draft: %w", err)
	}
	return string(body), nil
}

// ByName returns files keyed by name: FilesOf's inverse.
func ByName(files []File) map[string]string {
	out := make(map[string]string, len(files))
	for _, f := range files {
		out[f.Name] = string(f.Content)
	}
	return out
}

// FilesOf returns files keyed by name as a list sorted by name.
func FilesOf(byName map[string]string) []File {
	out := make([]File, 0, len(byName))
	for name, src := range byName {
		out = append(out, File{Name: name, Content: []byte(src)})
	}
	slices.SortFunc(out, func(a, b File) int { return strings.Compare(a.Name, b.Name) })
	return out
}
