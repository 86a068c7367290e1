/* A host program that uses hookline the way an application does, built
 * outside the checkout against an installed library or a release tarball
 * (make test-install, make test-dist): the header's version macros against
 * hl_version(), one engine event whose shell hook denies, one registry
 * callback that denies. APP_WORKSPACE names an existing directory. Prints
 * "hookline VERSION ok" and exits 0, or says what differed and exits 1. */
#include <hookline.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int32_t deny_all(void *ud, const char *ctx, size_t len, hl_reply *reply) {
  (void)ud; (void)ctx; (void)len;
  hl_reply_deny(reply, "denied by callback");
  return 0;
}

int main(void) {
  char expect[64];
  snprintf(expect, sizeof expect, "%d.%d.%d", HL_VERSION_MAJOR, HL_VERSION_MINOR, HL_VERSION_PATCH);
  if (strcmp(HL_VERSION_STRING, expect) != 0 || strcmp(hl_version(), HL_VERSION_STRING) != 0) {
    fprintf(stderr, "version mismatch: header %s (%s), library %s\n", HL_VERSION_STRING, expect, hl_version());
    return 1;
  }
  const char *ws = getenv("APP_WORKSPACE");
  char options[1024];
  snprintf(options, sizeof options,
           "{\"workspace\":\"%s\",\"session_id\":\"install-test\",\"trust_store\":\"%s/trust.json\","
           "\"hooks\":{\"PreToolUse\":[{\"matcher\":\"Bash\",\"hooks\":[{\"type\":\"command\","
           "\"command\":\"echo no >&2; exit 2\"}]}]}}", ws, ws);
  hl_engine *engine = NULL;
  char *err = NULL, *out = NULL;
  if (hl_engine_new(options, &engine, &err) != HL_OK) { fprintf(stderr, "engine: %s\n", err); return 1; }
  if (hl_engine_run(engine, HL_EVENT_PRE_TOOL_USE, "{\"tool_name\":\"Bash\",\"tool_input\":{\"command\":\"ls\"}}",
                    &out, &err) != HL_OK) { fprintf(stderr, "run: %s\n", err); return 1; }
  int ok = strstr(out, "\"decision\":\"deny\"") != NULL;
  if (!ok) fprintf(stderr, "engine outcome: %s\n", out);
  hl_string_free(out);
  hl_engine_free(engine);

  hl_registry *reg = hl_registry_new();
  if (hl_registry_register(reg, HL_POINT_PRE_TOOL_CALL_DECIDE, "deny", deny_all, NULL, NULL, &err) != HL_OK) {
    fprintf(stderr, "register: %s\n", err); return 1;
  }
  if (hl_registry_run(reg, HL_POINT_PRE_TOOL_CALL_DECIDE, "{\"tool_name\":\"Bash\",\"tool_args\":{}}", &out, &err) != HL_OK) {
    fprintf(stderr, "registry run: %s\n", err); return 1;
  }
  if (!strstr(out, "\"allow\":false")) { fprintf(stderr, "registry outcome: %s\n", out); ok = 0; }
  hl_string_free(out);
  hl_registry_free(reg);
  if (!ok) return 1;
  printf("hookline %s ok\n", hl_version());
  return 0;
}
