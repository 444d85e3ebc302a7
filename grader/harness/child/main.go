// Command child is the grading child program: it serves the exercises
// registered with the harness to the grader. The grader builds it with a
// build overlay that adds, beside this file, one package per graded
// exercise (a copy of its adapter, see package ratelab/grader/adapter) and
// a file importing them; built alone, it serves none.
package main

import "ratelab/grader/harness"

func main() { harness.Main() }
