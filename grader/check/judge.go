package check

import "fmt"

// TrapOver returns a Property's Trap from a domain's trap, which tests a
// failing script by replaying others with run: nil if trap is nil. A
// failure with no call (at the setup) shows no trap: trap is only asked
// of a trace with a failing call, t.Last() >= 0.
func TrapOver[S, O any](trap func(s Script[S, O], t Trace, replay func(Script[S, O]) Trace) bool, run func(Script[S, O]) Trace) func(Script[S, O], Trace) bool {
	if trap == nil {
		return nil
	}
	return func(s Script[S, O], t Trace) bool { return t.Last() >= 0 && trap(s, t, run) }
}

// EnumName writes v, a value of the enumeration typ, as its name in names,
// or as typ(v) if it has none.
func EnumName[E ~uint8](names []string, v E, typ string) string {
	if int(v) < len(names) {
		return names[v]
	}
	return fmt.Sprintf("%s(%d)", typ, uint8(v))
}
