package wire

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"math/rand"
	"reflect"
	"strconv"
	"testing"
	"unicode/utf8"
)

type leaf struct {
	Zeta  uint8
	Alpha string
	B     float32
}

type tree struct {
	X     map[string]leaf
	Err   error
	Obj   Obj
	P     *leaf
	I     any
	Name  string
	N     int64
	Flag  bool
	Inner leaf
	hide  int
}

// odd are strings that encoding/json escapes, or not.
var odd = []string{"", "a", "<&>", "é", "\u2028", "x\ny", `"q"`, `\`, string([]byte{0xff, 'a'}), "tab\t", "\x01", "ok 123"}

// randomValues draws wire values of every kind, nested.
func randomValues(r *rand.Rand) []any {
	pick := func() string { return odd[r.Intn(len(odd))] }
	floats := []float64{math.NaN(), math.Inf(1), math.Inf(-1), 1e21, 1e-7, 0.1, r.NormFloat64() * 1e10}
	var m map[string]leaf
	if r.Intn(3) > 0 {
		m = map[string]leaf{}
		for range r.Intn(4) {
			m[pick()] = leaf{uint8(r.Intn(256)), pick(), float32(r.NormFloat64())}
		}
	}
	t := tree{X: m, Obj: Obj(r.Uint64()), Name: pick(), N: r.Int63() - r.Int63(), Flag: r.Intn(2) == 0,
		Inner: leaf{1, pick(), float32(floats[r.Intn(len(floats))])}}
	if r.Intn(2) == 0 {
		t.Err = errors.New(pick())
	}
	if r.Intn(2) == 0 {
		t.P = &leaf{}
	}
	return []any{t, t.Inner, r.Uint64(), pick(), r.Intn(2) == 0, t.Obj, floats[r.Intn(len(floats))], m}
}

// mutate inserts or deletes a few bytes of data, of JSON's syntax mostly.
func mutate(r *rand.Rand, data []byte) []byte {
	bits := []string{" ", `"`, `\`, "{", "}", "[", "]", ",", ":", "0", "1", "-", "x", "true", "null", "é",
		`"Name":"z"`, `"Zeta":"3",`, `"obj"`, `"fn":"z"`, `"args":[]`, `"Fn":"q",`, `"ret":[`}
	data = []byte(string(data))
	if i := bytes.LastIndexByte(data, '{'); i >= 0 && r.Intn(4) == 0 {
		// A member more, perhaps of a name the object has already.
		member := []string{`"Name":"z",`, `"Zeta":"3",`, `"Alpha":"b",`, `"obj":7,`, `"fn":"F",`}[r.Intn(5)]
		data = append(data[:i+1:i+1], append([]byte(member), data[i+1:]...)...)
	}
	for range r.Intn(3) {
		p := r.Intn(len(data) + 1)
		if r.Intn(3) == 0 && p < len(data) {
			data = append(data[:p:p], data[p+1:]...)
		} else {
			data = append(data[:p:p], append([]byte(bits[r.Intn(len(bits))]), data[p:]...)...)
		}
	}
	return data
}

// slow runs f with the fast paths off.
func slow(f func()) {
	fastPaths = false
	defer func() { fastPaths = true }()
	f()
}

// TestEncodeWritesCanonicalJSON: what Encode writes is what encoding/json
// writes for the same value read back (object members sorted, strings
// escaped alike), byte for byte. (Not for strings that are not UTF-8,
// whose bytes encoding/json writes as \ufffd, which it reads back as the
// character and writes as such; Encode leaves those to encoding/json.)
func TestEncodeWritesCanonicalJSON(t *testing.T) {
	r := rand.New(rand.NewSource(1))
	for range 5000 {
		for _, v := range randomValues(r) {
			if !utf8.ValidString(fmt.Sprint(v)) {
				continue
			}
			raw, err := Encode(reflect.ValueOf(v), func(reflect.Value) Obj { return 77 })
			if err != nil {
				t.Fatalf("Encode(%#v): %v", v, err)
			}
			var back any
			if err := json.Unmarshal(raw, &back); err != nil {
				t.Fatalf("Encode(%#v) = %s, not JSON: %v", v, raw, err)
			}
			if again, _ := json.Marshal(back); string(again) != string(raw) {
				t.Fatalf("Encode(%#v) = %s, encoding/json writes %s", v, raw, again)
			}
		}
	}
}

// TestFastPathsReadAsEncodingJSONDoes: on what Encode and the Append
// functions write, and on the same broken in random places, Decode,
// ParseRequest and ParseAnswer give what they give with their fast paths
// off (through encoding/json alone): the same values, the same errors.
func TestFastPathsReadAsEncodingJSONDoes(t *testing.T) {
	r := rand.New(rand.NewSource(2))
	objs := func(reflect.Value) Obj { return 77 }
	for range 30000 {
		vals := randomValues(r)
		k := r.Intn(len(vals))
		raw, _ := Encode(reflect.ValueOf(vals[k]), objs)
		data := mutate(r, raw)
		typ := reflect.TypeOf(vals[k])
		if r.Intn(5) == 0 {
			typ = reflect.TypeOf(vals[r.Intn(len(vals))])
		}
		fast, ref := reflect.New(typ), reflect.New(typ)
		var errFast, errRef error
		errFast = Decode(data, fast.Elem())
		slow(func() { errRef = Decode(data, ref.Elem()) })
		if fmt.Sprint(errFast) != fmt.Sprint(errRef) || fmt.Sprint(fast.Elem()) != fmt.Sprint(ref.Elem()) {
			t.Fatalf("Decode(%s) into %v = %v, %v; through encoding/json %v, %v", data, typ, fast.Elem(), errFast, ref.Elem(), errRef)
		}

		args := []json.RawMessage{raw}[:r.Intn(2)]
		line := AppendCall(nil, Obj(r.Intn(3)), []string{"", "Add", "<"}[r.Intn(3)], args)
		if r.Intn(3) == 0 {
			line = AppendAhead(nil, []json.RawMessage{line, line}, []json.RawMessage{raw, raw}, Obj(r.Uint64()))
		}
		readsAlike(t, "ParseRequest", mutate(r, line), ParseRequest)
		answer, _ := AppendAnswer(nil, Response{Ret: args})
		if r.Intn(3) == 0 {
			answer, _ = AppendAnswer(nil, Response{Stop: strconv.Itoa(r.Intn(20))})
		}
		readsAlike(t, "ParseAnswer", mutate(r, answer), ParseAnswer)
	}
}

// readsAlike fails t unless parse reads line as it does with its fast
// paths off.
func readsAlike[T any](t *testing.T, name string, line []byte, parse func([]byte) (T, error)) {
	t.Helper()
	got, err := parse(line)
	var want T
	var wantErr error
	slow(func() { want, wantErr = parse(line) })
	if fmt.Sprint(err) != fmt.Sprint(wantErr) || !reflect.DeepEqual(got, want) {
		t.Fatalf("%s(%s) = %+v, %v; through encoding/json %+v, %v", name, line, got, err, want, wantErr)
	}
}

// TestLinesAreWhatEncodingJSONWrites: the Append functions write a
// Request or a Response as encoding/json does, byte for byte, so the
// child's answers compare with the reference's as bytes.
func TestLinesAreWhatEncodingJSONWrites(t *testing.T) {
	r := rand.New(rand.NewSource(3))
	for range 5000 {
		var args []json.RawMessage
		for range r.Intn(3) {
			raw, _ := Encode(reflect.ValueOf(randomValues(r)[1]), nil)
			args = append(args, raw)
		}
		obj, fn := Obj(r.Intn(3)), odd[r.Intn(len(odd))]
		want, _ := json.Marshal(Request{Obj: obj, Fn: fn, Args: args})
		if got := AppendCall(nil, obj, fn, args); string(got) != string(want) {
			t.Fatalf("AppendCall = %s, encoding/json writes %s", got, want)
		}
		if len(args) > 0 {
			want, _ = json.Marshal(Request{Ahead: args, Expect: args, Base: obj})
			if got := AppendAhead(nil, args, args, obj); string(got) != string(want) {
				t.Fatalf("AppendAhead = %s, encoding/json writes %s", got, want)
			}
		}
		resp := Response{Ret: args}
		if r.Intn(4) == 0 {
			resp.Panic = &odd[r.Intn(len(odd))]
		}
		if r.Intn(3) == 0 {
			resp = Response{Stop: strconv.Itoa(r.Intn(20))}
			if r.Intn(4) == 0 {
				resp.Ret = args
			}
		}
		want, _ = json.Marshal(resp)
		if got, _ := AppendAnswer(nil, resp); string(got) != string(want) {
			t.Fatalf("AppendAnswer = %s, encoding/json writes %s", got, want)
		}
	}
}

// TestEdgesReadAsEncodingJSONDoes: the fast paths' edges (integers at
// their type's limits, digits past what they read themselves, signs;
// objects whose members are out of order, missing, unknown or given
// twice) read as they do through encoding/json alone.
func TestEdgesReadAsEncodingJSONDoes(t *testing.T) {
	integers := []string{`"0"`, `"-0"`, `"+5"`, `"007"`, `"255"`, `"256"`, `"-128"`, `"-129"`, `"127"`, `"128"`,
		`"65535"`, `"-32769"`, `"123456789012345678"`, `"-123456789012345678"`, `"1234567890123456789"`,
		`"9223372036854775807"`, `"9223372036854775808"`, `"18446744073709551615"`, `"18446744073709551616"`,
		`""`, `"-"`, `"1_000"`, `"1e3"`, `"\u0031"`, `5`, `" 5"`, `null`}
	objects := []string{`{"Alpha":"a","B":"1.5","Zeta":"3"}`, `{"Zeta":"3","Alpha":"a"}`, `{"B":"1","B":"2"}`,
		`{"Alpha":"a","Other":"x","Zeta":"300"}`, `{"Zeta":"3","Zeta":"x"}`, `{}`, `{"alpha":"lower"}`, `{"Alpha":"a",}`,
		`{"Alpha":"a\"b","Zeta":"3"}`, `{"Alpha":"\q","Zeta":"3"}`, `{"Alpha":"\u00e9","Other":"\u","Zeta":"3"}`,
		`{"Alpha":"é","Other":"\uD83D\uDE00\/\b\f\n\r\t\\","Zeta":"3"}`, `{"Alpha":"\u12G4"}`, `{"Alpha":"a\`}
	strs := []string{`"é"`, `"\u00e9"`, `"\x"`, `"\u12"`, "\"\xff\"", "\"a\tb\"", `"\u2028"`, "\"\u2028\"", `"<&>"`}
	cases := map[reflect.Type][]string{}
	for _, v := range []any{int8(0), uint8(0), int16(0), uint16(0), int32(0), uint32(0), 0, uint(0), int64(0), uint64(0), uintptr(0), Obj(0)} {
		cases[reflect.TypeOf(v)] = integers
	}
	cases[reflect.TypeOf(Obj(0))] = []string{`{"obj":"12"}`, `{"obj":"-1"}`, `{"obj":"18446744073709551615"}`, `{"obj":"18446744073709551616"}`, `{"obj":""}`}
	cases[reflect.TypeOf(leaf{})] = objects
	cases[reflect.TypeOf("")] = strs
	for typ, data := range cases {
		for _, d := range data {
			fast, ref := reflect.New(typ), reflect.New(typ)
			errFast := Decode([]byte(d), fast.Elem())
			var errRef error
			slow(func() { errRef = Decode([]byte(d), ref.Elem()) })
			if fmt.Sprint(errFast) != fmt.Sprint(errRef) || fmt.Sprint(fast.Elem()) != fmt.Sprint(ref.Elem()) {
				t.Errorf("Decode(%s) into %v = %v, %v; through encoding/json %v, %v", d, typ, fast.Elem(), errFast, ref.Elem(), errRef)
			}
		}
	}
	for _, line := range []string{`{}`, `{"stop":"3"}`, `{"stop":3}`, `{"stop":"a\"b"}`, `{"stop":"3"} `, `{"stop":"3","ret":["1"]}`, `{"ret":["\u00e9","x\"y"]}`, `{"ret":["\z"]}`} {
		readsAlike(t, "ParseAnswer", []byte(line), ParseAnswer)
	}
}
