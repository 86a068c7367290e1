// C shims for the engine: callback hooks, async runs and the trace handler
// carry a Go cgo.Handle as user_data.
#include <stdint.h>
#include "hookline.h"
#include "_cgo_export.h"

int32_t hlgo_callback(void *user_data, const char *context_json, size_t context_len, hl_reply *reply);
void hlgo_free(void *user_data);
void hlgo_trace_enter(void);
void hlgo_trace_leave(void);

static void hlgo_done(void *user_data, hl_status status, const char *outcome_json, const char *errmsg) {
    hlgoDone((uintptr_t)user_data, status, (char *)outcome_json, (char *)errmsg);
}

hl_status hlgo_engine_run_async(hl_engine *engine, hl_event event, const char *input_json, uintptr_t handle,
                                uint64_t *run_id, char **errmsg) {
    return hl_engine_run_async(engine, event, input_json, hlgo_done, (void *)handle, run_id, errmsg);
}

hl_status hlgo_engine_run_named_async(hl_engine *engine, const char *event_name, const char *input_json,
                                      uintptr_t handle, uint64_t *run_id, char **errmsg) {
    return hl_engine_run_named_async(engine, event_name, input_json, hlgo_done, (void *)handle, run_id, errmsg);
}

hl_status hlgo_engine_add_callback_hook(hl_engine *engine, hl_event event, const char *matcher, const char *name,
                                        uintptr_t handle, char **errmsg) {
    return hl_engine_add_callback_hook(engine, event, matcher, name, hlgo_callback, (void *)handle, hlgo_free,
                                       errmsg);
}

static void hlgo_trace(void *user_data, const char *span_json) {
    hlgo_trace_enter();
    hlgoTrace((uintptr_t)user_data, (char *)span_json);
    hlgo_trace_leave();
}

hl_status hlgo_engine_set_trace_handler(hl_engine *engine, uintptr_t handle, char **errmsg) {
    if (handle == 0) return hl_engine_set_trace_handler(engine, NULL, NULL, NULL, errmsg);
    return hl_engine_set_trace_handler(engine, hlgo_trace, (void *)handle, hlgo_free, errmsg);
}

int32_t hlgo_handler(void *user_data, const char *request_json, size_t request_len, hl_reply *reply) {
    return hlgoHandler((uintptr_t)user_data, (char *)request_json, request_len, reply);
}

hl_status hlgo_engine_set_handler(hl_engine *engine, const char *handler_type, uintptr_t handle, char **errmsg) {
    if (handle == 0) return hl_engine_set_handler(engine, handler_type, NULL, NULL, NULL, errmsg);
    return hl_engine_set_handler(engine, handler_type, hlgo_handler, (void *)handle, hlgo_free, errmsg);
}
