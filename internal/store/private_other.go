//go:build !unix

package store

// unixModes: file modes do not say who may read a file here.
const unixModes = false
