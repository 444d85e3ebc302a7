package governor_test

import (
	"fmt"

	"ratelab/lab/adaptive"
	"ratelab/lab/governor"
	"ratelab/lab/target"
)

// Against the robust target the governor doubles from the floor to the
// ceiling in five clean windows, log2(200/10) rounded up.
func Example() {
	r, err := governor.New(governor.DefaultConfig(target.RobustName), adaptive.Reference)
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, w := range r.Step(6) {
		fmt.Printf("window %d: offer %g, %d of %d attempts failed: %s\n",
			w.Index, w.Offer, w.Counts.AttemptFailures, w.Counts.Attempts, w.Decision.Reason)
	}
	// Output:
	// window 0: offer 10, 0 of 100 attempts failed: frac 0 <= low 0.01, no congestion memory: double to 20
	// window 1: offer 20, 0 of 200 attempts failed: frac 0 <= low 0.01, no congestion memory: double to 40
	// window 2: offer 40, 0 of 400 attempts failed: frac 0 <= low 0.01, no congestion memory: double to 80
	// window 3: offer 80, 0 of 800 attempts failed: frac 0 <= low 0.01, no congestion memory: double to 160
	// window 4: offer 160, 0 of 1600 attempts failed: frac 0 <= low 0.01, no congestion memory: double to 200 (ceiling)
	// window 5: offer 200, 0 of 2000 attempts failed: frac 0 <= low 0.01, no congestion memory: double to 200 (ceiling)
}

// The movement log of the fragile target: one line per window that moved
// the offer or the memory, naming its signal. Windows in the dead band
// hold and are not lines.
func ExampleWindow_Moved() {
	r, _ := governor.New(governor.DefaultConfig(target.FragileName), adaptive.Reference)
	for _, w := range r.Step(14) {
		if w.Moved() {
			fmt.Printf("%d: %s\n", w.Index, w.Decision.Reason)
		}
	}
	// Output:
	// 0: frac 0 <= low 0.01, no congestion memory: double to 20
	// 1: frac 0 <= low 0.01, no congestion memory: double to 40
	// 2: frac 0.51 > high 0.05: back off x0.49 to 19.5
	// 3: frac 0 <= low 0.01, below 75% of last bad 40: recover x1.5 to 29.25
	// 4: frac 0 <= low 0.01, below 75% of last bad 40: recover x1.5 to 30
	// 11: frac 0 <= low 0.01, at or above 75% of last bad 40: probe +1 to 31
	// 12: frac 0.06 > high 0.05: back off x0.9 to 27.9
	// 13: frac 0 <= low 0.01, at or above 75% of last bad 31: probe +1 to 28.9
}

// Without a governor the client offers its ceiling of 200 to a target that
// serves 170: a fifth of all attempts fail, yet the tries wrapper keeps the
// dashboard's ok % green.
func ExampleConfig_fixed() {
	cfg := governor.DefaultConfig(target.DegradesName)
	cfg.Fixed = true
	r, _ := governor.New(cfg, adaptive.Reference)
	w := r.Step(1)[0]
	fmt.Printf("capacity %g, offer %g: attempt failure %.0f%%, requests ok %.1f%%\n", w.Capacity, w.Offer, 100*w.AttemptFailure(), 100*w.OK())
	fmt.Println(r.ImplStatus())
	// Output:
	// capacity 170, offer 200: attempt failure 22%, requests ok 98.7%
	// No governor
}
