// Package precompress writes, beside a static file, the compressed copies a
// server sends in its place to a browser that accepts them: name.br
// (Brotli) and name.gz (gzip), and checks whether such a copy still holds
// the file's content.
//
// It exists for the lab's WebAssembly, lab.wasm and the weeks' builds
// (internal/weekbuild), megabytes each: gzip takes a fraction of a second,
// Brotli up to about 2 s of one core at the quality used (BrotliQuality),
// too slow to run per request or to hold up the first page. So `make wasm`
// writes the gzip copies (through internal/precompress/write), and the
// Brotli ones are written after, in the background where a server is
// waiting to serve (Keep: `make run`, the live loop's rebuilds);
// internal/server serves whichever copies are there. A copy is only as
// good as its check: a file rebuilt without them, or a copy left by an
// older build, must never be served, so the server serves a copy only once
// it has decoded it to the file's exact content (Matches).
//
// It is not a general static-file compressor: it writes the two encodings
// every browser the lab supports accepts, and nothing else.
package precompress
