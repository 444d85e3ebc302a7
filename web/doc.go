// Package web holds what the lab's pages are made of: the static assets
// (CSS, icons, the in-browser editor's bundle, and, once built, the
// WebAssembly visualization) embedded in the binary so the lab works
// offline, and, in the page subpackage, the templ components that render
// each page. The editor's sources are in web/editor (JavaScript over
// CodeMirror 6); make editor bundles them into static/editor, committed.
//
// It serves nothing itself: internal/server routes requests to it.
package web
