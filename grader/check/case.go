package check

import "ratelab/grader/report"

// Case replays one fixed script through the same replay as a property, so
// that a fixed scenario reads and fails exactly like a generated one.
func Case[S, O any](s Script[S, O], replay func(Script[S, O]) Trace, why string) Outcome {
	return TrappedCase(s, replay, nil, why)
}

// TrappedCase is Case for a check with a trap (see Property.Trap): a
// failure without it blames nothing, and the case is not judged.
func TrappedCase[S, O any](s Script[S, O], replay func(Script[S, O]) Trace, trap func(Script[S, O], Trace) bool, why string) Outcome {
	t := replay(s)
	switch {
	case !t.Bad:
		return Pass()
	case trap != nil && t.Panic == nil && !trap(s, t):
		return Outcome{Status: report.Skipped, Message: NotJudged}
	}
	f := finding(t, why)
	f.script, f.trace = s, t
	return Found([]Finding{f})
}
