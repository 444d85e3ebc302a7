package gateway_test

import (
	"fmt"

	"ratelab/solutions/gateway"
)

func ExampleGateway_Admit() {
	g, _ := gateway.New(gateway.Config{
		Classes: map[string]gateway.Class{
			// 2 orders of burst, 1,000 a second; cancels unlimited.
			"regular": {Orders: gateway.Budget{Capacity: 2, RatePerSec: 1000}},
		},
	}, 0)
	g.Open(7, "regular", 0)
	fmt.Println(g.Admit(7, gateway.NewOrder, 0))
	fmt.Println(g.Admit(7, gateway.Modify, 0))
	fmt.Println(g.Admit(7, gateway.NewOrder, 400_000)) // 0.4 of a token earned
	fmt.Println(g.Admit(7, gateway.Cancel, 400_000))   // cancels are not throttled here
	fmt.Println(g.Admit(7, gateway.NewOrder, 1_000_000))
	// Output:
	// {0  0}
	// {0  0}
	// {1 orders 600000}
	// {0  0}
	// {0  0}
}

func ExampleGateway_Admit_escalation() {
	g, _ := gateway.New(gateway.Config{
		Classes:           map[string]gateway.Class{"regular": {Orders: gateway.Budget{Capacity: 1, RatePerSec: 1}}},
		SilenceAfterNs:    1_000,
		DisconnectAfterNs: 5_000,
	}, 0)
	g.Open(1, "regular", 0)
	for _, t := range []uint64{0, 10, 1_010, 5_010, 5_020} {
		fmt.Println(t, g.Admit(1, gateway.NewOrder, t).Outcome)
	}
	fmt.Println(g.Open(1, "regular", 6_000)) // reconnect: the bucket is still empty
	fmt.Println(g.Admit(1, gateway.NewOrder, 6_000).Outcome)
	// Output:
	// 0 0
	// 10 1
	// 1010 2
	// 5010 3
	// 5020 3
	// <nil>
	// 1
}

func ExampleConfig_Validate() {
	err := gateway.Config{Classes: map[string]gateway.Class{
		"market-maker": {Orders: gateway.Budget{Capacity: 100, RatePerSec: 1000}, Cancels: gateway.Budget{Capacity: 50, RatePerSec: 1000}},
	}}.Validate()
	fmt.Println(err)
	// Output:
	// class "market-maker": Cancels.Capacity: 50 is below Orders.Capacity 100 (0 means unlimited)
}
