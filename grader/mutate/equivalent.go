package mutate

import (
	"bufio"
	"fmt"
	"io"
	"regexp"
	"slices"
	"strings"
)

// Listing is one line of the equivalence list (equivalent.txt): a mutant
// said to behave as the reference does, and why.
type Listing struct {
	Exercise string
	Pos      string // file:line:col, as Mutant.Pos
	Operator Operator
	Reason   string
	Line     int // its line in the list
}

// Key is what a Listing and a mutant are matched by.
func (l Listing) Key() string { return l.Exercise + " " + l.Pos + " " + string(l.Operator) }

// posPattern is a listing's position: file.go:line:col.
var posPattern = regexp.MustCompile(`^[^\s:]+\.go:\d+:\d+$`)

// ParseListings reads an equivalence list: one mutant a line, as
//
//	exercise file.go:line:col OPERATOR reason…
//
// (fields separated by white space, the reason the rest of the line, not
// empty); blank lines and lines starting with # are comments. A mutant
// listed twice, an unknown operator or a line without a reason is an
// error.
func ParseListings(r io.Reader) ([]Listing, error) {
	var out []Listing
	seen := map[string]int{}
	sc := bufio.NewScanner(r)
	for n := 1; sc.Scan(); n++ {
		line := strings.TrimSpace(sc.Text())
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		f := strings.Fields(line)
		if len(f) < 4 {
			return nil, fmt.Errorf("line %d: want exercise, file.go:line:col, operator and a reason", n)
		}
		l := Listing{Exercise: f[0], Pos: f[1], Operator: Operator(f[2]), Line: n}
		l.Reason = strings.TrimSpace(line[strings.Index(line, f[2])+len(f[2]):])
		if !posPattern.MatchString(l.Pos) {
			return nil, fmt.Errorf("line %d: position %q: want file.go:line:col", n, l.Pos)
		}
		if !slices.Contains(Operators, l.Operator) {
			return nil, fmt.Errorf("line %d: unknown operator %q", n, l.Operator)
		}
		if prev, ok := seen[l.Key()]; ok {
			return nil, fmt.Errorf("line %d: %s is listed on line %d already", n, l.Key(), prev)
		}
		seen[l.Key()] = n
		out = append(out, l)
	}
	return out, sc.Err()
}
