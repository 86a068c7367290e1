package hookline

/*
#include <stdlib.h>
#include <string.h>
#include "hookline.h"
*/
import "C"

// The header is the copy in this directory, so the module builds from the
// module cache and vendored; link_*.go choose how the library is linked.

import (
	"strings"
	"unsafe"
)

// Version returns the version of the linked libhookline, e.g. "0.1.0".
func Version() string {
	return C.GoString(C.hl_version())
}

// cString copies s to C memory (free with C.free). A string containing a NUL
// byte cannot cross the C boundary intact and is rejected.
func cString(s, what string) (*C.char, error) {
	if strings.IndexByte(s, 0) >= 0 {
		return nil, &Error{Status: StatusInvalidArgument, Message: what + " must not contain a NUL byte"}
	}
	return C.CString(s), nil
}

// cBytes copies JSON text to a NUL-terminated C string (free with C.free).
func cBytes(b []byte, what string) (*C.char, error) {
	for _, c := range b {
		if c == 0 {
			return nil, &Error{Status: StatusInvalidArgument, Message: what + " must not contain a NUL byte"}
		}
	}
	return (*C.char)(C.CBytes(append(b[:len(b):len(b)], 0))), nil
}

// goBytes copies a NUL-terminated C string into Go memory.
func goBytes(p *C.char) []byte {
	if p == nil {
		return nil
	}
	n := int(C.strlen(p))
	out := make([]byte, n)
	copy(out, unsafe.Slice((*byte)(unsafe.Pointer(p)), n))
	return out
}

// takeString copies a string hookline returned and frees it.
func takeString(p *C.char) []byte {
	if p == nil {
		return nil
	}
	b := goBytes(p)
	C.hl_string_free(p)
	return b
}

// freeC releases memory allocated by cString/cBytes.
func freeC(p *C.char) {
	C.free(unsafe.Pointer(p))
}
