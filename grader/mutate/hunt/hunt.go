// Package hunt is the program side of mutate's equivalence check: a
// program built from one mutant of an exercise (by mutate, with go build
// -overlay) calls Main, which replays scripts drawn by the suite's own
// properties on the mutant, in this process, until one differs from the
// suite's model or enough have agreed, and prints what it found as one
// line of JSON (Result).
//
// It is not the grader: nothing here is trusted to judge learners' code,
// and the mutants it runs are the course's own references, changed in one
// place.
package hunt

import (
	"encoding/json"
	"flag"
	"fmt"
	"math/rand"
	"os"
	"reflect"
	"slices"
	"sync/atomic"
	"time"

	"ratelab/grader/check"
)

// Result is what a hunt found: the last line a hunt program prints.
type Result struct {
	Scripts   int    `json:"scripts"`   // scripts replayed on the mutant
	Discarded int    `json:"discarded"` // scripts drawn that their property's rules refused
	Killed    bool   `json:"killed"`    // a script's answers differ from the model's
	Check     string `json:"check"`     // the property whose script killed it
	Script    int    `json:"script"`    // its number in the hunt (0-based)
	Setup     string `json:"setup"`     // the killing script's setup
	Call      string `json:"call"`      // its call whose answer differs
	Got       string `json:"got"`       // the mutant's answer to it
	Want      string `json:"want"`      // the model's
	Steps     int    `json:"steps"`     // the calls up to and including it
	// Hung: the killing script did not finish within the watchdog's time
	// (an endless loop); Call is then the script as Go syntax.
	Hung bool `json:"hung"`
	// Crashed: the program ended without a result (the mutant crashed it);
	// Got is its exit status and the end of its standard error. The
	// parent sets it: a crashed program says nothing.
	Crashed bool `json:"crashed,omitempty"`
	// RefFails counts the scripts the mutant failed that the reference
	// fails too: the suite's model and the reference disagree on them (a
	// bug in the suite), so they kill nothing. RefFailure is the first.
	RefFails   int    `json:"ref_fails"`
	RefFailure string `json:"ref_failure,omitempty"`
	Error      string `json:"error,omitempty"` // the hunt could not run
}

// Main runs the hunt on impl, the mutant's implementation of p's API (a
// value whose type converts to I: the adapter's function literal or
// struct), and exits. Flags: -scripts (how many to replay, default
// 1,000,000), -seed, -watchdog (how long one script may take).
func Main[I, D, S, O any](p check.Parts[I, D, S, O], impl any) {
	fs := flag.NewFlagSet("hunt", flag.ExitOnError)
	scripts := fs.Int("scripts", 1_000_000, "scripts to replay")
	seed := fs.Int64("seed", 1, "the first seed")
	watchdog := fs.Duration("watchdog", 30*time.Second, "how long one script may run before the mutant counts as hung")
	fs.Parse(os.Args[1:])
	r := Hunt(p, convert[I](impl), *scripts, *seed, *watchdog)
	b, _ := json.Marshal(r)
	fmt.Println(string(b))
}

// convert turns v into an I: the adapter hands over a function literal
// whose type is I's underlying type.
func convert[I any](v any) I {
	if i, ok := v.(I); ok {
		return i
	}
	return reflect.ValueOf(v).Convert(reflect.TypeFor[I]()).Interface().(I)
}

// Hunt replays n scripts drawn by p's properties on impl, taking the
// properties in turn (by name), each with its own random source seeded
// from seed, at sizes from 0 to 99 as gopter draws them. It stops at the
// first script whose trace is bad (a wrong answer or a panic) on which the
// reference, p.Ref, if it has one, is right. A script that runs longer
// than watchdog ends the program with a Result that says Hung.
func Hunt[I, D, S, O any](p check.Parts[I, D, S, O], impl I, n int, seed int64, watchdog time.Duration) Result {
	names := make([]string, 0, len(p.Domains))
	for name := range p.Domains {
		names = append(names, name)
	}
	slices.Sort(names)
	if len(names) == 0 {
		return Result{Error: "the suite has no properties"}
	}
	type prop struct {
		name   string
		q, ref check.Property[S, O]
		rng    *rand.Rand
	}
	hasRef := !reflect.ValueOf(&p.Ref).Elem().IsZero()
	props := make([]prop, len(names))
	for i, name := range names {
		props[i] = prop{name: name, q: p.Property(p.Domains[name], impl), rng: rand.New(rand.NewSource(seed + int64(i)*1_000_003))}
		if hasRef {
			props[i].ref = p.Property(p.Domains[name], p.Ref)
		}
	}

	var res Result
	var done atomic.Int64         // scripts drawn, discarded ones too
	var replayed atomic.Int64     // scripts whose replay began
	var current atomic.Value      // the script being replayed (an any)
	var currentCheck atomic.Value // its property's name
	stop := make(chan struct{})
	defer close(stop)
	go func() {
		last, since := int64(-1), time.Now()
		t := time.NewTicker(watchdog / 10)
		defer t.Stop()
		for {
			select {
			case <-stop:
				return
			case <-t.C:
			}
			if d := done.Load(); d != last {
				last, since = d, time.Now()
				continue
			}
			if time.Since(since) < watchdog {
				continue
			}
			r := Result{Scripts: int(replayed.Load()), Killed: true, Hung: true}
			r.Check, _ = currentCheck.Load().(string)
			r.Script = r.Scripts - 1
			r.Call = fmt.Sprintf("%#v", current.Load())
			b, _ := json.Marshal(r)
			fmt.Println(string(b))
			os.Exit(0)
		}
	}()

	for i := 0; res.Scripts < n; i++ {
		pr := &props[i%len(props)]
		size := (i / len(props)) % 100
		s := pr.q.Gen(pr.rng, size)
		if pr.q.Valid != nil && !pr.q.Valid(s) {
			res.Discarded++
			done.Add(1)
			if res.Discarded > 10*n+1000 {
				res.Error = fmt.Sprintf("%s: its rules refused %d scripts of %d drawn", pr.name, res.Discarded, res.Discarded+res.Scripts)
				return res
			}
			continue
		}
		current.Store(any(s))
		currentCheck.Store(pr.name)
		replayed.Add(1)
		t := pr.q.Replay(s)
		res.Scripts++
		done.Add(1)
		if !t.Bad {
			continue
		}
		k := Result{Killed: true, Check: pr.name, Script: res.Scripts - 1, Setup: t.Setup, Steps: len(t.Steps)}
		if last := t.Last(); last >= 0 {
			st := t.Steps[last]
			k.Call, k.Got, k.Want = st.Call, st.Got, st.Want
		} else if t.Panic != nil {
			k.Call, k.Got = t.Setup, "panic: "+t.Panic.Error()
		}
		if hasRef && pr.ref.Replay(s).Bad {
			if res.RefFails++; res.RefFailure == "" {
				res.RefFailure = fmt.Sprintf("%s: %s … %s = %s; the model wants %s", k.Check, k.Setup, k.Call, k.Got, k.Want)
			}
			continue
		}
		k.Scripts, k.Discarded, k.RefFails, k.RefFailure = res.Scripts, res.Discarded, res.RefFails, res.RefFailure
		return k
	}
	return res
}
