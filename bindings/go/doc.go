// Package hookline is the Go binding of libhookline, a lifecycle-hook engine
// for AI coding agents (the Claude Code / VT Code hooks protocol).
//
// Two entry points mirror the C ABI (include/hookline.h):
//
//   - [Engine] runs the user's configured shell hooks (and Go callback hooks)
//     at agent lifecycle events and returns one merged, typed outcome per
//     event, behind a workspace approval gate.
//   - [Registry] is an in-process registry of named Go callbacks per hook
//     point (pre_turn, pre_tool_call_decide, transform_tool_input, ...).
//
// The binding is a thin layer: every rule (exit codes, matchers, merging,
// the approval digest) lives in the C library; this package converts Go
// values to the library's JSON and back.
//
// # Package name
//
// The import path ends in "go" (the bindings/go directory of the hookline
// repository, next to bindings/node), but "go" is a Go keyword and cannot
// name a package, so the package is called hookline. Import it with an
// explicit name, which says so at the import site:
//
//	import hookline "github.com/hookline/hookline/bindings/go"
//
// # Linking
//
// The package links libhookline with cgo. By default it looks for the header
// in ../../include and the library in ../../target/release of the hookline
// source tree (run `cargo build --release` at its root first), and records
// that directory as the run-time search path. To use an installed library,
// point cgo at it, e.g.
//
//	CGO_CFLAGS="-I/usr/local/include" CGO_LDFLAGS="-L/usr/local/lib -Wl,-rpath,/usr/local/lib" go build
//
// # Callbacks and threads
//
// Go callbacks are kept alive with runtime/cgo.Handle; the library releases
// each handle exactly once (on replacement, unregistration or Close).
// Callbacks may run on threads the Go runtime did not create (hookline's own
// threads), concurrently. A panic in a callback is recovered and reported to
// hookline as a callback failure, and so is an error return: a
// pre_tool_call_decide callback that fails therefore denies (fail closed),
// while an engine callback hook that fails counts as a hook that exited with
// code 1 (a warning, no decision: fail open). EngineOptions.OnCallbackError
// and RegistryOptions.OnCallbackError receive each failure with the Go error
// or panic value ([CallbackFailure]).
//
// # Closing
//
// Engines and registries must be closed with Close. Close is safe to call
// concurrently with other methods, more than once, and from inside a
// callback (it then does not wait for the runs in flight).
package hookline
