// Package buildcache keeps built files (the grader's child programs) by a
// key computed from everything that went into them, so that a regrade or a
// resubmission of identical files is not built again.
//
// A Cache is a folder of entries, one file per key. It is safe for
// concurrent use by goroutines and by processes sharing the folder: an
// entry is written to a temporary file in the folder and renamed into
// place, so a reader sees a whole entry or none. Every entry carries the
// SHA-256 of its content, checked on every read (Open, which serves an
// entry from its file, checks a file once per process): an entry that is
// truncated, altered or unreadable is a miss (and removed), never a wrong
// file. The folder is bounded: after each Put, the entries least recently
// used (by modification time, which Get refreshes) are removed until the
// total is within the cap.
//
// It knows nothing of Go or of grading: what goes into a key is the
// caller's business (see Key).
package buildcache
