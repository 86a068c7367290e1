// C shims between hookline's callback types and the exported Go trampolines
// (registry and logging part). A Go callback's cgo.Handle travels as the
// user_data pointer.
#include <stdint.h>
#include "hookline.h"
#include "_cgo_export.h"

// Depth of hookline callbacks on this thread: lets Close avoid waiting for
// runs that cannot finish until the current callback returns.
static __thread int hlgo_depth;

int hlgo_in_callback(void) { return hlgo_depth > 0; }

// The trace handler counts as a callback too (it runs on hookline's delivery thread).
void hlgo_trace_enter(void) { hlgo_depth++; }
void hlgo_trace_leave(void) { hlgo_depth--; }

int32_t hlgo_callback(void *user_data, const char *context_json, size_t context_len, hl_reply *reply) {
    hlgo_depth++;
    int32_t rc = hlgoCallback((uintptr_t)user_data, (char *)context_json, context_len, reply);
    hlgo_depth--;
    return rc;
}

void hlgo_free(void *user_data) { hlgoFree((uintptr_t)user_data); }

hl_status hlgo_registry_register(hl_registry *registry, hl_hook_point point, const char *name,
                                 uintptr_t handle, char **errmsg) {
    return hl_registry_register(registry, point, name, hlgo_callback, (void *)handle, hlgo_free, errmsg);
}

static void hlgo_log(void *user_data, int32_t level, const char *message) {
    (void)user_data;
    hlgoLog(level, (char *)message);
}

void hlgo_set_log_handler(int enable, int32_t max_level) {
    hl_set_log_handler(enable ? hlgo_log : NULL, NULL, max_level);
}
