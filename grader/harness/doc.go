// Package harness is the main loop of the grading child process: the
// program the grader builds from the learner's code and a generated adapter
// per exercise, and talks to through package wire.
//
// The child decides nothing. It reads one request at a time on standard
// input (a call, as data), makes that call on the learner's code, and writes
// the raw results, or the panic's message, on standard output. Before
// serving, it points os.Stdout at standard error, so what the learner's code
// prints is kept as output, never read as an answer. A benchmark run takes
// two requests: the first prepares it (the loop the grader names builds its
// state and draws its traffic from the seed the grader sends, then warms
// up), the second makes as many iterations as the grader asks, counting
// their heap allocations, and answers with a digest of their decisions;
// the grader times the second from outside. A run the grader asks to
// profile, one more after the timed ones when they allocate, is made with
// every allocation recorded, and answered with the lines of the learner's
// package they were made at: advice the grader checks, never a figure it
// grades.
package harness
