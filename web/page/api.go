package page

// The API block of each exercise page is exerciseAPI[id], in api_gen.go:
// the exported API of the stub in exercises/<id>, as Go source. It is
// generated, never written by hand, so that it cannot drift from the stubs:
// the package clause, then every exported const, var, type, func and method
// in source order, each with its doc comment and line comments; funcs
// without their bodies, and structs without their unexported fields (a
// struct with no exported field shows as "contains filtered or unexported
// fields", so a learner's own fields change nothing).
//
// internal/apigen writes it (go/parser and go/printer), and TestExerciseAPI
// (api_test.go) fails when the committed api_gen.go differs from what it
// writes today, so a stub changed without regenerating fails `go test`.
// Regenerate with
//
//	go generate ./web/page
//
//go:generate go run ../../internal/apigen/write
