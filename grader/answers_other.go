//go:build !unix

package grader

import (
	"errors"
	"os"
	"time"
)

// answerPipe returns the pipe the child answers on: an os.Pipe, read by a
// goroutine that passes the answers on (direct is false).
func answerPipe() (r, w *os.File, direct bool, err error) {
	r, w, err = os.Pipe()
	return r, w, false, err
}

// waitReadable is not used where answers are not read directly.
func waitReadable(*os.File, time.Duration) (bool, error) {
	return false, errors.New("waitReadable: not on this platform")
}
