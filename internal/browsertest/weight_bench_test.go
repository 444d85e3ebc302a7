package browsertest

import (
	"testing"

	"ratelab/lab/course"
)

// BenchmarkLessonFirstFrame loads each week's lesson page, b.N times, each
// in a fresh browser context (an empty cache) against a server of its own,
// and reports what TestPageWeight measures, as benchmark figures: the time
// from navigation start to the first visualization frame (the performance
// mark "ratelab:first-frame", ms/load) and the bytes on the wire, headers
// included (B/load), of which the WebAssembly's (wasm-B/load: the week's
// build, as TestPageWeight wants it). The first load of a server is one of
// the b.N: it is the one a learner opening the lab meets. make bench runs
// it with a fixed count of loads and prints benchstat's summary; on a
// machine without Chromium it is skipped, as the browser tests are.
func BenchmarkLessonFirstFrame(b *testing.B) {
	RequireChromium(b)
	requireWasm(b)
	for _, w := range course.Weeks() {
		slug := w.Lesson.Slug
		b.Run(slug, func(b *testing.B) {
			s := StartServer(b, ServerOptions{StaticDir: assets.Dir})
			var ms, bytes, wasm float64
			for b.Loop() {
				l := loadPage(b, s, "/lessons/"+slug)
				ms += l.firstFrameMs
				bytes += float64(l.bytes)
				wasm += float64(l.wasmBytes)
			}
			b.ReportMetric(ms/float64(b.N), "ms/load")
			b.ReportMetric(bytes/float64(b.N), "B/load")
			b.ReportMetric(wasm/float64(b.N), "wasm-B/load")
			b.ReportMetric(0, "ns/op") // the wall time of a loop says nothing here: the page's own figure does
		})
	}
}
