// Package harness is the main loop of the grading child process: the
// program the grader builds from the learner's code and a generated adapter
// per exercise, and talks to through package wire.
//
// The child decides nothing. It reads one request at a time on standard
// input (a call, as data), makes that call on the learner's code, and writes
// the raw results, or the panic's message, on standard output. Before
// serving, it points os.Stdout at standard error, so what the learner's code
// prints is kept as output, never read as an answer. Benchmarks run the
// loop the grader names for as many iterations as it asks and answer with a
// digest of the loop's decisions; the grader times them from outside.
package harness
