package hookline

/*
#include "hookline.h"
*/
import "C"

import (
	"fmt"
	"strconv"
)

// Status is an hl_status code returned by the C library.
type Status int32

// The hl_status values, taken from the C header (docs/c-api.md).
const (
	StatusOK              Status = C.HL_OK
	StatusNullArgument    Status = C.HL_ERR_NULL_ARGUMENT
	StatusInvalidUTF8     Status = C.HL_ERR_INVALID_UTF8
	StatusInvalidJSON     Status = C.HL_ERR_INVALID_JSON
	StatusInvalidArgument Status = C.HL_ERR_INVALID_ARGUMENT
	StatusInvalidConfig   Status = C.HL_ERR_INVALID_CONFIG
	StatusNotFound        Status = C.HL_ERR_NOT_FOUND
	StatusCancelled       Status = C.HL_ERR_CANCELLED
	StatusWrongThread     Status = C.HL_ERR_WRONG_THREAD
	StatusClosed          Status = C.HL_ERR_CLOSED
	StatusIO              Status = C.HL_ERR_IO
	StatusPanic           Status = C.HL_ERR_PANIC
	StatusForked          Status = C.HL_ERR_FORKED
)

// String returns the C constant's name, e.g. "HL_ERR_INVALID_JSON".
func (s Status) String() string {
	if p := C.hl_status_name(C.hl_status(s)); p != nil {
		return C.GoString(p)
	}
	return "hl_status(" + strconv.Itoa(int(s)) + ")"
}

// Error is a failure reported by hookline: the hl_status and the library's
// message. Use errors.Is with the Err* sentinels to test the status:
//
//	if errors.Is(err, hookline.ErrInvalidConfig) { ... }
type Error struct {
	Status  Status
	Message string
	cause   error
}

// Error formats the status name and the library's message.
func (e *Error) Error() string {
	if e.Message == "" {
		return "hookline: " + e.Status.String()
	}
	return "hookline: " + e.Status.String() + ": " + e.Message
}

// Is reports whether target is an *Error with the same Status, so that the
// Err* sentinels match any error of their status.
func (e *Error) Is(target error) bool {
	t, ok := target.(*Error)
	return ok && t.Status == e.Status
}

// Unwrap returns the underlying cause, e.g. context.Canceled for a run whose
// context ended.
func (e *Error) Unwrap() error { return e.cause }

// Sentinels for errors.Is, one per status.
var (
	ErrNullArgument    = &Error{Status: StatusNullArgument}
	ErrInvalidUTF8     = &Error{Status: StatusInvalidUTF8}
	ErrInvalidJSON     = &Error{Status: StatusInvalidJSON}
	ErrInvalidArgument = &Error{Status: StatusInvalidArgument}
	ErrInvalidConfig   = &Error{Status: StatusInvalidConfig}
	ErrNotFound        = &Error{Status: StatusNotFound}
	ErrCancelled       = &Error{Status: StatusCancelled}
	ErrWrongThread     = &Error{Status: StatusWrongThread}
	ErrClosed          = &Error{Status: StatusClosed}
	ErrIO              = &Error{Status: StatusIO}
	ErrPanic           = &Error{Status: StatusPanic}
	ErrForked          = &Error{Status: StatusForked}
)

// takeError builds an *Error from a status and a library-owned message
// (which it frees).
func takeError(st C.hl_status, errmsg *C.char) error {
	msg := string(takeString(errmsg))
	return &Error{Status: Status(st), Message: msg}
}

func errClosed(what string) error {
	return &Error{Status: StatusClosed, Message: what + " is closed"}
}

func errf(st Status, format string, args ...any) error {
	return &Error{Status: st, Message: fmt.Sprintf(format, args...)}
}
