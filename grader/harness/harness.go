package harness

import (
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"os"
	"testing"

	"ratelab/grader/check"
	"ratelab/grader/report"
)

// Main runs the child: flag -exercise names the suite, -seed the property
// seed, -from the index of the first check to run, -no-bench skips the
// benchmarks. It exits 0 once every check ran, 2 on bad flags.
func Main(suites ...func() check.Suite) {
	testing.Init() // testing.Benchmark reads the test.* flags
	fs := flag.NewFlagSet("child", flag.ExitOnError)
	exercise := fs.String("exercise", "", "the exercise to grade")
	seed := fs.Int64("seed", 1, "property seed")
	from := fs.Int("from", 0, "index of the first check to run")
	noBench := fs.Bool("no-bench", false, "skip benchmark checks")
	benchTime := fs.String("benchtime", "100ms", "time per benchmark run")
	authFD := fs.Int("auth-fd", 0, "read the per-run secret from this file descriptor and sign every protocol line with it")
	fs.Parse(os.Args[1:])
	// The secret is read, and its descriptor closed, before any check runs.
	var key []byte
	if *authFD > 0 {
		key = readKey(*authFD)
	}
	if err := flag.Set("test.benchtime", *benchTime); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(2)
	}
	limitResources()

	f := os.NewFile(ProtocolFD, "protocol")
	if f == nil {
		fmt.Fprintln(os.Stderr, "child: no protocol pipe on fd 3; this program is started by labserver grade")
		os.Exit(2)
	}
	var out io.Writer = f
	if key != nil {
		out = &signer{w: f, key: key}
	}
	for _, mk := range suites {
		s := mk()
		if s.Exercise == *exercise {
			Run(out, s, *seed, *from, *noBench)
			return
		}
	}
	fmt.Fprintf(os.Stderr, "child: no suite for exercise %q\n", *exercise)
	os.Exit(2)
}

// readKey reads the per-run secret from fd and closes it. Without a whole
// secret the child cannot prove its results, so it stops.
func readKey(fd int) []byte {
	f := os.NewFile(uintptr(fd), "auth")
	if f == nil {
		fmt.Fprintf(os.Stderr, "child: no secret on fd %d\n", fd)
		os.Exit(2)
	}
	key := make([]byte, KeySize)
	_, err := io.ReadFull(f, key)
	f.Close()
	if err != nil {
		fmt.Fprintf(os.Stderr, "child: reading the secret on fd %d: %v\n", fd, err)
		os.Exit(2)
	}
	return key
}

// Run writes the plan of s, then either NotStarted or the results of its
// checks from index from on, then Done.
func Run(w io.Writer, s check.Suite, seed int64, from int, noBench bool) {
	enc := json.NewEncoder(w)
	emit := func(e Event) {
		if err := enc.Encode(e); err != nil {
			os.Exit(3) // the grader went away
		}
	}
	plan := make([]report.Check, len(s.Checks))
	for i, c := range s.Checks {
		plan[i] = c.Result(check.Outcome{Status: report.Skipped})
	}
	emit(Event{Plan: plan})
	if from == 0 && s.NotStarted != nil && s.NotStarted() {
		emit(Event{NotStarted: true})
		return
	}
	for i := from; i < len(s.Checks); i++ {
		c := s.Checks[i]
		emit(Event{Start: c.ID})
		var o check.Outcome
		if noBench && c.Kind == report.Benchmark {
			o = check.Outcome{Status: report.Skipped, Message: "benchmarks were skipped (--no-bench)."}
		} else {
			o = runOne(c, seed)
		}
		r := c.Result(o)
		emit(Event{Result: &r})
	}
	emit(Event{Done: true})
}

// runOne runs c, turning a panic that escaped the check's own guards (a
// bug in a suite, or learner code called outside check.Call) into an error.
func runOne(c check.Check, seed int64) (o check.Outcome) {
	defer func() {
		if r := recover(); r != nil {
			o = check.Outcome{Status: report.Error, Message: fmt.Sprintf("the check panicked: %v", r)}
		}
	}()
	return c.Run(seed)
}
