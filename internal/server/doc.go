// Package server is the lab's web server: echo v4 handlers that gather the
// course catalogue and the learner's saved grades, render the web/page
// components, and serve the embedded static assets (with application/wasm
// for the visualization; compressed: lab.wasm as the Brotli or gzip copy
// written beside it at build time once checked against it, see
// internal/precompress, and otherwise gzip made once and cached).
//
// In single-learner mode it also serves the exercise pages' editor its
// files: the learner's exercises/<name>/, read and written through a small
// JSON API (files.go).
//
// Handlers are methods on one struct holding the interfaces they need; they
// return errors to one centralised HTTPErrorHandler that renders the
// friendly error page. The package reads no clock and opens no database:
// cmd/labserver wires a store and a static file system into New.
package server
