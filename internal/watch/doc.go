// Package watch tells which exercises changed when a learner saves: it
// watches a tree of exercise packages (exercises/<id>/*.go) with
// fsnotify and hands over, once the saves have settled, the set of
// exercise ids whose Go files were written, created, removed or renamed.
//
// An editor's save is a burst of events (a temporary file, a rename, a
// chmod); Debounce waits for a quiet moment before reporting the burst as
// one change, and a change that comes while the consumer is busy is kept
// for its next read, never lost.
package watch
