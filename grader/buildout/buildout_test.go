package buildout

import (
	"fmt"
	"strings"
	"testing"

	"ratelab/grader/report"
)

func TestLinesDropsHeadingsAndRenames(t *testing.T) {
	out := "# ratelab/exercises/gcra\n/tmp/x/gcra/gcra.go:3:2: undefined: y\n\n/tmp/x/gcra/gcra.go:4:1: missing return\n"
	got := Lines(out, strings.NewReplacer("/tmp/x/", "").Replace, "exit status 1")
	if want := "gcra/gcra.go:3:2: undefined: y\ngcra/gcra.go:4:1: missing return"; got != want {
		t.Errorf("Lines = %q, want %q", got, want)
	}
	if got := Lines("# ratelab/exercises/gcra\n\n", nil, "exit status 1"); got != "exit status 1" {
		t.Errorf("Lines of headings alone = %q, want the fallback", got)
	}
}

func TestCapKeepsTheFirstLines(t *testing.T) {
	var b strings.Builder
	for i := range MaxLines + 5 {
		fmt.Fprintf(&b, "x.go:%d:1: e\n", i+1)
	}
	got := Cap(strings.TrimSuffix(b.String(), "\n"))
	if n := strings.Count(got, "\n"); n != MaxLines {
		t.Errorf("Cap kept %d line breaks, want %d", n, MaxLines)
	}
	if !strings.HasSuffix(got, "… (5 more lines)") || !strings.HasPrefix(got, "x.go:1:1: e\n") {
		t.Errorf("Cap = …%q, want the first lines and how many were dropped", got[len(got)-40:])
	}
	if short := "a\nb"; Cap(short) != short {
		t.Errorf("Cap changed a short message")
	}
}

func TestFault(t *testing.T) {
	for _, c := range []struct {
		lines string
		want  report.Fault
	}{
		{"tokenbucket.go:3:12: undefined: y", report.FaultCode},
		{"tokenbucket.go:3: syntax error", report.FaultCode},
		{"the exported API of gcra " + Contract + " (New …): too many arguments", report.FaultCode},
		{"", report.FaultServer},
		{"go: writing stat cache: open /tmp/c/00/x: no space left on device", report.FaultServer},
		{"fork/exec /usr/local/go/pkg/tool/compile: too many open files", report.FaultServer},
		{"signal: killed", report.FaultServer},
		{"package ratelab/exercises/gcra: no Go files", report.FaultCode},
	} {
		if got := Fault(c.lines); got != c.want {
			t.Errorf("Fault(%q) = %q, want %q", c.lines, got, c.want)
		}
	}
}
