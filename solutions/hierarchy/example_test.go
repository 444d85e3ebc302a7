package hierarchy_test

import (
	"fmt"

	"ratelab/solutions/hierarchy"
)

func ExampleTree_TryAcquire() {
	t := hierarchy.New(0)
	firm, _ := t.Add(hierarchy.Root, 3, 1) // 3 tokens for the whole firm
	a, _ := t.Add(firm, 2, 1)              // two sessions of 2 tokens each
	b, _ := t.Add(firm, 2, 1)
	fmt.Println(t.TryAcquire(a, 0, 2)) // session a and the firm pay 2
	fmt.Println(t.TryAcquire(b, 0, 2)) // b holds 2, the firm only 1: nobody pays
	fmt.Println(t.Available(b, 0))     // b still holds 2; the firm, 1
	fmt.Println(t.TryAcquire(b, 0, 1))
	// Output:
	// true
	// false
	// 1
	// true
}

func ExampleTree_Add() {
	t := hierarchy.New(0)
	firm, err := t.Add(hierarchy.Root, 100, 10)
	fmt.Println(firm, err)
	_, err = t.Add(7, 1, 1) // no node 7
	fmt.Println(err)
	// Output:
	// 0 <nil>
	// hierarchy: parent 7: unknown parent (ids so far: 0 to 0)
}

func ExampleTree_Available() {
	t := hierarchy.New(0)
	firm, _ := t.Add(hierarchy.Root, 10, 1)
	account, _ := t.Add(firm, 4, 1)
	t.TryAcquire(account, 0, 4)
	other, _ := t.Add(firm, 5, 1)                    // full as of time 0
	fmt.Println(t.Available(other, 0))               // the firm holds 6, other 5
	fmt.Println(t.Available(account, 2_000_000_000)) // 2 s at 1 token/s
	// Output:
	// 5
	// 2
}
