// Package scaffold adds a new exercise to the course: `labserver exercise
// new`. The new exercise starts as a renamed copy of an existing one (its
// stub, its reference, its grader suite and the grading child's adapter,
// its fixtures), so that it builds and grades from its first minute and
// the author reshapes it piece by piece, graded all along; each copied Go
// file opens with a TODO line saying so. Outside its own folders it adds
// one entry to the catalogue
// (lab/course), its task to its week's lesson (web/page/weekN.templ) and a
// replay entry still to write (lab/replay/<id>.go), which `labserver
// exercise check`, and so `make test`, reports until it is written (the
// one piece no copy can give: it drives the lab's own Reference and
// Yours). `make generate` then writes
// the rest: the grader's list of suites, the suite's reference adapter
// (from the copied adapter: a generated file is not copied), the exercise
// page's API block, the stub's Grading section and the lists of exercises
// in the docs.
package scaffold

import (
	"bytes"
	"embed"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"text/template"

	"ratelab/lab/course"
)

// Spec is the exercise to add.
type Spec struct {
	ID    string // its id: the package name and the folders' name, e.g. "leakybucket"
	Week  int    // the week whose lesson introduces it
	Title string // e.g. "Leaky bucket"
	From  string // the exercise it starts as a copy of, e.g. "gcra"
}

// id is what an exercise id must be: a Go package name that is also a
// folder's and a URL's.
var id = regexp.MustCompile(`^[a-z][a-z0-9]*$`)

// ownFolders are an exercise's own folders, from the module's root, each
// holding <id> in place of the exercise's id.
var ownFolders = []string{
	"exercises/<id>",
	"solutions/<id>",
	"grader/suite/<id>",
	"grader/adapter/<id>",
	"grader/testdata/fixtures/<id>",
}

// folder returns folder f of ownFolders for exercise id, as a path from the
// module's root.
func folder(f, id string) string { return filepath.FromSlash(strings.ReplaceAll(f, "<id>", id)) }

// replayFile returns the file of exercise id's replay entry.
func replayFile(id string) string { return filepath.Join("lab", "replay", id+".go") }

// lessonFile returns the templ file of week's lesson.
func lessonFile(week int) string {
	return filepath.Join("web", "page", "week"+strconv.Itoa(week)+".templ")
}

// catalogueFile is the course catalogue's source.
var catalogueFile = filepath.Join("lab", "course", "course.go")

// New adds the exercise s to the module at root and returns the files
// and folders it wrote, from root. It refuses an id already taken, a week
// with no lesson and a source exercise that does not exist, and writes
// nothing then.
func New(root string, s Spec) ([]string, error) {
	if err := s.valid(root); err != nil {
		return nil, err
	}
	var wrote []string
	for _, f := range ownFolders {
		from, to := folder(f, s.From), folder(f, s.ID)
		if err := copyRenamed(filepath.Join(root, from), filepath.Join(root, to), s, !strings.Contains(f, "testdata")); err != nil {
			return wrote, err
		}
		wrote = append(wrote, filepath.ToSlash(to)+"/")
	}
	edits := []struct {
		file string
		edit func(string) (string, error)
	}{
		{catalogueFile, s.addToCatalogue},
		{lessonFile(s.Week), s.addTask},
	}
	for _, e := range edits {
		p := filepath.Join(root, e.file)
		b, err := os.ReadFile(p)
		if err != nil {
			return wrote, err
		}
		out, err := e.edit(string(b))
		if err != nil {
			return wrote, fmt.Errorf("%s: %w", filepath.ToSlash(e.file), err)
		}
		if err := os.WriteFile(p, []byte(out), 0o644); err != nil {
			return wrote, err
		}
		wrote = append(wrote, filepath.ToSlash(e.file))
	}
	replay, err := s.fill("replay.go.tmpl")
	if err != nil {
		return wrote, err
	}
	if err := os.WriteFile(filepath.Join(root, replayFile(s.ID)), []byte(replay), 0o644); err != nil {
		return wrote, err
	}
	return append(wrote, filepath.ToSlash(replayFile(s.ID))), nil
}

// valid says what keeps s from being added to the module at root.
func (s Spec) valid(root string) error {
	if !id.MatchString(s.ID) {
		return fmt.Errorf("%q cannot be an exercise's id: lower-case letters and digits, starting with a letter (it is its package's name)", s.ID)
	}
	if strings.TrimSpace(s.Title) == "" || strings.ContainsAny(s.Title, "\"\\\n<>{}") {
		return fmt.Errorf("the title %q must be a few words, without quotes, backslashes or braces", s.Title)
	}
	if _, ok := course.Lookup(s.ID); ok {
		return fmt.Errorf("the course already has an exercise %s", s.ID)
	}
	if s.ID == s.From {
		return fmt.Errorf("%s cannot start as a copy of itself", s.ID)
	}
	if _, ok := course.Lookup(s.From); !ok {
		return fmt.Errorf("the course has no exercise %q to start from (labserver exercise new --from NAME, one of the catalogue's)", s.From)
	}
	if _, ok := course.LessonOf(course.Exercise{Week: s.Week}); !ok {
		return fmt.Errorf("the course has no week %d: add its lesson first (see CONTRIBUTING.md)", s.Week)
	}
	for _, p := range append(folders(s.ID), replayFile(s.ID)) {
		if _, err := os.Stat(filepath.Join(root, p)); !errors.Is(err, fs.ErrNotExist) {
			return fmt.Errorf("%s is there already: an exercise %s was begun; remove it or choose another id", filepath.ToSlash(p), s.ID)
		}
	}
	return nil
}

// folders returns exercise id's own folders.
func folders(id string) []string {
	var out []string
	for _, f := range ownFolders {
		out = append(out, folder(f, id))
	}
	return out
}

// copyRenamed copies the folder from to to, each file named, and each Go
// and JSON file written, with the word s.From (the source's id, in package
// clauses, import paths, strings and prose) turned into s.ID. With todo,
// each Go file opens with a line saying whence it came; fixtures are
// copied line for line (their expectations name lines of their code).
func copyRenamed(from, to string, s Spec, todo bool) error {
	word := regexp.MustCompile(`\b` + regexp.QuoteMeta(s.From) + `(_test\b|\b)`) // package gcra_test too
	return filepath.WalkDir(from, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(from, p)
		dst := filepath.Join(to, word.ReplaceAllString(rel, s.ID+"$1"))
		if d.IsDir() {
			return os.MkdirAll(dst, 0o755)
		}
		if strings.HasSuffix(p, "_gen.go") {
			return nil // make generate writes it, from what is copied
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		switch filepath.Ext(p) {
		case ".go", ".json":
			b = word.ReplaceAll(b, []byte(s.ID+"$1"))
		}
		if todo && filepath.Ext(p) == ".go" {
			b = append([]byte(fmt.Sprintf("// TODO(exercise new): copied from %s's %s; rewrite it for %s.\n\n", s.From, filepath.Base(p), s.ID)), b...)
		}
		return os.WriteFile(dst, b, 0o644)
	})
}

// catalogueEntry matches an exercise's entry in the catalogue's source,
// from its opening brace's line to its closing one's.
var catalogueEntry = regexp.MustCompile(`(?m)^\t\{\n\t\tID: "[a-z0-9]+", Week: ([0-9]+),[^\n]*\n(?:\t\t[^\n]*\n)*\t\},\n`)

// addToCatalogue adds s's entry to the catalogue's source, after the last
// exercise of its week or of a week before it.
func (s Spec) addToCatalogue(src string) (string, error) {
	start := strings.Index(src, "var exercises = []Exercise{\n")
	if start < 0 {
		return "", errors.New("no `var exercises = []Exercise{` to add the exercise to")
	}
	list := start + len("var exercises = []Exercise{\n")
	at := 0 // from list: the end of the last entry of s.Week or before
	for _, m := range catalogueEntry.FindAllStringSubmatchIndex(src[list:], -1) {
		if m[0] != at {
			break // past the list's last entry, or a week after s.Week's
		}
		if week, _ := strconv.Atoi(src[list+m[2] : list+m[3]]); week > s.Week {
			break
		}
		at = m[1]
	}
	at += list
	entry, err := s.fill("entry.go.tmpl")
	if err != nil {
		return "", err
	}
	return src[:at] + entry + src[at:], nil
}

// addTask adds s's task to its week's lesson: its line in the page's
// tasks (aligned as gofmt aligns the generated Go) and its component, at
// the end of the file.
func (s Spec) addTask(src string) (string, error) {
	const open = "\ttasks: map[string]func() templ.Component{\n"
	start := strings.Index(src, open)
	if start < 0 {
		return "", errors.New("no `tasks: map[string]func() templ.Component{` to add the task to")
	}
	body := start + len(open)
	end := strings.Index(src[body:], "\t},\n")
	if end < 0 {
		return "", errors.New("the tasks map does not end")
	}
	end += body
	name := s.taskName()
	keys := [][2]string{}
	for _, l := range strings.Split(strings.TrimSuffix(src[body:end], "\n"), "\n") {
		k, v, ok := strings.Cut(strings.TrimSpace(l), ":")
		if !ok {
			return "", fmt.Errorf("the tasks map's line %q is not key: value", l)
		}
		keys = append(keys, [2]string{k + ":", strings.TrimSpace(v)})
	}
	keys = append(keys, [2]string{strconv.Quote(s.ID) + ":", name + ","})
	width := 0
	for _, k := range keys {
		width = max(width, len(k[0]))
	}
	var b bytes.Buffer
	for _, k := range keys {
		fmt.Fprintf(&b, "\t\t%-*s %s\n", width, k[0], k[1])
	}
	task, err := s.fill("task.templ.tmpl")
	if err != nil {
		return "", err
	}
	return src[:body] + b.String() + src[end:] + task, nil
}

// taskName is the name of the lesson's component for s's task.
func (s Spec) taskName() string { return "task" + strings.ToUpper(s.ID[:1]) + s.ID[1:] }

// templates are the text scaffold writes outside the copied folders: the
// catalogue's entry (entry.go.tmpl), the lesson's task (task.templ.tmpl)
// and the replay entry (replay.go.tmpl), each filled from a Spec; the
// test compiles and vets what they make.
//
//go:embed template
var templates embed.FS

// fill returns the template name filled from s.
func (s Spec) fill(name string) (string, error) {
	t, err := template.ParseFS(templates, "template/"+name)
	if err != nil {
		return "", err
	}
	var b strings.Builder
	err = t.Execute(&b, struct {
		Spec
		TaskName string
	}{s, s.taskName()})
	return b.String(), err
}
