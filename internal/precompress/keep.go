package precompress

import "sync"

// Keep keeps the copies of the file at path up to date in the background,
// for a server that serves them as soon as they are there (gzip at once,
// Brotli a couple of seconds later), so that making them never holds up a
// page. touch asks for them to be written for the file as it is then (see
// Write): one goroutine writes them, and writes them again if touch was
// called meanwhile (the file was rebuilt), so the last copies written are
// the last file's. report, if not nil, is told what each Write did. stop
// waits for a Write under way and ends the goroutine; touch does nothing
// after it. Keep is safe for concurrent use.
func Keep(path string, report func([]Copy, error)) (touch, stop func()) {
	var (
		mu      sync.Mutex
		pending bool // touched since the last Write began
		running bool // a goroutine is writing
		stopped bool
		wg      sync.WaitGroup
	)
	run := func() {
		defer wg.Done()
		for {
			mu.Lock()
			if !pending || stopped {
				running = false
				mu.Unlock()
				return
			}
			pending = false
			mu.Unlock()
			copies, err := Write(path)
			if report != nil {
				report(copies, err)
			}
		}
	}
	touch = func() {
		mu.Lock()
		defer mu.Unlock()
		if stopped {
			return
		}
		pending = true
		if !running {
			running = true
			wg.Add(1)
			go run()
		}
	}
	stop = func() {
		mu.Lock()
		stopped = true
		mu.Unlock()
		wg.Wait()
	}
	return touch, stop
}
