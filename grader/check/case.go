package check

// Case replays one fixed script through the same replay as a property, so
// that a fixed scenario reads and fails exactly like a generated one.
func Case[S, O any](s Script[S, O], replay func(Script[S, O]) Trace, why string) Outcome {
	t := replay(s)
	if !t.Bad {
		return Pass()
	}
	return Fail(t, why)
}
