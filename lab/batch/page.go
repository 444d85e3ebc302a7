package batch

// Page is the part of an event list of N events that one batch carries:
// the events at From up to To, To excluded.
type Page struct {
	From, To, N int
}

// Next returns the page of a list of n events that comes after the first
// sent of them went out: from sent on, at most most events. A sent below 0
// counts as 0 and one above n as n (the page is then empty); with most 0
// or below every page is empty.
func Next(sent, n, most int) Page {
	from := min(max(sent, 0), n)
	return Page{From: from, To: min(n, from+max(most, 0)), N: n}
}

// NextPair returns the next page of each of two event lists (a run's two
// sides), of n[0] and n[1] events, after sent[0] and sent[1] of them went
// out: Next of each.
func NextPair(sent, n [2]int, most int) [2]Page {
	return [2]Page{Next(sent[0], n[0], most), Next(sent[1], n[1], most)}
}

// Len is the number of events on the page.
func (p Page) Len() int { return p.To - p.From }

// Left is the number of events of the list after the page.
func (p Page) Left() int { return p.N - p.To }
