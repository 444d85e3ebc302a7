package class

import (
	"context"
	"encoding/csv"
	"io"
	"maps"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync"
	"unicode/utf8"

	"ratelab/grader"
	"ratelab/grader/report"
	"ratelab/internal/class/cell"
	"ratelab/internal/store"
	"ratelab/lab/course"
)

// Cell is one learner's standing on one exercise.
type Cell struct {
	Graded       bool           `json:"graded"`        // some grading of theirs finished with a result
	Best         float64        `json:"best"`          // best score over every grading
	Latest       float64        `json:"latest"`        // score of the latest graded submission
	Max          float64        `json:"max"`           // the exercise's maximum
	LatestStatus report.Status  `json:"latest_status"` // report status of that grading
	LatestJob    int64          `json:"latest_job"`
	Submission   int64          `json:"submission"` // the latest submission (graded or not)
	State        store.JobState `json:"state"`      // its latest job's state
	// Text and Note are the cell's words (package cell), filled in the
	// events the dashboard receives: web/static/class.js shows them as
	// they come, and writes no words of its own.
	Text string `json:"text,omitempty"`
	Note string `json:"note,omitempty"`
}

// Standing is the cell as the dashboard words it (package cell).
func (c Cell) Standing() cell.Standing {
	return cell.Standing{Graded: c.Graded, Best: c.Best, Latest: c.Latest, Max: c.Max, State: c.State}
}

// worded returns a copy of c with its Text and Note, for an event.
func worded(c Cell) *Cell {
	s := c.Standing()
	c.Text, c.Note = s.Text(), s.Note()
	return &c
}

// PitfallCount is how many learners' latest graded result fails a check
// of that pitfall.
type PitfallCount struct {
	Pitfall  string `json:"pitfall"`
	Learners int    `json:"learners"`
}

// Gradebook is the class at a glance.
type Gradebook struct {
	Exercises []course.Exercise
	Learners  []string                   // every learner of the roster, by name
	Cells     map[string]map[string]Cell // learner → exercise → cell
	Graded    map[string]int             // exercise → learners with a graded result
	Pitfalls  map[string][]PitfallCount  // exercise → most hit first
	// Counts are the scores that count under the due dates (see Count):
	// learner → exercise; nil while no due date is set.
	Counts map[string]map[string]Count
}

// Cell returns a learner's cell for an exercise (the zero Cell if none).
func (g *Gradebook) Cell(learner, exercise string) Cell {
	return g.Cells[learner][exercise]
}

// book is the class's gradebook, kept up to date as gradings finish: a
// finished grading updates one cell and one exercise's pitfall counts,
// instead of reading every latest result again. It is built from the store
// on first use, and again after a regrade (invalidate).
type book struct {
	mu     sync.Mutex
	gb     *Gradebook                     // nil: build on next use
	latest map[cellKey]int64              // the latest graded submission of each cell
	hits   map[string]map[string][]string // exercise → learner → pitfalls their latest graded result fails
}

type cellKey struct{ learner, exercise string }

func (b *book) invalidate() {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.gb = nil
}

// changed records that sub's grading is queued or running (state) in the
// gradebook and returns sub's cell, worded for the dashboard's event. Only
// the state changes: the scores change when a result is stored whole
// (finished), so a cell keeps its standing score while it is graded again.
// A gradebook invalidated by a regrade is built again first, when someone
// watches this process's events (a dashboard, a submission's page); a
// process nobody watches (a worker) keeps none, and returns nil.
func (c *Class) changed(ctx context.Context, sub store.Submission, state store.JobState) *Cell {
	watched := c.watched()
	b := &c.book
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.gb == nil {
		if !watched {
			return nil
		}
		if err := c.buildBook(ctx); err != nil {
			c.cfg.Log.Warn("class: reading the gradebook", "err", err)
			return nil
		}
	}
	if b.gb.Cells[sub.Learner] == nil {
		return nil
	}
	cl := b.gb.Cells[sub.Learner][sub.Exercise]
	if sub.ID >= cl.Submission {
		cl.Submission, cl.State = sub.ID, state
		b.gb.Cells[sub.Learner][sub.Exercise] = cl
	}
	return worded(cl)
}

// watched reports whether anyone subscribes to this process's events:
// only such a process keeps a gradebook (a worker does not read the whole
// class).
func (c *Class) watched() bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.subs.Len() > 0
}

// Gradebook returns the gradebook: a copy of the class's, which is kept up
// to date as gradings finish (only the roster is read again, for learners
// added since), with the scores that count under the due dates.
func (c *Class) Gradebook(ctx context.Context) (*Gradebook, error) {
	gb, err := c.gradebook(ctx)
	if err != nil {
		return nil, err
	}
	return gb, c.count(ctx, gb)
}

func (c *Class) gradebook(ctx context.Context) (*Gradebook, error) {
	learners, err := c.st.Users(ctx, store.Learner)
	if err != nil {
		return nil, err
	}
	c.book.mu.Lock()
	defer c.book.mu.Unlock()
	if err := c.buildBook(ctx); err != nil {
		return nil, err
	}
	gb := c.book.gb
	for _, u := range learners {
		if gb.Cells[u.Name] == nil {
			gb.Cells[u.Name] = map[string]Cell{}
			gb.Learners = append(gb.Learners, u.Name)
			sort.Strings(gb.Learners)
		}
	}
	return gb.clone(), nil
}

// finished updates the gradebook with a grading of sub stored just now (ex
// nil if it could not be graded) and returns a copy of it.
func (c *Class) finished(ctx context.Context, sub store.Submission, job int64, ex *report.Exercise) (*Gradebook, error) {
	b := &c.book
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.gb == nil { // built from the store, which holds this grading already
		if err := c.buildBook(ctx); err != nil {
			return nil, err
		}
		return b.gb.clone(), nil
	}
	row := b.gb.Cells[sub.Learner]
	if row == nil {
		return b.gb.clone(), nil
	}
	cell := row[sub.Exercise]
	if sub.ID >= cell.Submission {
		cell.Submission, cell.State = sub.ID, store.Done
	}
	if ex != nil {
		if !cell.Graded || ex.Score > cell.Best {
			cell.Best = ex.Score
		}
		cell.Graded = true
		k := cellKey{sub.Learner, sub.Exercise}
		if prev, seen := b.latest[k]; !seen || sub.ID >= prev {
			b.latest[k] = sub.ID
			cell.Latest, cell.Max, cell.LatestStatus, cell.LatestJob = ex.Score, ex.MaxScore, ex.Status, job
			b.hit(sub.Learner, sub.Exercise, *ex)
			b.count(sub.Exercise)
		}
	}
	row[sub.Exercise] = cell
	return b.gb.clone(), nil
}

// PitfallSubmissions returns the submissions counted in the gradebook's
// count of exercise's pitfall (Gradebook.Pitfalls): each learner's latest
// graded submission of exercise whose result fails a check of pitfall,
// newest first.
func (c *Class) PitfallSubmissions(ctx context.Context, exercise, pitfall string) ([]int64, error) {
	b := &c.book
	b.mu.Lock()
	defer b.mu.Unlock()
	if err := c.buildBook(ctx); err != nil {
		return nil, err
	}
	var ids []int64
	for learner, ps := range b.hits[exercise] {
		if slices.Contains(ps, pitfall) {
			ids = append(ids, b.latest[cellKey{learner, exercise}])
		}
	}
	slices.Sort(ids)
	slices.Reverse(ids)
	return ids, nil
}

// hit records the pitfalls a learner's latest graded result fails.
func (b *book) hit(learner, exercise string, ex report.Exercise) {
	var ps []string
	for _, ch := range ex.Checks {
		if ch.Pitfall == "" || slices.Contains(ps, ch.Pitfall) {
			continue
		}
		if ch.Status == report.Failed || ch.Status == report.Error || ch.Status == report.Timeout {
			ps = append(ps, ch.Pitfall)
		}
	}
	if b.hits[exercise] == nil {
		b.hits[exercise] = map[string][]string{}
	}
	b.hits[exercise][learner] = ps
}

// count computes one exercise's pitfall counts and graded learners from hits.
func (b *book) count(exercise string) {
	n := map[string]int{}
	for _, ps := range b.hits[exercise] {
		for _, p := range ps {
			n[p]++
		}
	}
	b.gb.Graded[exercise] = len(b.hits[exercise])
	var pcs []PitfallCount
	for p, k := range n {
		pcs = append(pcs, PitfallCount{Pitfall: p, Learners: k})
	}
	sort.Slice(pcs, func(i, j int) bool {
		if pcs[i].Learners != pcs[j].Learners {
			return pcs[i].Learners > pcs[j].Learners
		}
		return pcs[i].Pitfall < pcs[j].Pitfall
	})
	if pcs == nil {
		delete(b.gb.Pitfalls, exercise)
	} else {
		b.gb.Pitfalls[exercise] = pcs // a new slice: copies handed out keep theirs
	}
}

// clone returns a copy that the book's later updates do not change.
func (g *Gradebook) clone() *Gradebook {
	out := &Gradebook{Exercises: g.Exercises, Learners: slices.Clone(g.Learners),
		Cells: make(map[string]map[string]Cell, len(g.Cells)), Graded: maps.Clone(g.Graded), Pitfalls: maps.Clone(g.Pitfalls)}
	for l, row := range g.Cells {
		out.Cells[l] = maps.Clone(row)
	}
	return out
}

// buildBook computes the gradebook from the store if it is not built; the
// caller holds c.book.mu.
func (c *Class) buildBook(ctx context.Context) error {
	b := &c.book
	if b.gb != nil {
		return nil
	}
	learners, err := c.st.Users(ctx, store.Learner)
	if err != nil {
		return err
	}
	gradings, err := c.st.Gradings(ctx)
	if err != nil {
		return err
	}
	gb := &Gradebook{Exercises: grader.Gradable(), Cells: map[string]map[string]Cell{},
		Graded: map[string]int{}, Pitfalls: map[string][]PitfallCount{}}
	for _, u := range learners {
		gb.Learners = append(gb.Learners, u.Name)
		gb.Cells[u.Name] = map[string]Cell{}
	}
	latestGraded := map[cellKey]store.Grading{}
	for _, g := range gradings { // oldest job first
		row := gb.Cells[g.Learner]
		if row == nil {
			continue
		}
		cell := row[g.Exercise]
		if g.SubmissionID >= cell.Submission {
			cell.Submission, cell.State = g.SubmissionID, g.State
		}
		if g.State == store.Done && g.Status != "" {
			k := cellKey{g.Learner, g.Exercise}
			if !cell.Graded || g.Score > cell.Best {
				cell.Best = g.Score
			}
			prev, seen := latestGraded[k]
			if !seen || g.SubmissionID >= prev.SubmissionID {
				latestGraded[k] = g
				cell.Latest, cell.Max, cell.LatestStatus, cell.LatestJob = g.Score, g.MaxScore, g.Status, g.JobID
			}
			cell.Graded = true
		}
		row[g.Exercise] = cell
	}
	ids := make([]int64, 0, len(latestGraded))
	for _, g := range latestGraded {
		ids = append(ids, g.JobID)
	}
	results, err := c.st.Results(ctx, ids)
	if err != nil {
		return err
	}
	b.gb, b.latest, b.hits = gb, map[cellKey]int64{}, map[string]map[string][]string{}
	for k, g := range latestGraded {
		b.latest[k] = g.SubmissionID
		b.hit(k.learner, k.exercise, results[g.JobID])
	}
	for ex := range b.hits {
		b.count(ex)
	}
	return nil
}

// WriteCSV writes the gradebook as CSV: one row per learner; per exercise
// the best and latest score, the points, the score that counts under the
// due dates (Count) and whether that one was late ("yes" or "no"); then
// the total of the counted scores and the total of the best scores (last,
// as before due dates). An exercise not graded for a learner leaves its
// scores and late mark empty, and its max still says its points (an
// exercise is worth them whatever the learner did); a learner with
// nothing graded has empty totals, not 0, which would read as graded and
// failed. Without due dates the counted score is the best.
func (g *Gradebook) WriteCSV(w io.Writer) error {
	cw := csv.NewWriter(w)
	head := []string{"learner"}
	for _, e := range g.Exercises {
		head = append(head, e.ID+" best", e.ID+" latest", e.ID+" max", e.ID+" counted", e.ID+" late")
	}
	head = append(head, "total counted", "total best")
	if err := cw.Write(head); err != nil {
		return err
	}
	maxes := make([]string, len(g.Exercises))
	for i, e := range g.Exercises {
		maxes[i] = num(exerciseMax(e.ID))
	}
	for _, l := range g.Learners {
		row := []string{csvSafe(l)}
		total, counted, graded := 0.0, 0.0, false
		for i, e := range g.Exercises {
			c := g.Cell(l, e.ID)
			if !c.Graded {
				row = append(row, "", "", maxes[i], "", "")
				continue
			}
			total, graded = total+c.Best, true
			row = append(row, num(c.Best), num(c.Latest), num(c.Max))
			if n := g.Count(l, e.ID); n.Graded {
				counted += n.Score
				row = append(row, num(n.Score), yesNo(n.Late))
			} else { // every graded submission refused by the late policy
				row = append(row, "0", "yes")
			}
		}
		if graded {
			row = append(row, num(counted), num(total))
		} else {
			row = append(row, "", "")
		}
		if err := cw.Write(row); err != nil {
			return err
		}
	}
	cw.Flush()
	return cw.Error()
}

func yesNo(b bool) string {
	if b {
		return "yes"
	}
	return "no"
}

func num(f float64) string { return strconv.FormatFloat(f, 'f', -1, 64) }

// formulaStarts are the characters a spreadsheet reads a cell starting
// with as a formula (OWASP's CSV injection list: = + - @, tab, carriage
// return), with their full-width forms (＝ ＋ － ＠), which spreadsheets
// fold into them, and the small forms of = + - (﹦ ﹢ ﹣).
const formulaStarts = "=+-@\t\r\uff1d\uff0b\uff0d\uff20\ufe66\ufe62\ufe63"

// csvSafe keeps a spreadsheet from reading a name as a formula: a cell
// starting with one of formulaStarts gets a single quote in front, as
// OWASP's guidance on CSV injection says, which the spreadsheet shows as
// text and does not evaluate.
func csvSafe(s string) string {
	if r, _ := utf8.DecodeRuneInString(s); s != "" && strings.ContainsRune(formulaStarts, r) {
		return "'" + s
	}
	return s
}

// canvasHeader is the first columns of Canvas's Grades import, in its own
// words.
var canvasHeader = []string{"Student", "ID", "SIS User ID", "SIS Login ID", "Section"}

// WriteCanvasCSV writes the gradebook in the form Canvas's Grades import
// reads: the columns Student, ID, SIS User ID, SIS Login ID and Section,
// then one column per exercise, a "Points Possible" row of each
// exercise's maximum, and one row per learner with the score that counts
// under the due dates (Count: the best score when there are none).
// Canvas's import has no column for a late mark: Canvas marks late what
// is submitted to Canvas, and only the score that counts, penalty
// included, goes there.
//
// Canvas matches a row to a student by ID, SIS User ID or SIS Login ID,
// and ratelab knows only the roster's names: each name goes in Student and
// in SIS Login ID (ID and SIS User ID are left empty), so the roster's
// names should be the students' Canvas login IDs. A column titled
// without a Canvas assignment id ("ratelab: Token bucket") makes Canvas
// create the assignment, with the Points Possible row's points, on the
// first import. An exercise not graded for a learner is left empty, which
// Canvas reads as no change.
func (g *Gradebook) WriteCanvasCSV(w io.Writer) error {
	cw := csv.NewWriter(w)
	head := slices.Clone(canvasHeader)
	points := []string{"Points Possible", "", "", "", ""}
	for _, e := range g.Exercises {
		head = append(head, "ratelab: "+e.Title)
		points = append(points, num(exerciseMax(e.ID)))
	}
	if err := cw.Write(head); err != nil {
		return err
	}
	if err := cw.Write(points); err != nil {
		return err
	}
	for _, l := range g.Learners {
		name := csvSafe(l)
		row := []string{name, "", "", name, ""}
		for _, e := range g.Exercises {
			if c := g.Cell(l, e.ID); c.Graded {
				row = append(row, num(g.Count(l, e.ID).Score))
			} else {
				row = append(row, "")
			}
		}
		if err := cw.Write(row); err != nil {
			return err
		}
	}
	cw.Flush()
	return cw.Error()
}

// exerciseMax is an exercise's points: the sum over its plan of checks.
func exerciseMax(id string) float64 {
	plan, _ := grader.Plan(id)
	var max float64
	for _, c := range plan {
		max += c.MaxScore
	}
	return max
}
