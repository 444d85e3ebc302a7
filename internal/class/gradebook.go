package class

import (
	"context"
	"encoding/csv"
	"io"
	"sort"
	"strconv"
	"strings"

	"ratelab/grader"
	"ratelab/grader/report"
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
}

// Cell returns a learner's cell for an exercise (the zero Cell if none).
func (g *Gradebook) Cell(learner, exercise string) Cell {
	return g.Cells[learner][exercise]
}

// Gradebook computes the gradebook from the store.
func (c *Class) Gradebook(ctx context.Context) (*Gradebook, error) {
	learners, err := c.st.Users(ctx, store.Learner)
	if err != nil {
		return nil, err
	}
	gradings, err := c.st.Gradings(ctx)
	if err != nil {
		return nil, err
	}
	gb := &Gradebook{Exercises: grader.Gradable(), Cells: map[string]map[string]Cell{},
		Graded: map[string]int{}, Pitfalls: map[string][]PitfallCount{}}
	for _, u := range learners {
		gb.Learners = append(gb.Learners, u.Name)
		gb.Cells[u.Name] = map[string]Cell{}
	}
	type key struct{ learner, exercise string }
	latestGraded := map[key]store.Grading{}
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
			k := key{g.Learner, g.Exercise}
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
		return nil, err
	}
	hits := map[string]map[string]int{} // exercise → pitfall → learners
	for k, g := range latestGraded {
		gb.Graded[k.exercise]++
		ex, ok := results[g.JobID]
		if !ok {
			continue
		}
		seen := map[string]bool{}
		for _, ch := range ex.Checks {
			if ch.Pitfall == "" || seen[ch.Pitfall] {
				continue
			}
			if ch.Status == report.Failed || ch.Status == report.Error || ch.Status == report.Timeout {
				seen[ch.Pitfall] = true
				if hits[k.exercise] == nil {
					hits[k.exercise] = map[string]int{}
				}
				hits[k.exercise][ch.Pitfall]++
			}
		}
	}
	for ex, m := range hits {
		var pcs []PitfallCount
		for p, n := range m {
			pcs = append(pcs, PitfallCount{Pitfall: p, Learners: n})
		}
		sort.Slice(pcs, func(i, j int) bool {
			if pcs[i].Learners != pcs[j].Learners {
				return pcs[i].Learners > pcs[j].Learners
			}
			return pcs[i].Pitfall < pcs[j].Pitfall
		})
		gb.Pitfalls[ex] = pcs
	}
	return gb, nil
}

// WriteCSV writes the gradebook as CSV: one row per learner, the best and
// latest score of each exercise, and the total of the best scores.
func (g *Gradebook) WriteCSV(w io.Writer) error {
	cw := csv.NewWriter(w)
	head := []string{"learner"}
	for _, e := range g.Exercises {
		head = append(head, e.ID+" best", e.ID+" latest", e.ID+" max")
	}
	head = append(head, "total best")
	if err := cw.Write(head); err != nil {
		return err
	}
	for _, l := range g.Learners {
		row := []string{csvSafe(l)}
		total := 0.0
		for _, e := range g.Exercises {
			c := g.Cell(l, e.ID)
			if !c.Graded {
				row = append(row, "", "", "")
				continue
			}
			total += c.Best
			row = append(row, num(c.Best), num(c.Latest), num(c.Max))
		}
		row = append(row, num(total))
		if err := cw.Write(row); err != nil {
			return err
		}
	}
	cw.Flush()
	return cw.Error()
}

func num(f float64) string { return strconv.FormatFloat(f, 'f', -1, 64) }

// csvSafe keeps a spreadsheet from reading a name as a formula.
func csvSafe(s string) string {
	if s != "" && strings.ContainsRune("=+-@\t\r", rune(s[0])) {
		return "'" + s
	}
	return s
}
