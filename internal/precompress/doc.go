// Package precompress writes, beside a static file, the compressed copies a
// server sends in its place to a browser that accepts them: name.br
// (Brotli at its best quality) and name.gz (gzip at its best compression),
// and checks whether such a copy still holds the file's content.
//
// It exists for lab.wasm (5.5 MB; 1.09 MB as Brotli, 1.50 MB as gzip):
// Brotli's best quality takes about 10 s of one core for it, too slow to
// run per request, so `make wasm` (through internal/precompress/write) and the browser
// tests' BuildAssets write the copies once, and internal/server serves them.
// A copy is only as good as its check: a lab.wasm rebuilt without them, or
// a copy left by an older build, must never be served, so the server serves
// a copy only once it has decoded it to the file's exact content
// (Matches).
//
// It is not a general static-file compressor: it writes the two encodings
// every browser the lab supports accepts, and nothing else.
package precompress
