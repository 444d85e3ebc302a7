package check

import (
	"strings"
	"testing"

	"ratelab/grader/report"
)

// aimedTally is a tally domain that names its check, as a suite's
// domains do by embedding Aim.
type aimedTally struct {
	Aim[uint64, uint64]
	tallyDomain
}

func TestAimPropertyExplains(t *testing.T) {
	base := Property[uint64, uint64]{Explain: func(_ Script[uint64, uint64], _ Trace, why string) string { return "suite: " + why }}
	own := func(_ Script[uint64, uint64], _ Trace, why string) string { return "own: " + why }
	for _, c := range []struct {
		name   string
		aim    Aim[uint64, uint64]
		prefix string
	}{
		{"suite's explanation", Aim[uint64, uint64]{Check: "sum"}, "suite: "},
		{"own explanation", Aim[uint64, uint64]{Check: "sum", Explain: own}, "own: "},
	} {
		t.Run(c.name, func(t *testing.T) {
			d := aimedTally{Aim: c.aim}
			o := d.Property(d, base, tallyReplay).Run(1, "why")
			if o.Status != report.Failed {
				t.Fatalf("status %s, want failed (%s)", o.Status, o.Message)
			}
			if !strings.HasSuffix(o.Message, c.prefix+"why") {
				t.Errorf("message %q, want it to end in %q", o.Message, c.prefix+"why")
			}
		})
	}
}

func TestByNameNamesDomainsByTheirCheck(t *testing.T) {
	a := aimedTally{Aim: Aim[uint64, uint64]{Check: "a"}}
	b := aimedTally{Aim: Aim[uint64, uint64]{Check: "b"}, tallyDomain: tallyDomain{even: true}}
	got := ByName(a, b)
	if len(got) != 2 || got["a"].Check != "a" || got["b"].Check != "b" || !got["b"].even {
		t.Errorf("ByName(a, b) = %+v, want a and b by their names", got)
	}
	for _, bad := range [][]aimedTally{{a, a}, {{}}} {
		func() {
			defer func() {
				if recover() == nil {
					t.Errorf("ByName(%+v) did not panic", bad)
				}
			}()
			ByName(bad...)
		}()
	}
}

// stub is an implementation whose methods panic like an untouched stub's
// while started is false, and answer once it is true.
type stub struct{ started bool }

func (s *stub) Do() {
	if !s.started {
		panic(NotImplemented)
	}
}

func TestUntouchedTellsTheStubApart(t *testing.T) {
	calls := 0
	do := func(s *stub) { calls++; s.Do() }
	for _, c := range []struct {
		name  string
		build func() *stub
		want  bool
	}{
		{"stub", func() *stub { return &stub{} }, true},
		{"started", func() *stub { return &stub{started: true} }, false},
		{"constructor is the stub", func() *stub { panic(NotImplemented) }, true},
		{"constructor crashes", func() *stub { panic("index out of range") }, false},
		{"constructor returns nil", func() *stub { return nil }, false},
	} {
		t.Run(c.name, func(t *testing.T) {
			if got := Untouched(c.build, do, do); got != c.want {
				t.Errorf("Untouched = %t, want %t", got, c.want)
			}
		})
	}
	calls = 0
	Untouched(func() *stub { return &stub{started: true} }, do, do, do)
	if calls != 3 {
		t.Errorf("Untouched made %d calls of 3", calls)
	}
	if Stubbed(func() { panic(NotImplemented) }, func() {}) {
		t.Error("Stubbed = true with a call that answers")
	}
}
