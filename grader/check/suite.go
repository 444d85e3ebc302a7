package check

// Suite is every check of one exercise.
type Suite struct {
	Exercise string
	// NotStarted reports whether the implementation is still the stub: its
	// constructor, or every method, panics with the NotImplemented phrase.
	NotStarted func() bool
	Checks     []Check
}
