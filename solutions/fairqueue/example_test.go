package fairqueue_test

import (
	"fmt"

	"ratelab/solutions/fairqueue"
)

func ExampleQueue_Pop() {
	q := fairqueue.New(100)
	for range 3 {
		q.Push(1, 100) // session 1 floods
	}
	q.Push(2, 60) // session 2 sends two small commands
	q.Push(2, 40)
	for q.Len() > 0 {
		s, cost, _ := q.Pop()
		fmt.Println(s, cost)
	}
	_, _, ok := q.Pop()
	fmt.Println(ok)
	// Output:
	// 1 100
	// 2 60
	// 2 40
	// 1 100
	// 1 100
	// false
}

func ExampleQueue_Push() {
	q := fairqueue.New(10)
	q.Push(7, 25) // more than one turn's quantum: served on its third turn
	q.Push(8, 10)
	for q.Len() > 0 {
		s, cost, _ := q.Pop()
		fmt.Println(s, cost)
	}
	// Output:
	// 8 10
	// 7 25
}
