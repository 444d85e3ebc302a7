package due_test

import (
	"fmt"
	"time"

	"ratelab/internal/due"
)

// A week due on 10 February at 23:59 in Paris, late work accepted with
// 10% off per day until the 13th: a submission made 26 hours late loses
// two days' worth.
func ExampleDeadline_Judge() {
	paris, _ := due.Zone("Europe/Paris")
	at, _ := due.ParseTime("2027-02-10T23:59", paris)
	cutoff, _ := due.ParseTime("2027-02-13T23:59", paris)
	d := due.Deadline{Due: at, Policy: due.Penalty, PenaltyPct: 10, Cutoff: cutoff}

	m := d.Judge(at.Add(26 * time.Hour))
	fmt.Println(m.Words(d))
	fmt.Println("35 points count", m.Counted(35))
	fmt.Println(d.Left(at.Add(26*time.Hour), paris))
	// Output:
	// late by 1 day 2 h (−10% per started day: 2 days late, −20%)
	// 35 points count 28
	// due date passed 1 day 2 h ago — late work is accepted with −10% per started day until Sat 13 Feb 2027 23:59 CET
}
