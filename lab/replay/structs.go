package replay

import (
	"fmt"
	"strconv"
	"strings"

	"ratelab/grader/report"
)

// structArg reads the struct argument name of c as a call of its own
// (named "<call>.<name>") whose arguments are the struct's fields, so that
// argU64 and argFloat read them. The report carries a struct either as an
// object of its fields or, when it is nested without a type name
// ("Breaker: {TTLNs: 0, …}") or is a map literal, as its text; the text is
// read here: "T{A: 1, B: x}" and "{A: 1}" by field name, "Budget{1, 100}"
// by position (arg1, arg2, …), and a map literal's quoted keys unquoted.
func structArg(c report.Call, name string) (report.Call, error) {
	v, ok := c.Args[name]
	if !ok {
		return report.Call{}, fmt.Errorf("%s: no argument %s", c.Name, name)
	}
	out := report.Call{Name: c.Name + "." + name}
	switch v := v.(type) {
	case map[string]any:
		out.Args = v
		return out, nil
	case string:
		fields, err := literal(v)
		if err != nil {
			return report.Call{}, fmt.Errorf("%s: %s: %v", c.Name, name, err)
		}
		out.Args = fields
		return out, nil
	}
	return report.Call{}, fmt.Errorf("%s: %s = %v is not a struct", c.Name, name, v)
}

// literal reads a composite literal's text into its fields: values that
// are literals themselves stay text (read again by structArg), integers
// become decimal strings without "_", true and false booleans, and quoted
// strings their value.
func literal(s string) (map[string]any, error) {
	s = strings.TrimSpace(s)
	open := strings.IndexByte(s, '{')
	if open < 0 || !strings.HasSuffix(s, "}") {
		return nil, fmt.Errorf("%q is not a composite literal", s)
	}
	fields := map[string]any{}
	for i, part := range splitTop(s[open+1 : len(s)-1]) {
		key, value, ok := cutTop(part, ':')
		if !ok {
			key, value = "arg"+strconv.Itoa(i+1), part
		} else if k, err := strconv.Unquote(key); err == nil {
			key = k
		}
		fields[key] = literalValue(value)
	}
	return fields, nil
}

func literalValue(v string) any {
	switch {
	case v == "true" || v == "false":
		return v == "true"
	case strings.HasPrefix(v, `"`):
		if s, err := strconv.Unquote(v); err == nil {
			return s
		}
	}
	if n := strings.ReplaceAll(v, "_", ""); n != "" && strings.Trim(n, "0123456789") == "" {
		return n
	}
	if f, err := strconv.ParseFloat(v, 64); err == nil {
		return f
	}
	return v
}

// splitTop splits s at the commas outside brackets and quotes, each part
// trimmed; "" has no parts.
func splitTop(s string) []string {
	if strings.TrimSpace(s) == "" {
		return nil
	}
	var out []string
	start := 0
	scanTop(s, func(i int) bool {
		if s[i] == ',' {
			out = append(out, strings.TrimSpace(s[start:i]))
			start = i + 1
		}
		return true
	})
	return append(out, strings.TrimSpace(s[start:]))
}

// cutTop cuts s at the first sep outside brackets and quotes.
func cutTop(s string, sep byte) (before, after string, found bool) {
	at := -1
	scanTop(s, func(i int) bool {
		if s[i] == sep {
			at = i
			return false
		}
		return true
	})
	if at < 0 {
		return s, "", false
	}
	return strings.TrimSpace(s[:at]), strings.TrimSpace(s[at+1:]), true
}

// scanTop calls f with the index of every byte of s outside brackets and
// quotes, until f returns false.
func scanTop(s string, f func(i int) bool) {
	depth, quote := 0, byte(0)
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case quote != 0:
			if c == '\\' {
				i++
			} else if c == quote {
				quote = 0
			}
		case c == '"' || c == '`':
			quote = c
		case c == '(' || c == '{' || c == '[':
			depth++
		case c == ')' || c == '}' || c == ']':
			depth--
		case depth == 0:
			if !f(i) {
				return
			}
		}
	}
}

// argBool reads the boolean argument name of c.
func argBool(c report.Call, name string) (bool, error) {
	v, ok := c.Args[name]
	if !ok {
		return false, fmt.Errorf("%s: no argument %s", c.Name, name)
	}
	switch v := v.(type) {
	case bool:
		return v, nil
	case string:
		if b, err := strconv.ParseBool(v); err == nil {
			return b, nil
		}
	}
	return false, fmt.Errorf("%s: %s = %v is not a bool", c.Name, name, v)
}

// argText reads the argument name of c as text, a quoted string unquoted.
func argText(c report.Call, name string) (string, error) {
	v, ok := c.Args[name]
	if !ok {
		return "", fmt.Errorf("%s: no argument %s", c.Name, name)
	}
	s, ok := v.(string)
	if !ok {
		return "", fmt.Errorf("%s: %s = %v is not text", c.Name, name, v)
	}
	if q, err := strconv.Unquote(s); err == nil {
		return q, nil
	}
	return s, nil
}
