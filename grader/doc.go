// Package grader grades a tree of exercise packages and returns a report
// (package report): it builds a child program from the learner's code and
// the suites (package suite/...), runs it with a deadline per check and a
// limit of CPU time per call, and collects the results.
//
// The learner's code never runs in the grader's own process. A panic fails
// a check with the panic's message; a call that does not return within its
// CPU time, or a check within its deadline, is a timeout naming the call,
// and the child is restarted at the next check; a crash of the
// whole child fails the check it was running; a build error marks only the
// exercises whose code does not build. Alternative sources (test fixtures,
// uploaded submissions) replace an exercise's files through go build's
// -overlay, so the module tree is never copied or modified (and with the
// go command's folder index off: see build.NoModuleIndex). GradeVariants grades
// many replacements of one exercise from one build, as the grader's own
// fixture tests do.
package grader
