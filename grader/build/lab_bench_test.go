package build_test

import (
	"context"
	"fmt"
	"path/filepath"
	"testing"
	"time"

	"ratelab/grader/build"
	"ratelab/grader/sandbox"
	"ratelab/internal/precompress"
	"ratelab/internal/weekbuild"
)

// BenchmarkYoursBuild measures a learner's Yours as class mode makes it:
// the lab's WebAssembly built with the learner's code in the sandbox
// (build.Lab, its Go build cache warm, as a server's is after its
// first build), each time new code (the reference tokenbucket with a
// comment of its own), then its gzip copy, which the learner's page can
// use at once, and its Brotli copy, which class mode makes afterwards. It
// reports the build's ms, the gzip copy's and the Brotli copy's, and the
// bytes of each copy: of week 1's build, what its lesson runs, and of the
// build of every week, what a Replay runs.
func BenchmarkYoursBuild(b *testing.B) {
	for _, c := range []struct{ name, tags string }{{"build=week-1", weekbuild.YoursTags(1)}, {"build=every-week", ""}} {
		b.Run(c.name, func(b *testing.B) { benchYoursBuild(b, c.tags) })
	}
}

func benchYoursBuild(b *testing.B, tags string) {
	dir := b.TempDir()
	// builds builds the lab with the reference and comment k into dir.
	builds := func(k int) string {
		lb := build.Lab{Root: root(b), Tags: tags, Files: labFiles(b, fmt.Sprintf("\n// build %d\n", k)), Sandbox: &sandbox.Sandbox{Log: func(string, ...any) {}}, TempDir: dir}
		out := filepath.Join(dir, fmt.Sprintf("lab%d.wasm", k))
		if err := lb.Build(context.Background(), out); err != nil {
			b.Fatal(err)
		}
		return out
	}
	builds(0) // the sandbox's Go build cache warm
	var build, gz, br, gzBytes, brBytes float64
	n := 0
	for b.Loop() {
		n++
		start := time.Now()
		out := builds(n)
		build += float64(time.Since(start).Milliseconds())
		for _, c := range []struct {
			enc        string
			ms, nbytes *float64
		}{{"gzip", &gz, &gzBytes}, {"br", &br, &brBytes}} {
			copies, err := precompress.Write(out, c.enc)
			if err != nil || len(copies) != 1 {
				b.Fatalf("%s copy: %v %v", c.enc, copies, err)
			}
			*c.ms += float64(copies[0].Took.Milliseconds())
			*c.nbytes += float64(copies[0].Size)
		}
	}
	k := float64(b.N)
	b.ReportMetric(build/k, "build-ms")
	b.ReportMetric(gz/k, "gzip-ms")
	b.ReportMetric(br/k, "br-ms")
	b.ReportMetric(gzBytes/k, "gzip-B")
	b.ReportMetric(brBytes/k, "br-B")
	b.ReportMetric(0, "ns/op")
}
