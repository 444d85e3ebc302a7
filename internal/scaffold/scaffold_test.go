package scaffold

import (
	"crypto/sha256"
	"encoding/json"
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"ratelab/grader/report"
	"ratelab/internal/modcopy"
)

var root = filepath.Join("..", "..")

// A new exercise is refused, and nothing written, when its id is not a
// package name or is taken, when the exercise to copy or the week does not
// exist, or when its folders are begun.
func TestNewRefuses(t *testing.T) {
	dir := t.TempDir()
	os.MkdirAll(filepath.Join(dir, "solutions", "begun"), 0o755)
	for _, c := range []struct {
		s    Spec
		want string
	}{
		{Spec{ID: "Leaky", Week: 1, Title: "Leaky", From: "gcra"}, "lower-case letters"},
		{Spec{ID: "leaky-bucket", Week: 1, Title: "Leaky", From: "gcra"}, "lower-case letters"},
		{Spec{ID: "gcra", Week: 1, Title: "GCRA", From: "tokenbucket"}, "already has an exercise gcra"},
		{Spec{ID: "leaky", Week: 1, Title: "Leaky", From: "nothing"}, `no exercise "nothing"`},
		{Spec{ID: "leaky", Week: 9, Title: "Leaky", From: "gcra"}, "no week 9"},
		{Spec{ID: "leaky", Week: 1, Title: `say "hi"`, From: "gcra"}, "without quotes"},
		{Spec{ID: "begun", Week: 1, Title: "Begun", From: "gcra"}, "solutions/begun is there already"},
	} {
		wrote, err := New(dir, c.s)
		if err == nil || !strings.Contains(err.Error(), c.want) || len(wrote) != 0 {
			t.Errorf("New(%+v) = %q, %v; want nothing written and an error saying %q", c.s, wrote, err, c.want)
		}
	}
}

// The catalogue's entry goes after its week's last exercise, and the
// source still parses; the task joins its week's map, aligned, and ends
// the file.
func TestNewEditsTheCatalogueAndTheLesson(t *testing.T) {
	src, err := os.ReadFile(filepath.Join(root, catalogueFile))
	if err != nil {
		t.Fatal(err)
	}
	s := Spec{ID: "leakybucket", Week: 3, Title: "Leaky bucket", From: "gcra"}
	out, err := s.addToCatalogue(string(src))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := parser.ParseFile(token.NewFileSet(), "course.go", out, 0); err != nil {
		t.Fatalf("the catalogue no longer parses: %v", err)
	}
	gateway, leaky, governor := strings.Index(out, `ID: "gateway"`), strings.Index(out, `ID: "leakybucket", Week: 3, Title: "Leaky bucket"`), strings.Index(out, `ID: "governor"`)
	if gateway < 0 || leaky < gateway || governor < leaky {
		t.Errorf("the entry is not between week 3's last exercise and week 4's first:\n%s", out)
	}

	lesson, err := os.ReadFile(filepath.Join(root, lessonFile(3)))
	if err != nil {
		t.Fatal(err)
	}
	out, err = s.addTask(string(lesson))
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"\t\t\"gateway\":     taskGateway,\n\t\t\"leakybucket\": taskLeakybucket,\n\t},", "templ taskLeakybucket() {", `@taskWhere("leakybucket")`} {
		if !strings.Contains(out, want) {
			t.Errorf("the lesson with the task lacks %q", want)
		}
	}
	if !strings.HasSuffix(out, "}\n") || !strings.HasPrefix(out, string(lesson)[:strings.Index(string(lesson), "\ttasks:")]) {
		t.Errorf("the lesson's text before the tasks, or its end, changed")
	}
}

// TestNewExerciseJoinsTheCourse adds an exercise to a copy of the module
// as an author would: labserver exercise new, then make generate. It
// touches only its own folders, the catalogue, its lesson and its replay
// entry, and make generate only the generated files; exercise check then
// names the one piece left, the replay entry, and once that is filled from
// gcra's the course is whole, the new suite's tests pass and its reference
// scores full marks.
func TestNewExerciseJoinsTheCourse(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and grades a copy of the module")
	}
	if _, err := exec.LookPath("make"); err != nil {
		t.Skip("no make: make generate is how an author goes on")
	}
	dir := t.TempDir()
	if err := modcopy.Copy(root, dir); err != nil {
		t.Fatal(err)
	}
	run := func(want int, name string, args ...string) string {
		t.Helper()
		cmd := exec.Command(name, args...)
		cmd.Dir, cmd.Env = dir, slices.DeleteFunc(modcopy.Env(), func(kv string) bool {
			// Not the make running this test's: its job server is not ours.
			return strings.HasPrefix(kv, "MAKEFLAGS=") || strings.HasPrefix(kv, "MFLAGS=") || strings.HasPrefix(kv, "MAKELEVEL=")
		})
		var stderr strings.Builder
		cmd.Stderr = &stderr
		out, err := cmd.Output()
		if code := cmd.ProcessState.ExitCode(); code != want {
			t.Fatalf("%s %s: exit %d (%v), want %d:\n%s%s", name, strings.Join(args, " "), code, err, want, out, stderr.String())
		}
		return string(out)
	}
	labserver := filepath.Join(t.TempDir(), "labserver")
	before := tree(t, dir)
	s := Spec{ID: "leakybucket", Week: 1, Title: "Leaky bucket", From: "gcra"}
	run(0, "go", "build", "-o", labserver, "./cmd/labserver")
	run(0, labserver, "exercise", "new", s.ID, "--week", "1", "--title", s.Title)
	afterNew := tree(t, dir)
	own := append(folders(s.ID), catalogueFile, lessonFile(s.Week), replayFile(s.ID))
	for _, p := range changed(before, afterNew) {
		if !slices.ContainsFunc(own, func(o string) bool { return p == o || strings.HasPrefix(p, o+string(filepath.Separator)) }) {
			t.Errorf("labserver exercise new changed %s, which is not the exercise's", p)
		}
	}

	run(0, "make", "--no-print-directory", "generate")
	generated := []string{
		filepath.Join("exercises", s.ID, s.ID+".go"), // its Grading section
		filepath.Join("grader", "suites_gen.go"),
		filepath.Join("grader", "suite", s.ID, "reference_gen.go"),
		filepath.Join("web", "page", "api_gen.go"),
		filepath.Join("web", "page", "week1_templ.go"),
		"CONTRIBUTING.md", "README.md", filepath.Join("contrib", "github-classroom", "classroom.yml"),
	}
	for _, p := range changed(afterNew, tree(t, dir)) {
		if !slices.Contains(generated, p) {
			t.Errorf("make generate changed %s, which is not a generated file", p)
		}
	}

	run(0, "go", "build", "-o", labserver, "./cmd/labserver") // with the new exercise
	out := run(1, labserver, "exercise", "check")
	if lines := strings.Split(strings.TrimSpace(out), "\n"); len(lines) != 1 || !strings.HasPrefix(lines[0], s.ID+": its replay entry is still the one labserver exercise new wrote") {
		t.Errorf("exercise check after exercise new and make generate:\n%s\nwant one thing missing, the replay entry", out)
	}
	fill := "package replay\n\nfunc init() {\n\tregister(Exercise{ID: \"leakybucket\", Build: buildGCRA, Model: modelGCRA})\n}\n"
	if err := os.WriteFile(filepath.Join(dir, replayFile(s.ID)), []byte(fill), 0o644); err != nil {
		t.Fatal(err)
	}
	run(0, "go", "build", "-o", labserver, "./cmd/labserver")
	if out := run(0, labserver, "exercise", "check"); !strings.Contains(out, "the course is whole: 11 exercises") {
		t.Errorf("exercise check with the replay written: %s", out)
	}
	run(0, "go", "vet", "./exercises/"+s.ID, "./solutions/"+s.ID, "./grader/...", "./lab/...", "./web/...")
	run(0, "go", "test", "-count=1", "./grader/suite/"+s.ID)

	// Its reference passes every check but the benchmark's, which the
	// timed tests judge alone.
	var r report.Report
	if err := json.Unmarshal([]byte(run(1, labserver, "grade", "--solutions", "--no-bench", "--json", "--exercise", s.ID)), &r); err != nil {
		t.Fatal(err)
	}
	if len(r.Exercises) != 1 || r.Exercises[0].ID != s.ID || r.Exercises[0].Title != s.Title || len(r.Exercises[0].Checks) == 0 {
		t.Fatalf("graded %+v; want the one new exercise", r.Exercises)
	}
	for _, c := range r.Exercises[0].Checks {
		if c.Status != report.Passed && (c.Status != report.Skipped || c.Kind != report.Benchmark) {
			t.Errorf("the new exercise's reference: %s %s: %s", c.ID, c.Status, c.Message)
		}
	}
}

// tree returns the hash of every file under dir, by path from dir.
func tree(t *testing.T, dir string) map[string][32]byte {
	t.Helper()
	out := map[string][32]byte{}
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(dir, p)
		out[rel] = sha256.Sum256(b)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// changed returns the files added, removed or changed from a to b, sorted.
func changed(a, b map[string][32]byte) []string {
	var out []string
	for p, h := range b {
		if g, ok := a[p]; !ok || g != h {
			out = append(out, p)
		}
	}
	for p := range a {
		if _, ok := b[p]; !ok {
			out = append(out, p)
		}
	}
	slices.Sort(out)
	return out
}
