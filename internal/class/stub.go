package class

import (
	"fmt"
	"os"
	"path/filepath"

	"ratelab/internal/store"
)

// Stub returns the files a learner starts an exercise from: the .go files
// of exercises/<exercise> in the graded module (Config.Root), its tests
// left out, by name. It is what the editor shows before the learner's
// first saved draft.
func (c *Class) Stub(exercise string) ([]store.File, error) {
	if !Gradable(exercise) {
		return nil, fmt.Errorf("there is no exercise called %q", exercise)
	}
	files, err := ReadExercise(filepath.Join(c.cfg.Root, "exercises", exercise), exercise)
	if err != nil {
		return nil, fmt.Errorf("reading the stub of %s: %w", exercise, err)
	}
	return files, nil
}

// ReadExercise returns the files of exercise's folder dir that a learner
// edits and submits: its regular files whose names NameProblem accepts
// (.go, no tests), by name.
func ReadExercise(dir, exercise string) ([]store.File, error) {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return nil, err
	}
	var files []store.File
	for _, e := range entries { // ReadDir sorts by name
		if !e.Type().IsRegular() || NameProblem(exercise, e.Name()) != "" {
			continue
		}
		b, err := os.ReadFile(filepath.Join(dir, e.Name()))
		if err != nil {
			return nil, err
		}
		files = append(files, store.File{Name: e.Name(), Content: b})
	}
	return files, nil
}
