// Package web holds what the lab's pages are made of: the static assets
// (CSS, icons, and, once built, the WebAssembly visualization) embedded in
// the binary so the lab works offline, and, in the page subpackage, the
// templ components that render each page.
//
// It serves nothing itself: internal/server routes requests to it.
package web
