//go:build !cgo

package hookline

// hookline binds the C library libhookline and cannot be built without cgo.
// This file exists so that such a build fails with a message saying so
// (rather than with undefined names): enable cgo (CGO_ENABLED=1, a C compiler
// on PATH) and install libhookline (see README.md).
var _ = hookline_requires_cgo__set_CGO_ENABLED_1_and_install_a_C_compiler
