package web

import (
	"embed"
	"errors"
	"io/fs"
	"os"
)

// embedded holds web/static. Files the build leaves there before `go build`
// (lab.wasm and wasm_exec.js from `make wasm`, both gitignored) are embedded
// too; without them the pages still work and say the visualization is not
// built.
//
//go:embed static
var embedded embed.FS

// Static returns the static assets, rooted so that "lab.css" is
// web/static/lab.css. If dir is not empty, a file present in dir is served
// from disk in preference to the embedded copy, so a freshly built lab.wasm
// shows up without rebuilding the server.
func Static(dir string) fs.FS {
	base, err := fs.Sub(embedded, "static")
	if err != nil {
		panic(err) // the embed pattern guarantees the folder exists
	}
	if dir == "" {
		return base
	}
	return Prefer(dir, base)
}

// Prefer returns base with the files of the folder dir served in its
// place, when dir has them: a lab.wasm built after the server, or the
// live loop's rebuilt one, over the one the server started with.
func Prefer(dir string, base fs.FS) fs.FS {
	return overlay{top: os.DirFS(dir), base: base}
}

// overlay serves a file from top if top has it, otherwise from base.
type overlay struct {
	top, base fs.FS
}

func (o overlay) Open(name string) (fs.File, error) {
	f, err := o.top.Open(name)
	if err == nil {
		return f, nil
	}
	if !errors.Is(err, fs.ErrNotExist) {
		return nil, err
	}
	return o.base.Open(name)
}
