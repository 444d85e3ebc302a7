package due

import (
	"fmt"
	"strconv"
	"strings"
	"time"
)

// Layout is how a due date is shown: "Wed 10 Feb 2027 23:59 CET", in the
// course's zone.
const Layout = "Mon 2 Jan 2006 15:04 MST"

// inputLayouts are the forms ParseTime reads a local time in (the first is
// what a browser's datetime-local field sends).
var inputLayouts = []string{"2006-01-02T15:04", "2006-01-02T15:04:05", "2006-01-02 15:04", "2006-01-02 15:04:05"}

// ParseTime reads a due date given in loc ("2027-02-10T23:59"), or with
// its own offset (RFC 3339: "2027-02-10T23:59:00+01:00"). A local time
// the clocks skip that day (spring forward) is refused, saying so; one
// they show twice (fall back) is the later of the two, so that nobody is
// marked late by the hour the clock repeated.
func ParseTime(s string, loc *time.Location) (time.Time, error) {
	s = strings.TrimSpace(s)
	if t, err := time.Parse(time.RFC3339, s); err == nil {
		return t.UTC(), nil
	}
	for _, layout := range inputLayouts {
		t, err := time.ParseInLocation(layout, s, loc)
		if err != nil {
			continue
		}
		if t.In(loc).Format(layout) != s {
			return time.Time{}, fmt.Errorf("%s does not exist in %s: the clocks skip it that day (daylight saving time); give another time", s, loc)
		}
		if later := t.Add(time.Hour); later.In(loc).Format(layout) == s {
			t = later
		}
		return t.UTC(), nil
	}
	return time.Time{}, fmt.Errorf("time %q: write it as 2027-02-10T23:59 (in the course's time zone, %s), or with an offset, 2027-02-10T23:59:00+01:00", s, loc)
}

// Span words a duration coarsely, as a person would: "2 days 3 h",
// "5 h 10 min", "12 min", "less than a minute".
func Span(d time.Duration) string {
	if d < 0 {
		d = -d
	}
	days, h, m := int(d/(24*time.Hour)), int(d%(24*time.Hour)/time.Hour), int(d%time.Hour/time.Minute)
	switch {
	case days > 0 && h > 0:
		return plural(days, "day") + " " + strconv.Itoa(h) + " h"
	case days > 0:
		return plural(days, "day")
	case h > 0 && m > 0:
		return strconv.Itoa(h) + " h " + strconv.Itoa(m) + " min"
	case h > 0:
		return strconv.Itoa(h) + " h"
	case m > 0:
		return strconv.Itoa(m) + " min"
	}
	return "less than a minute"
}

func plural(n int, word string) string {
	if n == 1 {
		return "1 " + word
	}
	return strconv.Itoa(n) + " " + word + "s"
}

// pct words a percentage: "10%", "12.5%".
func pct(p float64) string { return strconv.FormatFloat(p, 'f', -1, 64) + "%" }

// PenaltyWords is how a penalty is counted, as every page and command
// words it: "−10% per started day".
func PenaltyWords(pctPerDay float64) string { return "−" + pct(pctPerDay) + " per started day" }

// PolicyWords says what happens to late work under the deadline: "late
// work is accepted with −10% per started day until Sat 13 Feb 2027 23:59
// CET".
func (d Deadline) PolicyWords(loc *time.Location) string {
	switch d.Policy {
	case Refuse:
		return "late work is refused"
	case Penalty:
		s := "late work is accepted with " + PenaltyWords(d.PenaltyPct)
		if !d.Cutoff.IsZero() {
			s += " until " + d.Cutoff.In(loc).Format(Layout)
		}
		return s
	}
	return "late work is accepted, marked late"
}

// Left says where a learner stands against the deadline at now: "due in
// 2 days 3 h", or "due date passed 5 h ago — late work is …".
func (d Deadline) Left(now time.Time, loc *time.Location) string {
	if !now.After(d.Due) {
		return "due in " + Span(d.Due.Sub(now))
	}
	s := "due date passed " + Span(now.Sub(d.Due)) + " ago — "
	if d.Policy == Penalty && !d.Cutoff.IsZero() && now.After(d.Cutoff) {
		return s + "late work was accepted until " + d.Cutoff.In(loc).Format(Layout) + " and is now refused"
	}
	return s + d.PolicyWords(loc)
}

// Words says a submission's mark and how its penalty was counted: "on
// time", "late by 1 day 5 h (−10% per started day: 2 days late, −20%)",
// "late by 2 days 1 h: past what the late policy accepts, counts
// nothing".
func (m Mark) Words(d Deadline) string {
	switch {
	case m.OnTime:
		return "on time"
	case m.Refused:
		return "late by " + Span(m.Late) + ": past what the late policy accepts, counts nothing"
	case m.Factor < 1:
		return fmt.Sprintf("late by %s (%s: %s late, −%s)", Span(m.Late), PenaltyWords(d.PenaltyPct), plural(m.DaysLate, "day"), pct(min(100, float64(m.DaysLate)*d.PenaltyPct)))
	}
	return "late by " + Span(m.Late)
}

// Describe words a due date as set: "due Wed 10 Feb 2027 23:59 CET; late
// work is accepted, marked late".
func Describe(d Deadline, loc *time.Location) string {
	return "due " + d.Due.In(loc).Format(Layout) + "; " + d.PolicyWords(loc)
}
