package mutate

import (
	"os"
	"strings"
	"testing"
)

func TestParseListings(t *testing.T) {
	in := `# a comment

tokenbucket tokenbucket.go:65:10 INVERT_BITWISE  carry and borrow are never both set
gcra gcra.go:80:9 REMOVE_SELF_ASSIGNMENTS ahead is 0 here
`
	ls, err := ParseListings(strings.NewReader(in))
	if err != nil {
		t.Fatal(err)
	}
	if len(ls) != 2 {
		t.Fatalf("ParseListings = %+v, want 2 listings", ls)
	}
	want := Listing{Exercise: "tokenbucket", Pos: "tokenbucket.go:65:10", Operator: InvertBitwise, Reason: "carry and borrow are never both set", Line: 3}
	if ls[0] != want {
		t.Errorf("ParseListings first = %+v, want %+v", ls[0], want)
	}
	for _, bad := range []string{
		"tokenbucket tokenbucket.go:65:10 INVERT_BITWISE",              // no reason
		"tokenbucket tokenbucket.go:65 INVERT_BITWISE why",             // no column
		"tokenbucket tokenbucket.go:65:10 FLIP_EVERYTHING why",         // no such operator
		"x a.go:1:1 INVERT_BITWISE why\nx a.go:1:1 INVERT_BITWISE why", // twice
	} {
		if _, err := ParseListings(strings.NewReader(bad)); err == nil {
			t.Errorf("ParseListings(%q): no error", bad)
		}
	}
}

// TestEquivalentList: the committed list parses.
func TestEquivalentList(t *testing.T) {
	f, err := os.Open("equivalent.txt")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if _, err := ParseListings(f); err != nil {
		t.Errorf("equivalent.txt: %v", err)
	}
}
