package report

import "strings"

// Schema is the value of Report.Schema for this version of the format.
const Schema = "ratelab.grade/v1"

// Status is the outcome of an exercise or of a check.
type Status string

// Exercise statuses.
const (
	Passed     Status = "passed"      // full marks
	Failed     Status = "failed"      // graded, not full marks
	Error      Status = "error"       // does not build, or could not be run; Message says why
	NotStarted Status = "not_started" // still the stub
)

// Fault is whose fault an exercise's Error status is.
type Fault string

// Faults.
const (
	FaultCode   Fault = "code"   // the learner's code: it does not build, or it broke the grading program
	FaultServer Fault = "server" // the machine's: the toolchain or the grading program could not run
)

// NotBuilt begins the Message of an exercise whose code does not build;
// the compiler's lines follow it (they are in Compiler too).
const NotBuilt = "does not build:\n"

// Check statuses beyond Passed, Failed and Error.
const (
	Timeout Status = "timeout" // did not return in time; Message gives the deadline
	Skipped Status = "skipped" // not run (e.g. --no-bench)
)

// Statuses of a grade still in progress, which the live loop's pages show
// while a save is graded; a finished report holds none of them.
const (
	Grading   Status = "grading"   // an exercise whose checks are still running
	Pending   Status = "pending"   // a check that has not run yet
	Measuring Status = "measuring" // a benchmark being measured, and an exercise whose benchmarks are: its grade is not known until they end
)

// Kind is how a check tests: generated, fixed or timed.
type Kind string

// Check kinds.
const (
	Property  Kind = "property"  // generated inputs, shrunk counterexample
	Case      Kind = "case"      // a fixed scenario
	Benchmark Kind = "benchmark" // speed and allocations against a budget
)

// Report is the result of grading one tree (exercises/ or solutions/).
type Report struct {
	Schema    string     `json:"schema"`
	Target    string     `json:"target"`
	Seed      int64      `json:"seed"`
	Score     float64    `json:"score"`
	MaxScore  float64    `json:"max_score"`
	Exercises []Exercise `json:"exercises"`
}

// Exercise is the result for one exercise package.
type Exercise struct {
	ID       string  `json:"id"`
	Week     int     `json:"week"`
	Title    string  `json:"title"`
	Status   Status  `json:"status"`
	Score    float64 `json:"score"`
	MaxScore float64 `json:"max_score"`
	Message  string  `json:"message"`
	// Compiler, on an exercise whose code does not build, is the
	// compiler's lines, each naming the learner's file as they know it;
	// Fault, on an Error, is whose fault it is. Readers must accept
	// reports without them: reports before the fifth release lack them
	// (see CompilerLines).
	Compiler string  `json:"compiler,omitempty"`
	Fault    Fault   `json:"fault,omitempty"`
	Checks   []Check `json:"checks"`
}

// CompilerLines returns the compiler's lines when ex was not graded because
// its code does not build, and false for any other result. A report
// written before Compiler existed says so in its Message alone.
func (ex *Exercise) CompilerLines() (string, bool) {
	if ex.Status != Error {
		return "", false
	}
	if ex.Compiler != "" {
		return ex.Compiler, true
	}
	return strings.CutPrefix(ex.Message, NotBuilt)
}

// Check is the result of one check. A benchmark fills NsPerOp, AllocsPerOp
// and BudgetNs; other kinds leave them nil. RefNsPerOp is the reference
// solution's figure from the same run, shown beside the learner's.
// AllocationSites, on a benchmark that allocates over MaxAllocsPerOp, are
// the learner's lines that allocated (see AllocSite).
type Check struct {
	ID             string          `json:"id"`
	Title          string          `json:"title"`
	Kind           Kind            `json:"kind"`
	Pitfall        string          `json:"pitfall"`
	Status         Status          `json:"status"`
	Score          float64         `json:"score"`
	MaxScore       float64         `json:"max_score"`
	Message        string          `json:"message"`
	Hint           string          `json:"hint"`
	Counterexample *Counterexample `json:"counterexample"`
	NsPerOp        *float64        `json:"ns_per_op"`
	AllocsPerOp    *float64        `json:"allocs_per_op"`
	BudgetNs       *float64        `json:"budget_ns"`
	RefNsPerOp     *float64        `json:"ref_ns_per_op,omitempty"`
	// AllocationSites is optional: older reports lack it, and a benchmark
	// within its allocation budget leaves it out.
	AllocationSites []AllocSite `json:"allocation_sites,omitempty"`
	// Diagnosis, on a failed check whose suite has error models, is
	// Reproduced or Unnamed (see those). Readers must accept reports
	// without it: reports before the third release lack it.
	Diagnosis Diagnosis `json:"diagnosis,omitempty"`
	// Mistakes names the mistakes whose models gave every answer of the
	// counterexample shown: on a failed check, the mistake it is charged
	// for; on a check that passed with a counterexample, the mistake its
	// failure belongs to (charged under another pitfall). Optional.
	Mistakes []string `json:"mistakes,omitempty"`
}

// AllocSite is a line of the learner's code that allocated in a
// benchmark's loop, found by a heap profile of one extra run of the loop
// (every allocation recorded) in the grading child: the allocation is
// charged to the innermost frame of its stack in the learner's package.
// The profile is read in the process that runs the learner's code, so the
// sites are advice for finding the allocation, never part of the verdict.
type AllocSite struct {
	File    string  `json:"file"` // the file's base name: "fairqueue.go"
	Line    int     `json:"line"`
	PerCall float64 `json:"per_call"` // allocations there per call of the loop
	// Kind is what allocated, from the function the line called: "append",
	// "make", "map", "new object", "closure", "interface conversion",
	// "string concatenation", "string conversion", "channel",
	// "goroutine"; empty when the line called something else that
	// allocated (fmt.Sprint).
	Kind string `json:"kind,omitempty"`
}

// MaxAllocsPerOp is the most heap allocations per call a benchmark check
// passes with (AllocsPerOp): one per 100 calls, amortised growth (see
// check.MaxAllocsPerOp for why).
const MaxAllocsPerOp = 0.01

// Diagnosis says whether a known mistake explains a failed check's
// counterexample.
type Diagnosis string

const (
	// Reproduced: the grader's model with the check's mistake gives every
	// answer the code gave on the counterexample.
	Reproduced Diagnosis = "reproduced"
	// Unnamed: no mistake the course names explains it (the check is
	// exactness).
	Unnamed Diagnosis = "unnamed"
)

// Counterexample is the shortest failing sequence the shrinker found:
// Setup, then Steps, ending on the step whose Got differs from Want. It is
// replayable by hand (Setup and each step's Call, as Go) and by a program
// (SetupCall and each step's Name and Args), which readers must not assume
// are there: reports from before they existed lack them.
type Counterexample struct {
	Setup     string `json:"setup"`
	SetupCall *Call  `json:"setup_call,omitempty"`
	Steps     []Step `json:"steps"`
}

// Call is a call as data: the function or method and its arguments by
// name. Every integer is a decimal string, so that nothing is lost above
// 2^53 in JavaScript; floats and booleans are JSON values; anything else
// (a struct literal, a function) is its Go text.
type Call struct {
	Name string         `json:"name"`
	Args map[string]any `json:"args"`
}

// Step is one call of a counterexample with what it returned and what the
// model says it should have returned. Name and Args are Call as data.
type Step struct {
	Call string         `json:"call"`
	Got  string         `json:"got"`
	Want string         `json:"want"`
	Name string         `json:"name,omitempty"`
	Args map[string]any `json:"args,omitempty"`
}

// Total sets r.Score and r.MaxScore to the sums over its exercises.
func (r *Report) Total() {
	r.Score, r.MaxScore = 0, 0
	for _, e := range r.Exercises {
		r.Score += e.Score
		r.MaxScore += e.MaxScore
	}
}

// Total sets e.Score and e.MaxScore to the sums over its checks.
func (e *Exercise) Total() {
	e.Score, e.MaxScore = 0, 0
	for _, c := range e.Checks {
		e.Score += c.Score
		e.MaxScore += c.MaxScore
	}
}

// Graded is the status of an exercise its checks graded: Passed with full
// marks, Failed otherwise.
func (e *Exercise) Graded() Status {
	if e.Score == e.MaxScore {
		return Passed
	}
	return Failed
}

// Find returns the exercise with the given id, or nil.
func (r *Report) Find(id string) *Exercise {
	for i := range r.Exercises {
		if r.Exercises[i].ID == id {
			return &r.Exercises[i]
		}
	}
	return nil
}
