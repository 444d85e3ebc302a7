package server

import (
	"strconv"

	"ratelab/internal/class"
	"ratelab/internal/store"
	"ratelab/web/page"
)

// The functions below turn the class's values into the pages' plain ones.

// pageSubmission reads a job handed to River and not started by a worker
// (store.Job.Waiting) as queued. Its copy flags (same code as the
// reference or as other learners, by name) are the instructor's alone: a
// learner's pages get none.
func pageSubmission(s store.Submission, instructor bool) page.ClassSubmission {
	state := s.Job.State
	if s.Job.Waiting() {
		state = store.Queued
	}
	out := page.ClassSubmission{ID: s.ID, Number: s.Number, Learner: s.Learner, Exercise: s.Exercise, CreatedAt: s.CreatedAt,
		State: state, Error: s.Job.Error, Result: s.Job.Result, Seed: s.Job.Seed, ServerFault: s.Job.ServerFault}
	if instructor {
		out.MatchesSolution, out.SameAs = s.MatchesSolution, s.SameAs
	}
	return out
}

func pageSubmissions(subs []store.Submission, instructor bool) []page.ClassSubmission {
	out := make([]page.ClassSubmission, len(subs))
	for i, s := range subs {
		out[i] = pageSubmission(s, instructor)
	}
	return out
}

func pageFiles(fs []store.File) []page.ClassFile {
	out := make([]page.ClassFile, len(fs))
	for i, f := range fs {
		out[i] = page.ClassFile{Name: f.Name, Content: string(f.Content)}
	}
	return out
}

func pageDashboard(gb *class.Gradebook, who, csrf string, recent []page.ClassSubmission, queued int, regraded string) page.ClassDashboardView {
	v := page.ClassDashboardView{Instructor: who, CSRF: csrf, Exercises: gb.Exercises, Recent: recent, Queued: queued}
	if n, err := strconv.Atoi(regraded); err == nil {
		v.Regraded = strconv.Itoa(n)
	}
	for _, l := range gb.Learners {
		row := page.ClassRow{Learner: l}
		for _, e := range gb.Exercises {
			c := gb.Cell(l, e.ID)
			row.Cells = append(row.Cells, page.ClassCell{Standing: c.Standing(), Exercise: e.ID, Status: c.LatestStatus, Submission: c.Submission})
		}
		v.Rows = append(v.Rows, row)
	}
	v.Pitfalls = pagePitfalls(gb)
	return v
}

// pagePitfalls is the pitfall counts of each exercise, in course order.
func pagePitfalls(gb *class.Gradebook) []page.ClassPitfalls {
	var out []page.ClassPitfalls
	for _, e := range gb.Exercises {
		p := page.ClassPitfalls{Exercise: e.ID, Title: e.Title, Graded: gb.Graded[e.ID]}
		for _, c := range gb.Pitfalls[e.ID] {
			p.Counts = append(p.Counts, page.ClassPitfallCount{Pitfall: c.Pitfall, Learners: c.Learners})
		}
		out = append(out, p)
	}
	return out
}
