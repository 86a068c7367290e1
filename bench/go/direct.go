package main

// A direct cgo call of the blocking hl_engine_run, bypassing the binding: the
// reference for what the Go binding's asynchronous round trip costs (see
// BENCHMARKS.md, "hookline from Go").

/*
#cgo CFLAGS: -I${SRCDIR}/../../include
#cgo LDFLAGS: -L${SRCDIR}/../../target/release -lhookline -Wl,-rpath,${SRCDIR}/../../target/release
#include <stdlib.h>
#include "hookline.h"
*/
import "C"

import (
	"fmt"
	"unsafe"
)

type directEngine struct{ p *C.hl_engine }

func newDirectEngine(options string) (directEngine, error) {
	cs := C.CString(options)
	defer C.free(unsafe.Pointer(cs))
	var p *C.hl_engine
	var em *C.char
	if st := C.hl_engine_new(cs, &p, &em); st != C.HL_OK {
		defer C.hl_string_free(em)
		return directEngine{}, fmt.Errorf("hl_engine_new: %s", C.GoString(em))
	}
	return directEngine{p}, nil
}

// runPreToolUse runs PreToolUse with hl_engine_run on the calling goroutine's thread.
func (d directEngine) runPreToolUse(input string) (string, error) {
	cs := C.CString(input)
	defer C.free(unsafe.Pointer(cs))
	var out, em *C.char
	if st := C.hl_engine_run(d.p, C.HL_EVENT_PRE_TOOL_USE, cs, &out, &em); st != C.HL_OK {
		defer C.hl_string_free(em)
		return "", fmt.Errorf("hl_engine_run: %s", C.GoString(em))
	}
	defer C.hl_string_free(out)
	return C.GoString(out), nil
}

func (d directEngine) free() { C.hl_engine_free(d.p) }
