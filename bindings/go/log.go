package hookline

/*
#include <stdint.h>
#include "hookline.h"

void hlgo_set_log_handler(int enable, int32_t max_level);
*/
import "C"

import (
	"sync"
	"sync/atomic"
)

// LogLevel is a hookline log level.
type LogLevel int32

// Log levels (docs/c-api.md).
const (
	LogError LogLevel = 1
	LogWarn  LogLevel = 2
	LogInfo  LogLevel = 3
	LogDebug LogLevel = 4
	LogTrace LogLevel = 5
)

// String returns "error", "warn", "info", "debug" or "trace".
func (l LogLevel) String() string {
	switch l {
	case LogError:
		return "error"
	case LogWarn:
		return "warn"
	case LogInfo:
		return "info"
	case LogDebug:
		return "debug"
	case LogTrace:
		return "trace"
	}
	return "unknown"
}

var (
	logMu      sync.Mutex
	logHandler atomic.Pointer[func(LogLevel, string)]
)

// SetLogHandler routes hookline's log messages at or below maxLevel to fn,
// which may be called from any thread, concurrently (a panic in fn is
// recovered and dropped). fn nil restores the default: silent unless the
// HOOKLINE_LOG environment variable is set (debug|info|warn|error), then
// printed to stderr. The handler is process-wide.
func SetLogHandler(fn func(level LogLevel, message string), maxLevel LogLevel) {
	logMu.Lock()
	defer logMu.Unlock()
	if fn == nil {
		C.hlgo_set_log_handler(0, 0)
		logHandler.Store(nil)
		return
	}
	logHandler.Store(&fn)
	C.hlgo_set_log_handler(1, C.int32_t(maxLevel))
}

//export hlgoLog
func hlgoLog(level C.int32_t, message *C.char) {
	defer func() { _ = recover() }()
	if fn := logHandler.Load(); fn != nil {
		(*fn)(LogLevel(level), string(goBytes(message)))
	}
}
