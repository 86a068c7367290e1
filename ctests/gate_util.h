/* Helpers shared by the workspace approval gate tests (test_gate*.c).
 *
 * Include this header FIRST in a test file (it sets _GNU_SOURCE before any
 * system header). It provides:
 *   - an independent SHA-256 (FIPS 180-4) to compute expected digests,
 *   - temporary directories (under $TMPDIR) and recursive removal,
 *   - small file helpers (exists, read, write, mode),
 *   - string helpers (formatted allocation, JSON string escaping),
 *   - a minimal reader for the outcome JSON's "hooks" reports,
 *   - engine helpers that fail the current test on an unexpected status. */
#ifndef HOOKLINE_GATE_UTIL_H
#define HOOKLINE_GATE_UTIL_H

#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif

#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <limits.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <time.h>
#include <unistd.h>

#include "harness.h"

/* ------------------------------------------------------------------ */
/* SHA-256 (independent reference implementation for expected digests) */

typedef struct {
  uint32_t h[8];
  uint64_t len;
  unsigned char buf[64];
  size_t used;
} gu_sha256;

static const uint32_t gu_sha256_k[64] = {
    0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5,
    0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174,
    0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da,
    0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967,
    0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85,
    0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070,
    0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3,
    0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2};

#define GU_ROR(x, n) (((x) >> (n)) | ((x) << (32 - (n))))

static inline void gu_sha256_block(gu_sha256 *s, const unsigned char *p) {
  uint32_t w[64], a, b, c, d, e, f, g, h;
  for (int i = 0; i < 16; i++)
    w[i] = (uint32_t)p[4 * i] << 24 | (uint32_t)p[4 * i + 1] << 16 | (uint32_t)p[4 * i + 2] << 8 |
           (uint32_t)p[4 * i + 3];
  for (int i = 16; i < 64; i++) {
    uint32_t s0 = GU_ROR(w[i - 15], 7) ^ GU_ROR(w[i - 15], 18) ^ (w[i - 15] >> 3);
    uint32_t s1 = GU_ROR(w[i - 2], 17) ^ GU_ROR(w[i - 2], 19) ^ (w[i - 2] >> 10);
    w[i] = w[i - 16] + s0 + w[i - 7] + s1;
  }
  a = s->h[0]; b = s->h[1]; c = s->h[2]; d = s->h[3];
  e = s->h[4]; f = s->h[5]; g = s->h[6]; h = s->h[7];
  for (int i = 0; i < 64; i++) {
    uint32_t t1 = h + (GU_ROR(e, 6) ^ GU_ROR(e, 11) ^ GU_ROR(e, 25)) + ((e & f) ^ (~e & g)) +
                  gu_sha256_k[i] + w[i];
    uint32_t t2 = (GU_ROR(a, 2) ^ GU_ROR(a, 13) ^ GU_ROR(a, 22)) + ((a & b) ^ (a & c) ^ (b & c));
    h = g; g = f; f = e; e = d + t1; d = c; c = b; b = a; a = t1 + t2;
  }
  s->h[0] += a; s->h[1] += b; s->h[2] += c; s->h[3] += d;
  s->h[4] += e; s->h[5] += f; s->h[6] += g; s->h[7] += h;
}

static inline void gu_sha256_init(gu_sha256 *s) {
  static const uint32_t iv[8] = {0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a,
                                 0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19};
  memcpy(s->h, iv, sizeof iv);
  s->len = 0;
  s->used = 0;
}

static inline void gu_sha256_update(gu_sha256 *s, const void *data, size_t n) {
  const unsigned char *p = (const unsigned char *)data;
  s->len += n;
  while (n > 0) {
    size_t take = 64 - s->used;
    if (take > n) take = n;
    memcpy(s->buf + s->used, p, take);
    s->used += take;
    p += take;
    n -= take;
    if (s->used == 64) {
      gu_sha256_block(s, s->buf);
      s->used = 0;
    }
  }
}

/* Writes 64 lowercase hex digits and a NUL into out[65]. */
static inline void gu_sha256_final_hex(gu_sha256 *s, char out[65]) {
  uint64_t bits = s->len * 8;
  unsigned char pad = 0x80;
  gu_sha256_update(s, &pad, 1);
  pad = 0;
  while (s->used != 56) gu_sha256_update(s, &pad, 1);
  unsigned char lenbuf[8];
  for (int i = 0; i < 8; i++) lenbuf[i] = (unsigned char)(bits >> (56 - 8 * i));
  gu_sha256_update(s, lenbuf, 8);
  for (int i = 0; i < 8; i++) snprintf(out + 8 * i, 9, "%08x", s->h[i]);
  out[64] = '\0';
}

/* Expected digest (docs/protocol.md §10): SHA-256 of the lines joined by "\n" with no
 * trailing newline. `lines` has `n` entries. */
static inline void gu_digest_of_lines(const char *const *lines, size_t n, char out[65]) {
  gu_sha256 s;
  gu_sha256_init(&s);
  for (size_t i = 0; i < n; i++) {
    if (i > 0) gu_sha256_update(&s, "\n", 1);
    gu_sha256_update(&s, lines[i], strlen(lines[i]));
  }
  gu_sha256_final_hex(&s, out);
}

/* ------------------------------------------------------------------ */
/* Strings                                                              */

/* printf into a fresh malloc'd string (free with free()). */
static inline char *gu_fmt(const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  int n = vsnprintf(NULL, 0, fmt, ap);
  va_end(ap);
  if (n < 0) abort();
  char *s = (char *)malloc((size_t)n + 1);
  if (!s) abort();
  va_start(ap, fmt);
  vsnprintf(s, (size_t)n + 1, fmt, ap);
  va_end(ap);
  return s;
}

/* A JSON string literal (with quotes) for `s` (free with free()). */
static inline char *gu_json_str(const char *s) {
  size_t cap = strlen(s) * 6 + 3, o = 0;
  char *out = (char *)malloc(cap);
  if (!out) abort();
  out[o++] = '"';
  for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
    if (*p == '"' || *p == '\\') {
      out[o++] = '\\';
      out[o++] = (char)*p;
    } else if (*p < 0x20) {
      o += (size_t)snprintf(out + o, cap - o, "\\u%04x", *p);
    } else {
      out[o++] = (char)*p;
    }
  }
  out[o++] = '"';
  out[o] = '\0';
  return out;
}

static inline size_t gu_count(const char *hay, const char *needle) {
  size_t n = 0, len = strlen(needle);
  if (!hay || len == 0) return 0;
  for (const char *p = strstr(hay, needle); p; p = strstr(p + len, needle)) n++;
  return n;
}

/* ------------------------------------------------------------------ */
/* Files and directories                                                */

/* A fresh temporary directory (canonical path, malloc'd). */
static inline char *gu_mkdtemp(void) {
  const char *base = getenv("TMPDIR");
  if (!base || !*base) base = P_tmpdir;
  char *tmpl = gu_fmt("%s/hl-gate-XXXXXX", base);
  if (!mkdtemp(tmpl)) {
    perror("mkdtemp");
    abort();
  }
  char *canon = realpath(tmpl, NULL);
  free(tmpl);
  if (!canon) abort();
  return canon;
}

static inline int gu_rm_cb(const char *path, const struct stat *sb, int flag, struct FTW *ftw) {
  (void)sb; (void)flag; (void)ftw;
  chmod(path, 0700); /* so that an unreadable test directory can be removed */
  return remove(path);
}

static inline void gu_rmtree(const char *path) {
  if (path) nftw(path, gu_rm_cb, 16, FTW_DEPTH | FTW_PHYS);
}

/* Create directory `base/name` (0755) and return its path (malloc'd). */
static inline char *gu_subdir(const char *base, const char *name) {
  char *p = gu_fmt("%s/%s", base, name);
  if (mkdir(p, 0755) != 0 && errno != EEXIST) {
    perror("mkdir");
    abort();
  }
  return p;
}

static inline bool gu_exists(const char *path) {
  struct stat st;
  return lstat(path, &st) == 0;
}

static inline bool gu_exists_in(const char *dir, const char *name) {
  char *p = gu_fmt("%s/%s", dir, name);
  bool r = gu_exists(p);
  free(p);
  return r;
}

/* Permission bits of `path` (without following a symlink), -1 if missing. */
static inline int gu_mode(const char *path) {
  struct stat st;
  if (lstat(path, &st) != 0) return -1;
  return (int)(st.st_mode & 07777);
}

/* Whole file as a NUL-terminated malloc'd string; NULL if unreadable. */
static inline char *gu_read_file(const char *path) {
  FILE *f = fopen(path, "rb");
  if (!f) return NULL;
  size_t cap = 4096, len = 0;
  char *buf = (char *)malloc(cap);
  if (!buf) abort();
  size_t n;
  while ((n = fread(buf + len, 1, cap - len - 1, f)) > 0) {
    len += n;
    if (cap - len - 1 == 0) {
      cap *= 2;
      buf = (char *)realloc(buf, cap);
      if (!buf) abort();
    }
  }
  fclose(f);
  buf[len] = '\0';
  return buf;
}

static inline bool gu_write_file(const char *path, const void *data, size_t len) {
  FILE *f = fopen(path, "wb");
  if (!f) return false;
  bool ok = fwrite(data, 1, len, f) == len;
  return fclose(f) == 0 && ok;
}

/* Wait up to `seconds` for `path` to exist. */
static inline bool gu_wait_for(const char *path, double seconds) {
  struct timespec ts = {0, 20 * 1000 * 1000};
  for (double waited = 0; waited < seconds; waited += 0.02) {
    if (gu_exists(path)) return true;
    nanosleep(&ts, NULL);
  }
  return gu_exists(path);
}

/* ------------------------------------------------------------------ */
/* Outcome JSON: the i-th report of the "hooks" array                    */

/* End of the JSON value starting at p (objects, arrays, strings, scalars). */
static const char *gu_json_skip(const char *p) {
  if (*p == '"') {
    for (p++; *p && *p != '"'; p++)
      if (*p == '\\' && p[1]) p++;
    return *p ? p + 1 : p;
  }
  if (*p == '{' || *p == '[') {
    int depth = 0;
    for (; *p; p++) {
      if (*p == '"') {
        p = gu_json_skip(p) - 1;
        continue;
      }
      if (*p == '{' || *p == '[') depth++;
      if (*p == '}' || *p == ']') {
        if (--depth == 0) return p + 1;
      }
    }
    return p;
  }
  while (*p && *p != ',' && *p != '}' && *p != ']') p++;
  return p;
}

/* The i-th element of the outcome's top-level "hooks" array as a malloc'd
 * string, or NULL if there is no such element. */
static inline char *gu_hook_report(const char *outcome, int i) {
  if (!outcome) return NULL;
  const char *p = strstr(outcome, "\"hooks\":[");
  if (!p) return NULL;
  p += strlen("\"hooks\":[");
  for (int k = 0; *p && *p != ']'; k++) {
    const char *end = gu_json_skip(p);
    if (k == i) {
      size_t n = (size_t)(end - p);
      char *s = (char *)malloc(n + 1);
      if (!s) abort();
      memcpy(s, p, n);
      s[n] = '\0';
      return s;
    }
    p = end;
    if (*p == ',') p++;
  }
  return NULL;
}

/* Number of reports in the outcome's "hooks" array. */
static inline int gu_hook_count(const char *outcome) {
  int n = 0;
  char *r;
  while ((r = gu_hook_report(outcome, n)) != NULL) {
    free(r);
    n++;
  }
  return n;
}

/* The raw text of a top-level member `key` of a compact JSON object (e.g.
 * "null", "0.0", "\"deny\""), malloc'd; NULL when absent. Only looks at
 * the first occurrence of "key": in the text. */
static inline char *gu_json_member(const char *obj, const char *key) {
  char *pat = gu_fmt("\"%s\":", key);
  const char *p = obj ? strstr(obj, pat) : NULL;
  size_t plen = strlen(pat);
  free(pat);
  if (!p) return NULL;
  p += plen;
  const char *end = gu_json_skip(p);
  size_t n = (size_t)(end - p);
  char *s = (char *)malloc(n + 1);
  if (!s) abort();
  memcpy(s, p, n);
  s[n] = '\0';
  return s;
}

/* True when `obj` has member `key` whose raw JSON text equals `want`. */
static inline bool gu_member_is(const char *obj, const char *key, const char *want) {
  char *v = gu_json_member(obj, key);
  bool r = v && strcmp(v, want) == 0;
  free(v);
  return r;
}

/* Member `key` as a number (NaN-free: returns -1 when absent). */
static inline double gu_member_num(const char *obj, const char *key) {
  char *v = gu_json_member(obj, key);
  double d = v ? strtod(v, NULL) : -1;
  free(v);
  return d;
}

/* ------------------------------------------------------------------ */
/* Engine helpers                                                        */

/* Options JSON for a workspace, session "s-gate", optional gate, an
 * optional hooks member text (e.g. "\"hooks\":{...}") and optional trust
 * store path. Malloc'd. */
static inline char *gu_options(const char *workspace, bool gated, const char *hooks_member, const char *trust_store) {
  char *ws = gu_json_str(workspace);
  char *ts = trust_store ? gu_json_str(trust_store) : NULL;
  char *s = gu_fmt("{\"workspace\":%s,\"session_id\":\"s-gate\",\"workspace_gated\":%s%s%s%s%s}", ws,
                   gated ? "true" : "false", hooks_member ? "," : "", hooks_member ? hooks_member : "",
                   ts ? ",\"trust_store\":" : "", ts ? ts : "");
  free(ws);
  free(ts);
  return s;
}

/* hl_engine_new that fails the current test (and returns NULL) on error. */
static inline hl_engine *gu_engine(const char *options_json) {
  hl_engine *e = NULL;
  char *err = NULL;
  hl_status st = hl_engine_new(options_json, &e, &err);
  CHECK(st == HL_OK && e != NULL, "hl_engine_new: %s: %s (options %s)", hl_status_name(st),
        err ? err : "", options_json);
  hl_string_free(err);
  return e;
}

/* Convenience: engine over `workspace` with a hooks member and store. */
static inline hl_engine *gu_engine_ws(const char *workspace, bool gated, const char *hooks_member, const char *trust_store) {
  char *o = gu_options(workspace, gated, hooks_member, trust_store);
  hl_engine *e = gu_engine(o);
  free(o);
  return e;
}

/* The engine's digest (malloc'd with hl_string_free ownership -> copied to
 * a plain malloc'd string), or NULL on error. */
static inline char *gu_digest(hl_engine *e) {
  char *hex = NULL, *err = NULL;
  hl_status st = hl_engine_command_digest(e, &hex, &err);
  CHECK(st == HL_OK && hex != NULL, "hl_engine_command_digest: %s: %s", hl_status_name(st), err ? err : "");
  char *copy = hex ? strdup(hex) : NULL;
  hl_string_free(hex);
  hl_string_free(err);
  return copy;
}

static inline char *gu_previews(hl_engine *e) {
  char *json = NULL, *err = NULL;
  hl_status st = hl_engine_command_previews(e, &json, &err);
  CHECK(st == HL_OK && json != NULL, "hl_engine_command_previews: %s: %s", hl_status_name(st), err ? err : "");
  char *copy = json ? strdup(json) : NULL;
  hl_string_free(json);
  hl_string_free(err);
  return copy;
}

/* hl_engine_run; returns the outcome (malloc'd copy) or NULL on error. */
static inline char *gu_run(hl_engine *e, hl_event ev, const char *input) {
  char *out = NULL, *err = NULL;
  hl_status st = hl_engine_run(e, ev, input, &out, &err);
  CHECK(st == HL_OK && out != NULL, "hl_engine_run(%s): %s: %s", hl_event_name(ev), hl_status_name(st),
        err ? err : "");
  char *copy = out ? strdup(out) : NULL;
  hl_string_free(out);
  hl_string_free(err);
  return copy;
}

static inline hl_status gu_approve(hl_engine *e, bool persist, char **errcopy) {
  char *err = NULL;
  hl_status st = hl_engine_approve_workspace_hooks(e, persist, &err);
  if (errcopy) *errcopy = err ? strdup(err) : NULL;
  hl_string_free(err);
  return st;
}

static inline hl_status gu_reload(hl_engine *e, const char *options_json, char **errcopy) {
  char *err = NULL;
  hl_status st = hl_engine_reload(e, options_json, &err);
  if (errcopy) *errcopy = err ? strdup(err) : NULL;
  hl_string_free(err);
  return st;
}

/* Inputs for the events the gate tests use. */
#define GU_PRE_TOOL_INPUT "{\"tool_name\":\"Bash\",\"tool_input\":{\"command\":\"ls\"},\"tool_call_id\":\"c1\"}"
#define GU_POST_TOOL_INPUT \
  "{\"tool_name\":\"Bash\",\"tool_input\":{\"command\":\"ls\"},\"tool_response\":\"ok\",\"tool_call_id\":\"c1\"}"
#define GU_NOTIFICATION_INPUT "{\"notification_type\":\"idle_prompt\",\"title\":\"t\",\"message\":\"m\"}"
#define GU_PROMPT_INPUT "{\"turn_id\":\"t1\",\"prompt\":\"hello\"}"
#define GU_STOP_INPUT "{\"last_assistant_message\":\"done\",\"stop_hook_active\":false}"

#endif
