// Package courselists writes the lists of exercises that live outside the
// course catalogue (lab/course) and the grader's suites: CONTRIBUTING.md's
// table of exercises, points and pitfalls, the README's column of each
// week's exercises, and GitHub Classroom's workflow (its EXERCISES, the
// reporter's results and runners). `make generate` rewrites them from the
// catalogue, so adding an exercise adds it to each; `labserver exercise
// check` (package coursecheck, whose test runs in make test) fails when one
// is stale.
//
// Each list is a run of lines found by what stands before it, rewritten
// in place: everything around it is prose written by hand and kept.
package courselists

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"ratelab/grader"
	"ratelab/lab/course"
)

// A list is the lines of one file that the catalogue decides.
type list struct {
	file  string // the file, from the module's root
	write func(src string) (string, error)
}

var lists = []list{
	{"CONTRIBUTING.md", contributing},
	{"README.md", readme},
	{filepath.Join("contrib", "github-classroom", "classroom.yml"), classroom},
}

// Generate returns the files of the module at root whose lists differ from
// the catalogue, by path from root, each with its lists rewritten.
func Generate(root string) (map[string][]byte, error) {
	out := map[string][]byte{}
	for _, l := range lists {
		b, err := os.ReadFile(filepath.Join(root, l.file))
		if err != nil {
			return nil, err
		}
		src := string(b)
		s, err := l.write(src)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", filepath.ToSlash(l.file), err)
		}
		if s != src {
			out[l.file] = []byte(s)
		}
	}
	return out, nil
}

// Write rewrites the files of the module at root whose lists are stale,
// and returns their paths from root.
func Write(root string) ([]string, error) {
	files, err := Generate(root)
	if err != nil {
		return nil, err
	}
	var written []string
	for _, l := range lists {
		if b, ok := files[l.file]; ok {
			if err := os.WriteFile(filepath.Join(root, l.file), b, 0o644); err != nil {
				return written, err
			}
			written = append(written, filepath.ToSlash(l.file))
		}
	}
	return written, nil
}

// contributing rewrites the rows of CONTRIBUTING.md's table of exercises,
// points and pitfalls: one a gradable exercise, in course order, its
// pitfalls in the order of its checks.
func contributing(src string) (string, error) {
	const header = "| exercise | points | pitfalls |"
	return replaceRows(src, header, func(indent string) (string, error) {
		var b strings.Builder
		for _, e := range grader.Gradable() {
			plan, err := grader.Plan(e.ID)
			if err != nil {
				return "", err
			}
			points := 0.0
			var pitfalls []string
			seen := map[string]bool{}
			for _, c := range plan {
				points += c.MaxScore
				if !seen[c.Pitfall] {
					seen[c.Pitfall] = true
					pitfalls = append(pitfalls, "`"+c.Pitfall+"`")
				}
			}
			fmt.Fprintf(&b, "%s| %s | %v | %s |\n", indent, e.ID, points, strings.Join(pitfalls, ", "))
		}
		return b.String(), nil
	})
}

// readme rewrites the exercises column of the README's table of weeks:
// each week's exercises, in course order.
func readme(src string) (string, error) {
	const header = "| week | lesson | exercises | live visualizations |"
	at := strings.Index(src, header)
	if at < 0 {
		return "", fmt.Errorf("no table headed %q", header)
	}
	lines := strings.SplitAfter(src[at:], "\n")
	for i := 2; i < len(lines) && strings.HasPrefix(lines[i], "|"); i++ {
		cells := strings.Split(lines[i], " | ")
		if len(cells) < 4 {
			return "", fmt.Errorf("row %q has fewer than four cells", strings.TrimSpace(lines[i]))
		}
		var week int
		if _, err := fmt.Sscanf(cells[0], "| %d", &week); err != nil {
			return "", fmt.Errorf("row %q does not start with its week's number", strings.TrimSpace(lines[i]))
		}
		var ids []string
		for _, e := range course.Exercises() {
			if e.Week == week {
				ids = append(ids, "`"+e.ID+"`")
			}
		}
		cells[2] = strings.Join(ids, ", ")
		lines[i] = strings.Join(cells, " | ")
	}
	return src[:at] + strings.Join(lines, ""), nil
}

// classroom rewrites the workflow's lists: EXERCISES, the reporter's
// X_RESULTS lines (one an exercise, from the grading step's outputs) and
// its runners.
func classroom(src string) (string, error) {
	var ids, results []string
	for _, e := range grader.Gradable() {
		ids = append(ids, e.ID)
		results = append(results, fmt.Sprintf("%s_RESULTS: ${{ steps.grade.outputs.%s }}", strings.ToUpper(e.ID), e.ID))
	}
	var err error
	set := func(prefix string, value string) {
		if err == nil {
			src, err = replaceLine(src, prefix, value)
		}
	}
	set("EXERCISES: ", strings.Join(ids, " "))
	set("runners: ", strings.Join(ids, ","))
	if err != nil {
		return "", err
	}
	return replaceBlock(src, "env:\n", "_RESULTS: ", results)
}

// replaceRows replaces the rows of the Markdown table whose header line is
// header (indented as it is) with those rows writes, each indented alike.
func replaceRows(src, header string, rows func(indent string) (string, error)) (string, error) {
	at := strings.Index(src, header)
	if at < 0 {
		return "", fmt.Errorf("no table headed %q", header)
	}
	lineStart := strings.LastIndexByte(src[:at], '\n') + 1
	indent := src[lineStart:at]
	// Skip the header and the separator under it.
	body := at
	for range 2 {
		nl := strings.IndexByte(src[body:], '\n')
		if nl < 0 {
			return "", fmt.Errorf("the table headed %q ends at its header", header)
		}
		body += nl + 1
	}
	end := body
	for strings.HasPrefix(src[end:], indent+"|") {
		nl := strings.IndexByte(src[end:], '\n')
		if nl < 0 {
			end = len(src)
			break
		}
		end += nl + 1
	}
	r, err := rows(indent)
	if err != nil {
		return "", err
	}
	return src[:body] + r + src[end:], nil
}

// replaceLine sets the value of the one line whose text, after its
// indentation, begins with prefix.
func replaceLine(src, prefix, value string) (string, error) {
	lines := strings.SplitAfter(src, "\n")
	found := -1
	for i, l := range lines {
		if strings.HasPrefix(strings.TrimLeft(l, " "), prefix) {
			if found >= 0 {
				return "", fmt.Errorf("two lines begin with %q", prefix)
			}
			found = i
		}
	}
	if found < 0 {
		return "", fmt.Errorf("no line begins with %q", prefix)
	}
	l := lines[found]
	indent := l[:len(l)-len(strings.TrimLeft(l, " "))]
	lines[found] = indent + prefix + value + "\n"
	return strings.Join(lines, ""), nil
}

// replaceBlock replaces the run of lines containing marker that follows the
// last line ending in opener before the first of them, each indented as
// the first was, with values.
func replaceBlock(src, opener, marker string, values []string) (string, error) {
	lines := strings.SplitAfter(src, "\n")
	first, last := -1, -1
	for i, l := range lines {
		if strings.Contains(l, marker) {
			if first < 0 {
				first = i
			} else if last != i-1 {
				return "", fmt.Errorf("the lines with %q are not one run", marker)
			}
			last = i
		}
	}
	if first < 1 || !strings.HasSuffix(lines[first-1], opener) {
		return "", fmt.Errorf("no run of lines with %q under a line ending in %q", marker, strings.TrimSpace(opener))
	}
	indent := lines[first][:len(lines[first])-len(strings.TrimLeft(lines[first], " "))]
	var b bytes.Buffer
	for _, v := range values {
		b.WriteString(indent + v + "\n")
	}
	return strings.Join(lines[:first], "") + b.String() + strings.Join(lines[last+1:], ""), nil
}
