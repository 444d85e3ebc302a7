package yours

import (
	"context"

	"ratelab/grader"
	"ratelab/grader/report"
	"ratelab/internal/store"
)

// FromStore is the Sources of a class's store: for each exercise of the
// course, the files of the learner's latest submission whose grading
// compiled (store.LatestBuilt; a grading whose report has CompilerLines
// did not).
func FromStore(st *store.Store) Sources {
	return func(ctx context.Context, userID int64) (map[string]map[string][]byte, error) {
		built, err := st.LatestBuilt(ctx, userID, compiled)
		if err != nil {
			return nil, err
		}
		out := map[string]map[string][]byte{}
		for _, ex := range grader.Gradable() {
			b, ok := built[ex.ID]
			if !ok || len(b.Files) == 0 {
				continue
			}
			files := map[string][]byte{}
			for _, f := range b.Files {
				files[f.Name] = f.Content
			}
			out[ex.ID] = files
		}
		return out, nil
	}
}

// compiled reports whether a grading's result says the code compiled.
func compiled(ex *report.Exercise) bool {
	_, broken := ex.CompilerLines()
	return !broken
}
