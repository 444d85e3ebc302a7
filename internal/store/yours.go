package store

import (
	"context"
	"database/sql"
	"encoding/json"
	"fmt"

	"ratelab/grader/report"
)

// Built is the code of one exercise a learner's "Yours" is built from in
// class mode: the files of one of their submissions.
type Built struct {
	Submission int64
	Files      []File
}

// LatestBuilt returns, for each exercise the learner submitted, the files
// of their latest submission whose grading built: its latest finished job
// has a result, and built(result) says the code compiled (the store does
// not know how a report says it did not; class mode passes
// grader.CompileError's negation). Every row of submissions counts,
// checks included once they are rows of it: the newest code
// that compiled is what the learner last tried. A submission still
// waiting for its first grading does not count yet; an exercise without
// any is absent.
func (s *Store) LatestBuilt(ctx context.Context, userID int64, built func(*report.Exercise) bool) (map[string]Built, error) {
	rows, err := s.db.QueryContext(ctx, `
SELECT s.id, s.exercise_id, j.result FROM submissions s
JOIN jobs j ON j.id = (SELECT MAX(id) FROM jobs WHERE submission_id = s.id AND state = 'done')
WHERE s.user_id = ? AND j.result IS NOT NULL
ORDER BY s.id DESC`, userID)
	if err != nil {
		return nil, fmt.Errorf("store: %w", err)
	}
	chosen := map[string]int64{}
	for rows.Next() {
		var (
			id   int64
			ex   string
			body sql.NullString
		)
		if err := rows.Scan(&id, &ex, &body); err != nil {
			rows.Close()
			return nil, fmt.Errorf("store: %w", err)
		}
		if _, ok := chosen[ex]; ok {
			continue // a newer one was chosen
		}
		var r report.Exercise
		if err := json.Unmarshal([]byte(body.String), &r); err != nil {
			rows.Close()
			return nil, fmt.Errorf("store: result of submission %d: %w", id, err)
		}
		if built(&r) {
			chosen[ex] = id
		}
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("store: %w", err)
	}
	out := make(map[string]Built, len(chosen))
	for ex, id := range chosen {
		b := Built{Submission: id}
		frows, err := s.db.QueryContext(ctx, `SELECT name, content FROM submission_files WHERE submission_id = ? ORDER BY name`, id)
		if err != nil {
			return nil, fmt.Errorf("store: %w", err)
		}
		for frows.Next() {
			var f File
			if err := frows.Scan(&f.Name, &f.Content); err != nil {
				frows.Close()
				return nil, fmt.Errorf("store: %w", err)
			}
			b.Files = append(b.Files, f)
		}
		frows.Close()
		if err := frows.Err(); err != nil {
			return nil, fmt.Errorf("store: %w", err)
		}
		out[ex] = b
	}
	return out, nil
}
