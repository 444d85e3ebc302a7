package check

import (
	"math"
	"math/big"
	"regexp"
	"strconv"
	"strings"

	"ratelab/grader/report"
)

// CallData reads a call as the suites print it, e.g.
// "TryAcquire(nowNs=math.MaxUint64-614, n=1_000)" or
// "Update(rttNs=1000, inflight=0) ×10", back into data: its name and its
// arguments by name, integers as decimal strings ("18446744073709551001",
// "1000"), floats and booleans as values, anything else as its text. A
// trailing comment ("// bucketNs = 3") is dropped, and a repetition ("×10")
// becomes the argument "times". An argument without a name (a struct
// literal) is "arg1", "arg2", ... It returns false for text that is not a
// call.
func CallData(call string) (report.Call, bool) {
	s := call
	if i := strings.Index(s, " //"); i >= 0 {
		s = s[:i]
	}
	s = strings.TrimSpace(s)
	if i := strings.LastIndex(s, " ["); i >= 0 && strings.HasSuffix(s, "]") {
		s = strings.TrimSpace(s[:i]) // an annotation: "Observe(...) [window: ...]"
	}
	// "New(cfg) with cfg = Config{...}": the call, then its argument's value.
	var bound map[string]string
	if call, binding, ok := strings.Cut(s, " with "); ok {
		name, value, ok := strings.Cut(binding, "=")
		if !ok {
			return report.Call{}, false
		}
		s, bound = strings.TrimSpace(call), map[string]string{strings.TrimSpace(name): strings.TrimSpace(value)}
	}
	var times string
	if i := strings.LastIndex(s, " ×"); i >= 0 {
		times, s = strings.TrimSpace(s[i+len(" ×"):]), strings.TrimSpace(s[:i])
	}
	open := strings.IndexByte(s, '(')
	if open <= 0 || !strings.HasSuffix(s, ")") || !identifier.MatchString(s[:open]) {
		return report.Call{}, false
	}
	c := report.Call{Name: s[:open], Args: map[string]any{}}
	for i, a := range splitArgs(s[open+1 : len(s)-1]) {
		name, value, ok := strings.Cut(a, "=")
		if v, isBound := bound[strings.TrimSpace(a)]; isBound {
			name, value, ok = a, v, true // New(cfg) with cfg = ...
		}
		switch {
		case !ok && identifier.MatchString(strings.TrimSpace(a)):
			name, value = a, a // a name that stands for a value shown elsewhere: Decide(cfg, ...)
		case !ok || !identifier.MatchString(strings.TrimSpace(name)):
			name, value = "arg"+strconv.Itoa(i+1), a
		}
		c.Args[strings.TrimSpace(name)] = argValue(strings.TrimSpace(value))
	}
	if times != "" {
		c.Args["times"] = argValue(times)
	}
	return c, true
}

var (
	identifier = regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_]*$`)
	integer    = regexp.MustCompile(`^-?[0-9][0-9_]*$`)
	maxMinus   = regexp.MustCompile(`^math\.MaxUint(64|32)(-([0-9_]+))?$`)
	structLit  = regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_.]*\{(.*)\}$`)
)

// splitArgs splits a call's arguments at the commas outside brackets and
// quotes.
func splitArgs(s string) []string {
	if strings.TrimSpace(s) == "" {
		return nil
	}
	var out []string
	depth, start, quote := 0, 0, byte(0)
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case quote != 0:
			if c == '\\' {
				i++
			} else if c == quote {
				quote = 0
			}
		case c == '"' || c == '\'' || c == '`':
			quote = c
		case c == '(' || c == '{' || c == '[':
			depth++
		case c == ')' || c == '}' || c == ']':
			depth--
		case c == ',' && depth == 0:
			out = append(out, strings.TrimSpace(s[start:i]))
			start = i + 1
		}
	}
	return append(out, strings.TrimSpace(s[start:]))
}

// argValue is one printed argument as data: a struct literal
// ("Config{Floor: 1, Ceiling: 8}") becomes an object of its fields.
func argValue(v string) any {
	if m := structLit.FindStringSubmatch(v); m != nil {
		fields := map[string]any{}
		for _, f := range splitArgs(m[1]) {
			name, value, ok := strings.Cut(f, ":")
			if !ok || !identifier.MatchString(strings.TrimSpace(name)) {
				return v
			}
			fields[strings.TrimSpace(name)] = argValue(strings.TrimSpace(value))
		}
		return fields
	}
	switch {
	case integer.MatchString(v):
		return strings.ReplaceAll(v, "_", "")
	case maxMinus.MatchString(v):
		m := maxMinus.FindStringSubmatch(v)
		top := new(big.Int).SetUint64(math.MaxUint64)
		if m[1] == "32" {
			top.SetUint64(math.MaxUint32)
		}
		if m[3] != "" {
			d, _ := new(big.Int).SetString(strings.ReplaceAll(m[3], "_", ""), 10)
			top.Sub(top, d)
		}
		return top.String()
	case v == "true" || v == "false":
		return v == "true"
	}
	if f, err := strconv.ParseFloat(strings.ReplaceAll(v, "_", ""), 64); err == nil && !math.IsInf(f, 0) && !math.IsNaN(f) {
		return f
	}
	return v
}
