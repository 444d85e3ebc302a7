package check

// Case replays one fixed script through the same replay as a property, so
// that a fixed scenario reads and fails exactly like a generated one. Its
// finding keeps the script, so that the suite names the mistakes that
// explain it (see Parts).
func Case[S, O any](s Script[S, O], replay func(Script[S, O]) Trace, why string) Outcome {
	t := replay(s)
	if !t.Bad {
		return Pass()
	}
	f := finding(t, why)
	f.script, f.trace = s, t
	return Found([]Finding{f})
}
