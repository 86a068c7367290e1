//go:build cgo && !hookline_static

package hookline

// Linking against the shared library, found by pkg-config (hookline.pc,
// installed by `make install`; see README.md). `-tags hookline_static`
// selects link_static.go instead. The choice lives in its own file, not in a
// tag-conditional #cgo line, so that Go's build cache keeps the two apart.

/*
#cgo pkg-config: hookline
*/
import "C"
