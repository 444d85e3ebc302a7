//go:build !linux

package harness

func limitResources() {}
