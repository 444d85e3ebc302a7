package class

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"

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
	dir := filepath.Join(c.cfg.Root, "exercises", exercise)
	entries, err := os.ReadDir(dir)
	if err != nil {
		return nil, fmt.Errorf("reading the stub of %s: %w", exercise, err)
	}
	var files []store.File
	for _, e := range entries { // ReadDir sorts by name
		name := e.Name()
		if !e.Type().IsRegular() || !strings.HasSuffix(name, ".go") || strings.HasSuffix(name, "_test.go") {
			continue
		}
		b, err := os.ReadFile(filepath.Join(dir, name))
		if err != nil {
			return nil, fmt.Errorf("reading the stub of %s: %w", exercise, err)
		}
		files = append(files, store.File{Name: name, Content: b})
	}
	return files, nil
}
