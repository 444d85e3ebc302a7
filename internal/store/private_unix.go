//go:build unix

package store

// unixModes: file modes say who may read a file.
const unixModes = true
