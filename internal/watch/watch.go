package watch

import (
	"context"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/fsnotify/fsnotify"
)

// Quiet is how long a burst of saves must stay quiet before it is
// reported. An editor's save (a temporary file, a rename, a chmod) is a
// burst of a few milliseconds; a write that comes later, once the
// grading has begun, cancels it and grades again (internal/live), so a
// short wait costs at most a build begun for nothing, and every save
// waits for it.
const Quiet = 50 * time.Millisecond

// Tree watches the exercise packages under dir and sends, on the returned
// channel, the sorted ids of the exercises whose .go files changed, once
// each burst of saves has been quiet for Quiet. The channel closes when ctx
// ends. An error means the watch could not start.
func Tree(ctx context.Context, dir string) (<-chan []string, error) {
	w, err := fsnotify.NewWatcher()
	if err != nil {
		return nil, err
	}
	add := func(p string) {
		filepath.WalkDir(p, func(p string, d fs.DirEntry, err error) error {
			if err == nil && d.IsDir() {
				w.Add(p)
			}
			return nil
		})
	}
	add(dir)
	ids := make(chan string)
	go func() {
		defer w.Close()
		defer close(ids)
		for {
			select {
			case <-ctx.Done():
				return
			case e, ok := <-w.Events:
				if !ok {
					return
				}
				if e.Has(fsnotify.Create) {
					if fi, err := os.Stat(e.Name); err == nil && fi.IsDir() {
						add(e.Name) // a new exercise folder
					}
				}
				if id, ok := exerciseOf(dir, e.Name); ok && !e.Has(fsnotify.Chmod) {
					select {
					case ids <- id:
					case <-ctx.Done():
						return
					}
				}
			case <-w.Errors:
				// An overflowed event queue: the next events still come;
				// a missed save shows at the next one.
			}
		}
	}()
	out := make(chan []string)
	go Debounce(ctx, ids, Quiet, time.After, out)
	return out, nil
}

// exerciseOf returns the exercise id of a changed path under dir: the first
// folder below dir, for a .go file in it (tests included: they are the
// learner's too).
func exerciseOf(dir, path string) (string, bool) {
	rel, err := filepath.Rel(dir, path)
	if err != nil || !strings.HasSuffix(rel, ".go") {
		return "", false
	}
	parts := strings.Split(filepath.ToSlash(rel), "/")
	if len(parts) < 2 || parts[0] == ".." || strings.HasPrefix(parts[0], ".") {
		return "", false
	}
	return parts[0], true
}

// Debounce gathers the ids arriving on in and sends them, sorted and each
// once, on out after in has been quiet for quiet (timed by after, which is
// time.After outside tests). Ids that arrive while out is not being read
// join the batch waiting to be sent. It closes out when in closes (after
// sending what it holds) or ctx ends.
func Debounce(ctx context.Context, in <-chan string, quiet time.Duration, after func(time.Duration) <-chan time.Time, out chan<- []string) {
	defer close(out)
	pending := map[string]bool{}
	var timer <-chan time.Time // nil: nothing pending, or waiting to send
	var send chan<- []string   // non-nil when a batch is ready
	batch := func() []string {
		ids := make([]string, 0, len(pending))
		for id := range pending {
			ids = append(ids, id)
		}
		slices.Sort(ids)
		return ids
	}
	for {
		select {
		case <-ctx.Done():
			return
		case id, ok := <-in:
			if !ok {
				if len(pending) > 0 {
					select {
					case out <- batch():
					case <-ctx.Done():
					}
				}
				return
			}
			pending[id] = true
			send, timer = nil, after(quiet) // wait for quiet again
		case <-timer:
			timer, send = nil, out
		case send <- batch():
			pending, send = map[string]bool{}, nil
		}
	}
}
