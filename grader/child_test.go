package grader

import (
	"strings"
	"testing"
)

func TestExcerptKeepsTheStartAndTheEnd(t *testing.T) {
	e := &excerpt{max: 40} // 10 bytes of head, 30 of tail
	e.Write([]byte("fatal error: out of memory\n"))
	e.Write([]byte(strings.Repeat("x", 100)))
	e.Write([]byte("last line"))
	got := e.String()
	if !strings.HasPrefix(got, "fatal erro") || !strings.HasSuffix(got, "last line") || !strings.Contains(got, "…") {
		t.Errorf("excerpt = %q; want the first bytes, an ellipsis, and the last bytes", got)
	}
	if len(got) > 40+len("\n…\n") {
		t.Errorf("excerpt is %d bytes, want at most 40 plus the ellipsis", len(got))
	}
	short := &excerpt{max: 40}
	short.Write([]byte("panic: boom"))
	if got := short.String(); got != "panic: boom" {
		t.Errorf("short excerpt = %q, want it whole", got)
	}
}
