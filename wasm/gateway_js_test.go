package main

import (
	"bytes"
	"strings"
	"testing"

	"ratelab/lab/gateway"
)

func TestGatewayStepMatchesLab(t *testing.T) {
	s := newJS(t, "newGatewaySim", map[string]any{"impl": "reference"})
	want, err := gateway.New(gateway.DefaultScenario(), gateway.Reference)
	if err != nil {
		t.Fatal(err)
	}
	var sent [2]int
	buf := uint8Array(gateway.EncodedLen)
	for _, until := range []float64{0, 16.7e6, 2.5e9, 9.5e9, 40e9, 40e9} {
		n := s.Call("step", until, buf).Int()
		want.Step(uint64(until))
		b := want.Encode(nil, &sent)
		if n != len(b) || !bytes.Equal(goBytes(buf, n), b) {
			t.Fatalf("step(%v): %d bytes, differ from gateway's Encode", until, n)
		}
	}
	info := s.Call("info")
	if info.Get("implStatus").String() != "Reference" || !info.Get("done").Bool() || info.Get("reloadErrors").Index(0).String() != "" {
		t.Errorf("info() = %v, %v, %v; want Reference, done, no reload error", info.Get("implStatus"), info.Get("done"), info.Get("reloadErrors"))
	}
	p := api().Get("gateway")
	if p.Get("bytes").Int() != gateway.EncodedLen || p.Get("scenario").Get("reload").Get("orders").Get("capacity").Int() != 4 {
		t.Error("ratelab.gateway: bytes or the reload's budgets are not gateway's")
	}
}

func TestGatewayYoursAndErrors(t *testing.T) {
	s := newJS(t, "newGatewaySim", map[string]any{"impl": "yours"})
	s.Call("step", 1e9, uint8Array(gateway.EncodedLen))
	status := s.Call("info").Get("implStatus").String()
	if status != "Yours" && !strings.HasPrefix(status, "Yours: ") {
		t.Errorf("implStatus = %q, want Yours, or Yours and why it stopped", status)
	}
	t.Logf("gateway: implStatus %s", status)
	for _, cfg := range []any{nil, map[string]any{"impl": "theirs"}} {
		if e := api().Call("newGatewaySim", cfg).Get("error"); e.IsUndefined() {
			t.Errorf("newGatewaySim(%v) made a run", cfg)
		}
	}
}
