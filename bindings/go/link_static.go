//go:build cgo && hookline_static

package hookline

// With `-tags hookline_static`: libhookline.a is linked into the program
// (hookline-static.pc names the archive and the system libraries it needs),
// so nothing has to be found at run time.

/*
#cgo pkg-config: hookline-static
*/
import "C"
