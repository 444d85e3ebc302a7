package traffic_test

import (
	"fmt"

	"ratelab/lab/traffic"
)

func ExampleNewSteady() {
	s := traffic.NewSteady(0, 100_000) // every 100 µs
	fmt.Println(s.Next(), s.Next(), s.Next())
	// Output: 0 100000 200000
}

// The edge attack on 3 messages per second: 3 in the 50 ms before 1 s and 3
// in the 50 ms after.
func ExampleNamed() {
	s, _ := traffic.Named(traffic.EdgeName, 3, 1_000_000_000, 0)
	for range 6 {
		fmt.Printf("%.3f s\n", float64(s.Next())/1e9)
	}
	// Output:
	// 0.950 s
	// 0.967 s
	// 0.983 s
	// 1.000 s
	// 1.017 s
	// 1.033 s
}
