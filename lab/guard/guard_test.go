package guard_test

import (
	"errors"
	"testing"

	"ratelab/lab/guard"
)

type stringer struct{}

func (stringer) String() string { return "a Stringer" }

func TestStatus(t *testing.T) {
	tests := []struct {
		v    any
		want string
	}{
		{"governor: New is not implemented yet", guard.NotImplemented},
		{errors.New("TODO: Not Implemented"), guard.NotImplemented},
		{"index out of range [3]", "panicked: index out of range [3]"},
		{errors.New("boom"), "panicked: boom"},
		{stringer{}, "panicked: a Stringer"},
		{42, "panicked: a value that is not a message"},
	}
	for _, tt := range tests {
		if got := guard.Status(tt.v); got != tt.want {
			t.Errorf("Status(%#v) = %q, want %q", tt.v, got, tt.want)
		}
	}
}

func TestMissing(t *testing.T) {
	for why, want := range map[string]string{
		"":                         "not available",
		"your code does not build": "your code does not build",
	} {
		if got := guard.Missing(why); got != want {
			t.Errorf("Missing(%q) = %q, want %q", why, got, want)
		}
	}
}
