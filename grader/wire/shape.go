package wire

import (
	"encoding/json"
	"fmt"
	"math"
	"reflect"
	"slices"
	"strings"
	"sync"
	"unicode/utf8"
)

// shape is what the codec needs of a struct type, worked out once a type
// (see shapeOf): every call of a grading encodes and decodes the same few
// types, thousands of times.
type shape struct {
	// declared are the exported fields in the order of their declaration,
	// which Decode sets them in; sorted the same in the order of their
	// names, which Encode writes them in (encoding/json's order for a
	// map's keys).
	declared, sorted []field
	// byName is the index of each exported field by name.
	byName map[string]int
	n      int // the type's fields, exported or not
}

// field is one exported field of a struct type.
type field struct {
	index int
	name  string
	key   []byte // the member's name as Encode writes it, with its colon
}

var shapes sync.Map // reflect.Type → *shape

// shapeOf returns struct type t's shape.
func shapeOf(t reflect.Type) *shape {
	if s, ok := shapes.Load(t); ok {
		return s.(*shape)
	}
	s := &shape{byName: map[string]int{}, n: t.NumField()}
	for i := range t.NumField() {
		if f := t.Field(i); f.IsExported() {
			s.declared = append(s.declared, field{index: i, name: f.Name, key: append(appendString(nil, f.Name), ':')})
			s.byName[f.Name] = i
		}
	}
	s.sorted = slices.SortedFunc(slices.Values(s.declared), func(a, b field) int { return strings.Compare(a.name, b.name) })
	got, _ := shapes.LoadOrStore(t, s)
	return got.(*shape)
}

// appendStruct appends a struct as an object of its exported fields, in
// the order of their names.
func appendStruct(b []byte, v reflect.Value, objects func(reflect.Value) Obj) ([]byte, error) {
	b = append(b, '{')
	for n, f := range shapeOf(v.Type()).sorted {
		if n > 0 {
			b = append(b, ',')
		}
		b = append(b, f.key...)
		var err error
		if b, err = appendValue(b, v.Field(f.index), objects); err != nil {
			return nil, fmt.Errorf("field %s: %w", f.name, err)
		}
	}
	return append(b, '}'), nil
}

// decodeStruct sets the struct v from its wire form: each exported field
// from the member of its name, if there is one. Members of no field's
// name are skipped; of a name given twice, the last counts, as with
// encoding/json.
func decodeStruct(data json.RawMessage, v reflect.Value) error {
	t := v.Type()
	s := shapeOf(t)
	var held [16]json.RawMessage
	raws := held[:0]
	if s.n > len(held) {
		raws = make([]json.RawMessage, s.n)
	}
	raws = raws[:s.n]
	if !fastPaths || !s.split(data, raws) {
		var m map[string]json.RawMessage
		if err := json.Unmarshal(data, &m); err != nil {
			return fmt.Errorf("want an object for %s, got %.40s", t, data)
		}
		clear(raws)
		for _, f := range s.declared {
			raws[f.index] = m[f.name]
		}
	}
	for _, f := range s.declared {
		if raws[f.index] == nil {
			continue
		}
		if err := Decode(raws[f.index], v.Field(f.index)); err != nil {
			return fmt.Errorf("field %s: %w", f.name, err)
		}
	}
	return nil
}

// split sets raws, by field index, to the members of the JSON object data
// of the fields' names, if data is written as Encode writes. The members
// are looked for in the order Encode writes them, then by name.
func (s *shape) split(data []byte, raws []json.RawMessage) bool {
	if len(data) < 2 || data[0] != '{' {
		return false
	}
	if string(data) == "{}" {
		return true
	}
	next := 0 // the member Encode writes next, in sorted
	for i := 1; ; {
		end, ok := skipValue(data, i, 0)
		if !ok || data[i] != '"' || end >= len(data) || data[end] != ':' {
			return false
		}
		name, ok := plainBytes(data[i:end])
		if !ok {
			return false
		}
		i = end + 1
		if end, ok = skipValue(data, i, 0); !ok || end >= len(data) {
			return false
		}
		if next < len(s.sorted) && string(name) == s.sorted[next].name {
			raws[s.sorted[next].index] = data[i:end]
			next++
		} else if k, found := s.byName[string(name)]; found {
			raws[k] = data[i:end]
		}
		switch {
		case data[end] == ',':
			i = end + 1
		case data[end] == '}' && end == len(data)-1:
			return true
		default:
			return false
		}
	}
}

// plainBytes returns the inside of the JSON string data, if it is one of
// printable ASCII with nothing escaped.
func plainBytes(data []byte) ([]byte, bool) {
	inside, ok := unescaped(data)
	for _, c := range inside {
		if c > 0x7e {
			return nil, false
		}
	}
	return inside, ok
}

// unescaped returns the inside of the JSON string data, if nothing in it
// is escaped (no quote, backslash or control character).
func unescaped(data []byte) ([]byte, bool) {
	n := len(data)
	if n < 2 || data[0] != '"' || data[n-1] != '"' {
		return nil, false
	}
	for _, c := range data[1 : n-1] {
		if c < 0x20 || c == '"' || c == '\\' {
			return nil, false
		}
	}
	return data[1 : n-1], true
}

// plainString is plainBytes as a string.
func plainString(data []byte) (string, bool) {
	b, ok := plainBytes(data)
	return string(b), ok
}

// decodeInteger sets the integer v from data, if data is a plain string
// of 1 to 18 decimal digits, after a minus for a signed type, whose value
// v holds: what Encode writes, read without making a string of it. It
// reports false, having set nothing, for anything else, which Decode's
// general path reads.
func decodeInteger(data []byte, v reflect.Value) bool {
	k := v.Kind()
	signed := k >= reflect.Int && k <= reflect.Int64
	if !signed && (k < reflect.Uint || k > reflect.Uintptr) {
		return false
	}
	digits, ok := plainBytes(data)
	neg := ok && signed && len(digits) > 0 && digits[0] == '-'
	if neg {
		digits = digits[1:]
	}
	n, ok := smallDecimal(digits)
	if !ok {
		return false
	}
	bits := v.Type().Bits()
	if !signed {
		if bits < 64 && n >= 1<<bits {
			return false
		}
		v.SetUint(n)
		return true
	}
	x := int64(n)
	if neg {
		x = -x
	}
	if bits < 64 && (x < -1<<(bits-1) || x >= 1<<(bits-1)) {
		return false
	}
	v.SetInt(x)
	return true
}

// smallDecimal reads 1 to 18 decimal digits (too few to overflow).
func smallDecimal(digits []byte) (uint64, bool) {
	if len(digits) == 0 || len(digits) > 18 {
		return 0, false
	}
	var n uint64
	for _, c := range digits {
		if c < '0' || c > '9' {
			return 0, false
		}
		n = n*10 + uint64(c-'0')
	}
	return n, true
}

// unescapedString returns the string the JSON string data holds if
// nothing in it is escaped and it is valid UTF-8: its bytes as they are,
// which is what encoding/json reads them as.
func unescapedString(data []byte) (string, bool) {
	inside, ok := unescaped(data)
	if !ok || !utf8.Valid(inside) {
		return "", false
	}
	return string(inside), true
}

// Transparent reports whether v comes back from its wire form as it is,
// so that a value in hand may stand for the one decoded from it: a bool,
// a number (not a NaN, whose bits the wire does not keep), a string of
// valid UTF-8, or a struct of those with every field exported. Errors,
// objects and maps do not.
func Transparent(v reflect.Value) bool {
	switch v.Kind() {
	case reflect.Bool, reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		return true
	case reflect.Float32, reflect.Float64:
		return !math.IsNaN(v.Float())
	case reflect.String:
		return utf8.ValidString(v.String())
	case reflect.Struct:
		s := shapeOf(v.Type())
		if len(s.declared) < s.n {
			return false // the wire carries no unexported field
		}
		for _, f := range s.declared {
			if !Transparent(v.Field(f.index)) {
				return false
			}
		}
		return true
	}
	return false
}
