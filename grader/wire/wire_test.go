package wire

import (
	"bufio"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"reflect"
	"strings"
	"testing"
)

type decision struct {
	Action  int
	Offer   float64
	Reason  string
	private int
}

func TestValuesSurviveTheWire(t *testing.T) {
	for _, v := range []any{
		true, uint64(math.MaxUint64), int64(math.MinInt64), uint32(7), -3,
		math.Inf(1), math.Inf(-1), 0.1, math.SmallestNonzeroFloat64, "a\nb",
		decision{Action: 2, Offer: 1.5, Reason: "frac 0.3 > high 0.05"},
		Obj(42),
	} {
		raw, err := Encode(reflect.ValueOf(v), nil)
		if err != nil {
			t.Fatalf("Encode(%v): %v", v, err)
		}
		back := reflect.New(reflect.TypeOf(v))
		if err := Decode(raw, back.Elem()); err != nil {
			t.Fatalf("Decode(%s) into %T: %v", raw, v, err)
		}
		if got := back.Elem().Interface(); !reflect.DeepEqual(got, v) {
			t.Errorf("%T %v came back as %v (wire %s)", v, v, got, raw)
		}
	}
	// NaN never equals itself: compare its bits' class instead.
	raw, _ := Encode(reflect.ValueOf(math.NaN()), nil)
	var f float64
	if err := Decode(raw, reflect.ValueOf(&f).Elem()); err != nil || !math.IsNaN(f) {
		t.Errorf("NaN came back as %v, %v", f, err)
	}
}

func TestIntegersTravelAsDecimalStrings(t *testing.T) {
	raw, _ := Encode(reflect.ValueOf(uint64(math.MaxUint64)), nil)
	if string(raw) != `"18446744073709551615"` {
		t.Errorf("MaxUint64 on the wire = %s, want the decimal string", raw)
	}
}

func TestErrorsAndObjects(t *testing.T) {
	var e error = errors.New("burst: 0 is not in [1, 10^6]")
	raw, err := Encode(reflect.ValueOf(&e).Elem(), nil)
	if err != nil {
		t.Fatal(err)
	}
	var back error
	if err := Decode(raw, reflect.ValueOf(&back).Elem()); err != nil || back == nil || back.Error() != e.Error() {
		t.Errorf("error came back as %v (%v)", back, err)
	}
	var none error
	raw, _ = Encode(reflect.ValueOf(&none).Elem(), nil)
	if string(raw) != "null" {
		t.Errorf("nil error on the wire = %s, want null", raw)
	}
	p := &decision{}
	if _, err := Encode(reflect.ValueOf(p), nil); err == nil {
		t.Error("a pointer travelled by value")
	}
	raw, err = Encode(reflect.ValueOf(p), func(reflect.Value) Obj { return 9 })
	var o Obj
	if err != nil || Decode(raw, reflect.ValueOf(&o).Elem()) != nil || o != 9 {
		t.Errorf("pointer as object: %s %v, handle %d", raw, err, o)
	}
}

func TestDecodeRefusesTheWrongKind(t *testing.T) {
	var u uint64
	for _, bad := range []string{`7`, `"-1"`, `"18446744073709551616"`, `true`, `{"obj":"1"}`} {
		if err := Decode(json.RawMessage(bad), reflect.ValueOf(&u).Elem()); err == nil {
			t.Errorf("Decode(%s) into uint64 = %d, want an error", bad, u)
		}
	}
	var b bool
	if err := Decode(json.RawMessage(`"true"`), reflect.ValueOf(&b).Elem()); err == nil {
		t.Error(`Decode("true") into bool succeeded, want an error`)
	}
}

func TestResultsCountMustMatch(t *testing.T) {
	var a, b bool
	if err := Results([]json.RawMessage{json.RawMessage(`true`)}, []any{&a, &b}); err == nil {
		t.Error("one result decoded into two, want an error")
	}
}

type class struct {
	Orders, Cancels struct{ Capacity, RatePerSec uint64 }
}

type config struct {
	Classes        map[string]class
	SilenceAfterNs uint64
}

func TestMapsWithStringKeysSurviveTheWire(t *testing.T) {
	cfg := config{Classes: map[string]class{"regular": {}, "market-maker": {}, "": {}}, SilenceAfterNs: 5}
	mm := cfg.Classes["market-maker"]
	mm.Orders.Capacity, mm.Cancels.RatePerSec = math.MaxUint64, 7
	cfg.Classes["market-maker"] = mm
	for _, v := range []any{cfg, config{}, config{Classes: map[string]class{}}, map[string]int{"b": 2, "a": 1}} {
		raw, err := Encode(reflect.ValueOf(v), nil)
		if err != nil {
			t.Fatalf("Encode(%v): %v", v, err)
		}
		back := reflect.New(reflect.TypeOf(v))
		if err := Decode(raw, back.Elem()); err != nil {
			t.Fatalf("Decode(%s) into %T: %v", raw, v, err)
		}
		if got := back.Elem().Interface(); !reflect.DeepEqual(got, v) {
			t.Errorf("%T %v came back as %v (wire %s)", v, v, got, raw)
		}
	}
}

func TestMapsTravelInSortedKeyOrder(t *testing.T) {
	m := map[string]uint8{}
	for _, k := range []string{"z", "a", "m", "b", "y"} {
		m[k] = 1
	}
	for range 10 { // map iteration order varies from run to run
		raw, err := Encode(reflect.ValueOf(m), nil)
		if err != nil {
			t.Fatal(err)
		}
		if want := `[["a","1"],["b","1"],["m","1"],["y","1"],["z","1"]]`; string(raw) != want {
			t.Fatalf("map on the wire = %s, want %s", raw, want)
		}
	}
}

func TestOnlyStringKeysTravel(t *testing.T) {
	if _, err := Encode(reflect.ValueOf(map[int]string{1: "a"}), nil); err == nil {
		t.Error("a map with int keys travelled")
	}
	var m map[int]string
	if err := Decode(json.RawMessage(`[["1","a"]]`), reflect.ValueOf(&m).Elem()); err == nil {
		t.Error("a map with int keys was decoded")
	}
}

// TestSitesSurviveTheWire: a profiled run's answer, its sites included,
// reads back as it was written; an answer without them has none.
func TestSitesSurviveTheWire(t *testing.T) {
	resp := Response{Digest: "7", Allocs: "120", WallNs: "99", Sites: []Site{
		{File: "fairqueue.go", Line: "41", Callee: "runtime.growslice", Count: "100"},
		{File: "ring.go", Line: "7", Count: "2"},
	}}
	line, err := AppendAnswer(nil, resp)
	if err != nil {
		t.Fatal(err)
	}
	got, err := ParseAnswer(line)
	if err != nil || !reflect.DeepEqual(got, resp) {
		t.Errorf("ParseAnswer(%s) = %+v, %v; want %+v", line, got, err, resp)
	}
	if got, _ := ParseAnswer([]byte(`{"digest":"7","allocs":"1","wall_ns":"9"}`)); got.Sites != nil {
		t.Errorf("an answer without sites read as %+v", got.Sites)
	}
}

// ReadLine returns each line whole up to MaxLine bytes, and ErrLongLine for
// a longer one, which it reads no further.
func TestReadLine(t *testing.T) {
	full := strings.Repeat("x", MaxLine)
	r := bufio.NewReaderSize(strings.NewReader("short\n"+full+"\n"+full+"y\nnext\n"), 4096)
	for _, want := range []string{"short", full} {
		if got, err := ReadLine(r); err != nil || string(got) != want {
			t.Fatalf("ReadLine = %d bytes, %v; want %d bytes", len(got), err, len(want))
		}
	}
	if got, err := ReadLine(r); !errors.Is(err, ErrLongLine) {
		t.Fatalf("ReadLine of %d bytes = %d bytes, %v; want ErrLongLine", MaxLine+1, len(got), err)
	}
}

// status is a result of the shape the suites' calls answer with: a struct
// of numbers and enums, one nested.
type status struct {
	State       uint8
	RecoverAtNs uint64
	MaxCalls    uint64
	WindowNs    uint64
	Level       int
	Reason      string
	Congestion  struct {
		WindowNs, LowBelow, HighAbove uint64
		ReduceBps, IncreaseBps        uint32
	}
}

// BenchmarkStructRoundTrip encodes a call's result and decodes it back,
// as the grader and the grading child do for every call.
func BenchmarkStructRoundTrip(b *testing.B) {
	v := status{State: 2, RecoverAtNs: 1_700_000_000_123, MaxCalls: 40, WindowNs: 1e9, Level: 1, Reason: "rate limited"}
	v.Congestion.WindowNs, v.Congestion.HighAbove, v.Congestion.ReduceBps = 5e8, 90, 2500
	var back status
	out := reflect.ValueOf(&back).Elem()
	b.ReportAllocs()
	for b.Loop() {
		raw, err := Encode(reflect.ValueOf(v), nil)
		if err != nil {
			b.Fatal(err)
		}
		if err := Decode(raw, out); err != nil {
			b.Fatal(err)
		}
	}
	if back != v {
		b.Fatalf("came back as %+v", back)
	}
}

// BenchmarkScalarRoundTrip does the same for a call's arguments, mostly
// integers.
func BenchmarkScalarRoundTrip(b *testing.B) {
	args := []any{uint64(1_700_000_000_123), uint64(77), true}
	var t, addr uint64
	var on bool
	outs := []any{&t, &addr, &on}
	b.ReportAllocs()
	for b.Loop() {
		raw, err := Args(args)
		if err != nil {
			b.Fatal(err)
		}
		if err := Results(raw, outs); err != nil {
			b.Fatal(err)
		}
	}
}

// TestTransparentValuesComeBackAsTheyAre: a value Transparent says the
// wire gives back as it is does come back equal, bit for bit; those it
// says do not are those that would not (or that are not plain values).
func TestTransparentValuesComeBackAsTheyAre(t *testing.T) {
	type plain struct {
		N int8
		F float32
		S string
		L leaf
	}
	yes := []any{true, int8(-128), uint16(65535), uintptr(9), math.Inf(-1), -0.0, float32(0.1), "é<&>\n",
		Obj(3), plain{N: -1, F: 1.5, S: "x", L: leaf{Zeta: 3, Alpha: "a", B: 2}}, leaf{}}
	no := []any{math.NaN(), string([]byte{0xff}), plain{S: string([]byte{0xc3})}, decision{Action: 1},
		errors.New("e"), map[string]int{"a": 1}, &leaf{}, []int{1}}
	for _, v := range yes {
		if !Transparent(reflect.ValueOf(v)) {
			t.Errorf("Transparent(%#v) = false, want true", v)
			continue
		}
		raw, err := Encode(reflect.ValueOf(v), nil)
		if err != nil {
			t.Fatal(err)
		}
		back := reflect.New(reflect.TypeOf(v))
		if err := Decode(raw, back.Elem()); err != nil {
			t.Fatal(err)
		}
		if got := back.Elem().Interface(); fmt.Sprintf("%#v", got) != fmt.Sprintf("%#v", v) || math.Signbit(toFloat(got)) != math.Signbit(toFloat(v)) {
			t.Errorf("%#v came back as %#v", v, got)
		}
	}
	for _, v := range no {
		if Transparent(reflect.ValueOf(v)) {
			t.Errorf("Transparent(%#v) = true, want false", v)
		}
	}
}

// toFloat is v as a float64 if it is one, else 0.
func toFloat(v any) float64 {
	f, _ := v.(float64)
	return f
}
