/* Shared helpers for the engine conformance tests (test_engine_*.c).
 *
 * - a per-test temporary workspace (mkdtemp under $TMPDIR or /tmp), removed at the end;
 * - an arena for the strings the helpers allocate (freed with the workspace, so
 *   valgrind runs stay clean);
 * - writing hook scripts and building options JSON;
 * - running an event and reading the outcome through a tiny JSON reader
 *   (jv_parse + path lookups such as "hooks[1].exit_code");
 * - process checks for the fault tests (zombie children, stray pids, VmRSS).
 *
 * Include this header first (it defines _GNU_SOURCE and includes harness.h). */
#ifndef HOOKLINE_ENGINE_UTIL_H
#define HOOKLINE_ENGINE_UTIL_H
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <limits.h>
#include <pthread.h>
#include <signal.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "harness.h"

#define EU_UNUSED __attribute__((unused))

/* ------------------------------------------------------------------ arena */

static void **eu_arena EU_UNUSED = NULL;
static size_t eu_arena_len EU_UNUSED = 0, eu_arena_cap EU_UNUSED = 0;
static pthread_mutex_t eu_arena_mu EU_UNUSED = PTHREAD_MUTEX_INITIALIZER;

/* Track a malloc'd pointer; freed by arena_free() (called by ws_end()). */
static inline void *track(void *p) {
  if (!p) return p;
  pthread_mutex_lock(&eu_arena_mu);
  if (eu_arena_len == eu_arena_cap) {
    eu_arena_cap = eu_arena_cap ? eu_arena_cap * 2 : 64;
    eu_arena = realloc(eu_arena, eu_arena_cap * sizeof(void *));
    if (!eu_arena) abort();
  }
  eu_arena[eu_arena_len++] = p;
  pthread_mutex_unlock(&eu_arena_mu);
  return p;
}

static inline void arena_free(void) {
  pthread_mutex_lock(&eu_arena_mu);
  for (size_t i = 0; i < eu_arena_len; i++) free(eu_arena[i]);
  free(eu_arena);
  eu_arena = NULL;
  eu_arena_len = eu_arena_cap = 0;
  pthread_mutex_unlock(&eu_arena_mu);
}

/* printf into a tracked string. */
static inline char *fmt(const char *f, ...) __attribute__((format(printf, 1, 2)));
static inline char *fmt(const char *f, ...) {
  va_list ap;
  va_start(ap, f);
  char *s = NULL;
  if (vasprintf(&s, f, ap) < 0) abort();
  va_end(ap);
  return track(s);
}

/* A JSON string literal (with quotes) for s, tracked. */
static inline char *jstr(const char *s) {
  size_t n = strlen(s);
  char *out = malloc(n * 6 + 3), *o = out;
  if (!out) abort();
  *o++ = '"';
  for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
    if (*p == '"' || *p == '\\') { *o++ = '\\'; *o++ = (char)*p; }
    else if (*p == '\n') { *o++ = '\\'; *o++ = 'n'; }
    else if (*p == '\t') { *o++ = '\\'; *o++ = 't'; }
    else if (*p < 0x20) { o += sprintf(o, "\\u%04x", *p); }
    else *o++ = (char)*p;
  }
  *o++ = '"';
  *o = 0;
  return track(out);
}

/* --------------------------------------------------------------- time */

static inline double now_ms(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return ts.tv_sec * 1000.0 + ts.tv_nsec / 1e6;
}

static inline void sleep_ms(int ms) {
  struct timespec ts = {ms / 1000, (long)(ms % 1000) * 1000000L};
  while (nanosleep(&ts, &ts) != 0 && errno == EINTR) {
  }
}

/* Whether the test runs under valgrind (it preloads its vgpreload_* libraries): the tests keep
 * their rules but skip checks that only measure speed. */
static inline int under_valgrind(void) {
  const char *p = getenv("LD_PRELOAD");
  return p && strstr(p, "vgpreload") != NULL;
}

/* ------------------------------------------------------------ workspace */

static char eu_ws[PATH_MAX] EU_UNUSED;  /* canonical path of the current workspace */
static char eu_ws_raw[PATH_MAX] EU_UNUSED; /* path as created */

/* Create a fresh workspace directory; returns its canonical path. */
static inline const char *ws_begin(void) {
  const char *tmp = getenv("TMPDIR");
  if (!tmp || !*tmp) tmp = "/tmp";
  snprintf(eu_ws_raw, sizeof eu_ws_raw, "%s/hl-engine-test.XXXXXX", tmp);
  if (!mkdtemp(eu_ws_raw)) { perror("mkdtemp"); abort(); }
  if (!realpath(eu_ws_raw, eu_ws)) { perror("realpath"); abort(); }
  return eu_ws;
}

static inline int eu_rm_cb(const char *p, const struct stat *sb, int flag, struct FTW *ftw) {
  (void)sb; (void)flag; (void)ftw;
  remove(p);
  return 0;
}

/* Remove the workspace and free the arena. */
static inline void ws_end(void) {
  if (eu_ws_raw[0]) {
    chmod(eu_ws_raw, 0700);
    nftw(eu_ws_raw, eu_rm_cb, 16, FTW_DEPTH | FTW_PHYS);
  }
  eu_ws_raw[0] = eu_ws[0] = 0;
  arena_free();
}

/* Path of a file inside the workspace (tracked). */
static inline char *wpath(const char *name) { return fmt("%s/%s", eu_ws, name); }

static inline void write_file(const char *path, const char *content) {
  FILE *f = fopen(path, "w");
  if (!f) { perror(path); abort(); }
  fputs(content, f);
  fclose(f);
}

/* Whole file contents (tracked), or NULL if it cannot be read. */
static inline char *read_file(const char *path) {
  FILE *f = fopen(path, "rb");
  if (!f) return NULL;
  size_t cap = 4096, len = 0;
  char *buf = malloc(cap);
  if (!buf) abort();
  size_t n;
  while ((n = fread(buf + len, 1, cap - len - 1, f)) > 0) {
    len += n;
    if (cap - len - 1 == 0) {
      cap *= 2;
      buf = realloc(buf, cap);
      if (!buf) abort();
    }
  }
  fclose(f);
  buf[len] = 0;
  return track(buf);
}

static inline int file_exists(const char *path) { return access(path, F_OK) == 0; }

/* Write workspace/<name> as an executable sh script with `body`, and return
 * the hook command that runs it (an absolute, single-quoted path; tracked). */
static inline char *script(const char *name, const char *body) {
  char *p = wpath(name);
  write_file(p, fmt("#!/bin/sh\n%s\n", body));
  chmod(p, 0755);
  return fmt("'%s'", p);
}

/* A shell word single-quoting s (tracked). */
static inline char *shq(const char *s) {
  size_t n = strlen(s);
  char *out = malloc(n * 4 + 3), *o = out;
  if (!out) abort();
  *o++ = '\'';
  for (; *s; s++) {
    if (*s == '\'') { memcpy(o, "'\\''", 4); o += 4; }
    else *o++ = *s;
  }
  *o++ = '\'';
  *o = 0;
  return track(out);
}

/* A shell command printing `text` and a newline on stdout (tracked). */
static inline char *say(const char *text) { return fmt("printf '%%s\\n' %s", shq(text)); }

/* ----------------------------------------------------------- options JSON */

/* A hook JSON object for the VT dialect: {"type":"command","command":..,"timeout_seconds":..}. */
static inline char *vt_hook(const char *command, int timeout_seconds) {
  if (timeout_seconds > 0)
    return fmt("{\"type\":\"command\",\"command\":%s,\"timeout_seconds\":%d}", jstr(command), timeout_seconds);
  return fmt("{\"type\":\"command\",\"command\":%s}", jstr(command));
}

/* A hook JSON object for the Claude dialect: {"type":"command","command":..,"timeout":..}. */
static inline char *cc_hook(const char *command, int timeout) {
  if (timeout > 0) return fmt("{\"type\":\"command\",\"command\":%s,\"timeout\":%d}", jstr(command), timeout);
  return fmt("{\"type\":\"command\",\"command\":%s}", jstr(command));
}

/* One group: {"matcher":M,"hooks":[H1,H2,...]}; matcher NULL = absent. hooks is a comma list. */
static inline char *group(const char *matcher, const char *hooks_list) {
  if (matcher) return fmt("{\"matcher\":%s,\"hooks\":[%s]}", jstr(matcher), hooks_list);
  return fmt("{\"hooks\":[%s]}", hooks_list);
}

/* VT config with one event key and a comma list of groups. */
static inline char *vt_config(const char *event_key, const char *groups) {
  return fmt("{\"lifecycle\":{\"%s\":[%s]}}", event_key, groups);
}

/* Claude config with one event name and a comma list of groups. */
static inline char *cc_config(const char *event_name, const char *groups) {
  return fmt("{\"%s\":[%s]}", event_name, groups);
}

/* VT config: every command in `cmds` (NULL-terminated) as one group without matcher. */
static inline char *vt_cmds(const char *event_key, int timeout, const char **cmds) {
  char *list = fmt("%s", "");
  for (int i = 0; cmds[i]; i++) list = fmt("%s%s%s", list, i ? "," : "", vt_hook(cmds[i], timeout));
  return vt_config(event_key, group(NULL, list));
}

/* Options JSON for the current workspace with hooks config `hooks` (may be
 * NULL) and `extra` (a comma-free-prefixed fragment like "\"trigger\":\"resume\"", may be NULL). */
static inline char *opts(const char *hooks, const char *extra) {
  return fmt("{\"workspace\":%s,\"session_id\":\"sess-1\"%s%s%s%s}", jstr(eu_ws), hooks ? ",\"hooks\":" : "",
             hooks ? hooks : "", extra ? "," : "", extra ? extra : "");
}

/* ------------------------------------------------------------ mini JSON */

typedef enum { JV_NULL, JV_BOOL, JV_NUM, JV_STR, JV_ARR, JV_OBJ } jv_type;
typedef struct jv {
  jv_type t;
  int b;
  double n;
  char *s; /* JV_STR: decoded UTF-8 (NUL-terminated; slen bytes) */
  size_t slen;
  struct jv **kids;
  char **keys; /* JV_OBJ */
  size_t count;
  char *raw; /* root only: the text parsed */
} jv;

static inline void jv_free(jv *v) {
  if (!v) return;
  for (size_t i = 0; i < v->count; i++) {
    jv_free(v->kids[i]);
    if (v->keys) free(v->keys[i]);
  }
  free(v->kids);
  free(v->keys);
  free(v->s);
  free(v->raw);
  free(v);
}

typedef struct { const char *p, *end; int depth; int err; } eu_jp;

static inline void eu_ws_skip(eu_jp *j) {
  while (j->p < j->end && (*j->p == ' ' || *j->p == '\t' || *j->p == '\n' || *j->p == '\r')) j->p++;
}

static inline jv *eu_jv_new(jv_type t) {
  jv *v = calloc(1, sizeof *v);
  if (!v) abort();
  v->t = t;
  return v;
}

static inline void eu_put_utf8(char **o, unsigned cp) {
  unsigned char *u = (unsigned char *)*o;
  if (cp < 0x80) *u++ = (unsigned char)cp;
  else if (cp < 0x800) { *u++ = 0xC0 | (cp >> 6); *u++ = 0x80 | (cp & 0x3F); }
  else if (cp < 0x10000) { *u++ = 0xE0 | (cp >> 12); *u++ = 0x80 | ((cp >> 6) & 0x3F); *u++ = 0x80 | (cp & 0x3F); }
  else { *u++ = 0xF0 | (cp >> 18); *u++ = 0x80 | ((cp >> 12) & 0x3F); *u++ = 0x80 | ((cp >> 6) & 0x3F); *u++ = 0x80 | (cp & 0x3F); }
  *o = (char *)u;
}

static inline int eu_hex4(const char *p, unsigned *out) {
  unsigned v = 0;
  for (int i = 0; i < 4; i++) {
    char c = p[i];
    v <<= 4;
    if (c >= '0' && c <= '9') v |= (unsigned)(c - '0');
    else if (c >= 'a' && c <= 'f') v |= (unsigned)(c - 'a' + 10);
    else if (c >= 'A' && c <= 'F') v |= (unsigned)(c - 'A' + 10);
    else return 0;
  }
  *out = v;
  return 1;
}

static inline char *eu_parse_str(eu_jp *j, size_t *len) {
  if (j->p >= j->end || *j->p != '"') { j->err = 1; return NULL; }
  j->p++;
  const char *start = j->p;
  size_t cap = 16;
  while (j->p < j->end && *j->p != '"') { if (*j->p == '\\') j->p++; j->p++; cap++; }
  if (j->p >= j->end) { j->err = 1; return NULL; }
  char *out = malloc(cap * 2 + 8), *o = out;
  if (!out) abort();
  for (const char *p = start; p < j->p; p++) {
    if ((unsigned char)*p < 0x20) { j->err = 1; break; }
    if (*p != '\\') { *o++ = *p; continue; }
    p++;
    switch (*p) {
      case '"': *o++ = '"'; break;
      case '\\': *o++ = '\\'; break;
      case '/': *o++ = '/'; break;
      case 'b': *o++ = '\b'; break;
      case 'f': *o++ = '\f'; break;
      case 'n': *o++ = '\n'; break;
      case 'r': *o++ = '\r'; break;
      case 't': *o++ = '\t'; break;
      case 'u': {
        unsigned cp;
        if (j->p - p < 5 || !eu_hex4(p + 1, &cp)) { j->err = 1; break; }
        p += 4;
        if (cp >= 0xD800 && cp < 0xDC00 && j->p - p >= 7 && p[1] == '\\' && p[2] == 'u') {
          unsigned lo;
          if (eu_hex4(p + 3, &lo) && lo >= 0xDC00 && lo < 0xE000) {
            cp = 0x10000 + ((cp - 0xD800) << 10) + (lo - 0xDC00);
            p += 6;
          }
        }
        eu_put_utf8(&o, cp);
        break;
      }
      default: j->err = 1;
    }
  }
  j->p++;
  *o = 0;
  if (len) *len = (size_t)(o - out);
  return out;
}

static inline jv *eu_parse_val(eu_jp *j) {
  eu_ws_skip(j);
  if (j->p >= j->end || j->err) { j->err = 1; return NULL; }
  if (++j->depth > 200) { j->err = 1; return NULL; }
  jv *v = NULL;
  char c = *j->p;
  if (c == '{' || c == '[') {
    int obj = c == '{';
    v = eu_jv_new(obj ? JV_OBJ : JV_ARR);
    j->p++;
    eu_ws_skip(j);
    size_t cap = 0;
    if (j->p < j->end && *j->p == (obj ? '}' : ']')) { j->p++; j->depth--; return v; }
    for (;;) {
      char *key = NULL;
      if (obj) {
        eu_ws_skip(j);
        key = eu_parse_str(j, NULL);
        eu_ws_skip(j);
        if (j->err || j->p >= j->end || *j->p != ':') { free(key); j->err = 1; break; }
        j->p++;
      }
      jv *kid = eu_parse_val(j);
      if (j->err) { free(key); jv_free(kid); break; }
      if (v->count == cap) {
        cap = cap ? cap * 2 : 8;
        v->kids = realloc(v->kids, cap * sizeof(jv *));
        if (obj) v->keys = realloc(v->keys, cap * sizeof(char *));
      }
      v->kids[v->count] = kid;
      if (obj) v->keys[v->count] = key;
      v->count++;
      eu_ws_skip(j);
      if (j->p < j->end && *j->p == ',') { j->p++; continue; }
      if (j->p < j->end && *j->p == (obj ? '}' : ']')) { j->p++; break; }
      j->err = 1;
      break;
    }
  } else if (c == '"') {
    v = eu_jv_new(JV_STR);
    v->s = eu_parse_str(j, &v->slen);
  } else if (!strncmp(j->p, "true", 4)) { v = eu_jv_new(JV_BOOL); v->b = 1; j->p += 4; }
  else if (!strncmp(j->p, "false", 5)) { v = eu_jv_new(JV_BOOL); j->p += 5; }
  else if (!strncmp(j->p, "null", 4)) { v = eu_jv_new(JV_NULL); j->p += 4; }
  else if (c == '-' || (c >= '0' && c <= '9')) {
    char *endp;
    v = eu_jv_new(JV_NUM);
    v->n = strtod(j->p, &endp);
    if (endp == j->p) j->err = 1;
    j->p = endp;
  } else j->err = 1;
  j->depth--;
  return v;
}

/* Parse a whole JSON text; NULL if it is not exactly one valid JSON value. */
static inline jv *jv_parse(const char *text) {
  if (!text) return NULL;
  eu_jp j = {text, text + strlen(text), 0, 0};
  jv *v = eu_parse_val(&j);
  eu_ws_skip(&j);
  if (j.err || j.p != j.end) { jv_free(v); return NULL; }
  v->raw = strdup(text);
  return v;
}

/* Look up a path like "hooks[1].exit_code" or "decision.scope" ("" = root). */
static inline jv *jget(jv *v, const char *path) {
  const char *p = path;
  while (v && *p) {
    if (*p == '.') { p++; continue; }
    if (*p == '[') {
      char *e;
      long i = strtol(p + 1, &e, 10);
      if (*e != ']' || v->t != JV_ARR || i < 0 || (size_t)i >= v->count) return NULL;
      v = v->kids[i];
      p = e + 1;
      continue;
    }
    size_t n = strcspn(p, ".[");
    if (v->t != JV_OBJ) return NULL;
    jv *found = NULL;
    for (size_t i = 0; i < v->count; i++)
      if (strlen(v->keys[i]) == n && !strncmp(v->keys[i], p, n)) { found = v->kids[i]; break; }
    v = found;
    p += n;
  }
  return v;
}

/* String at path or NULL. */
static inline const char *js(jv *v, const char *path) {
  jv *x = jget(v, path);
  return x && x->t == JV_STR ? x->s : NULL;
}
/* 1/0 for a bool at path, -1 otherwise. */
static inline int jb(jv *v, const char *path) {
  jv *x = jget(v, path);
  return x && x->t == JV_BOOL ? x->b : -1;
}
/* Number at path, or -1e300. */
static inline double jnum(jv *v, const char *path) {
  jv *x = jget(v, path);
  return x && x->t == JV_NUM ? x->n : -1e300;
}
/* Whether path exists and is null. */
static inline int jnull(jv *v, const char *path) {
  jv *x = jget(v, path);
  return x && x->t == JV_NULL;
}
/* Whether path exists at all. */
static inline int jhas(jv *v, const char *path) { return jget(v, path) != NULL; }
/* Array/object length at path, -1 if not a container. */
static inline long jlen(jv *v, const char *path) {
  jv *x = jget(v, path);
  return x && (x->t == JV_ARR || x->t == JV_OBJ) ? (long)x->count : -1;
}
static inline const char *jraw(jv *v) { return v && v->raw ? v->raw : "(no outcome)"; }

/* Index of the first message with `level` ("info"/"warning"/"error") whose text contains
 * `needle`, or -1. level NULL = any level. */
static inline int jmsg(jv *o, const char *level, const char *needle) {
  jv *m = jget(o, "messages");
  if (!m || m->t != JV_ARR) return -1;
  for (size_t i = 0; i < m->count; i++) {
    const char *lv = js(m->kids[i], "level"), *tx = js(m->kids[i], "text");
    if (!lv || !tx) continue;
    if (level && strcmp(lv, level)) continue;
    if (strstr(tx, needle)) return (int)i;
  }
  return -1;
}
/* Number of messages with `level`. */
static inline int jmsg_count(jv *o, const char *level) {
  jv *m = jget(o, "messages");
  int n = 0;
  if (!m || m->t != JV_ARR) return 0;
  for (size_t i = 0; i < m->count; i++) {
    const char *lv = js(m->kids[i], "level");
    if (lv && (!level || !strcmp(lv, level))) n++;
  }
  return n;
}
/* Whether the string array at path contains exactly `want` as an element. */
static inline int jarr_has(jv *o, const char *path, const char *want) {
  jv *a = jget(o, path);
  if (!a || a->t != JV_ARR) return 0;
  for (size_t i = 0; i < a->count; i++)
    if (a->kids[i]->t == JV_STR && !strcmp(a->kids[i]->s, want)) return 1;
  return 0;
}

/* Parsed documents are tracked in their own list so ws_end frees them. */
static jv **eu_docs EU_UNUSED = NULL;
static size_t eu_docs_len EU_UNUSED = 0;
static inline jv *track_jv(jv *v) {
  if (!v) return v;
  pthread_mutex_lock(&eu_arena_mu);
  eu_docs = realloc(eu_docs, (eu_docs_len + 1) * sizeof(jv *));
  eu_docs[eu_docs_len++] = v;
  pthread_mutex_unlock(&eu_arena_mu);
  return v;
}
static inline void docs_free(void) {
  pthread_mutex_lock(&eu_arena_mu);
  for (size_t i = 0; i < eu_docs_len; i++) jv_free(eu_docs[i]);
  free(eu_docs);
  eu_docs = NULL;
  eu_docs_len = 0;
  pthread_mutex_unlock(&eu_arena_mu);
}

/* Parse a file as JSON (tracked), NULL if missing or invalid. */
static inline jv *read_json(const char *path) {
  char *t = read_file(path);
  return t ? track_jv(jv_parse(t)) : NULL;
}

#define CHECK_STR(o, path, want)                                                             \
  do {                                                                                       \
    const char *eu_got_ = js((o), (path));                                                   \
    CHECK(eu_got_ && !strcmp(eu_got_, (want)), "%s = %s, want \"%s\"; in %s", (path),        \
          eu_got_ ? eu_got_ : "(absent/not a string)", (want), jraw(o));                     \
  } while (0)
#define CHECK_NULL(o, path) CHECK(jnull((o), (path)), "%s is not null in %s", (path), jraw(o))
#define CHECK_BOOL(o, path, want)                                                            \
  CHECK(jb((o), (path)) == (want), "%s is not %s in %s", (path), (want) ? "true" : "false", jraw(o))
#define CHECK_NUM(o, path, want)                                                             \
  CHECK(jnum((o), (path)) == (double)(want), "%s = %g, want %g in %s", (path), jnum((o), (path)),   \
        (double)(want), jraw(o))
#define CHECK_LEN(o, path, want)                                                             \
  CHECK(jlen((o), (path)) == (long)(want), "len(%s) = %ld, want %ld in %s", (path),        \
        jlen((o), (path)), (long)(want), jraw(o))
#define CHECK_MSG(o, level, needle)                                                          \
  CHECK(jmsg((o), (level), (needle)) >= 0, "no %s message containing '%s' in %s",           \
        (level) ? (level) : "any", (needle), jraw(o))
#define CHECK_NO_MSG(o, level, needle)                                                       \
  CHECK(jmsg((o), (level), (needle)) < 0, "unexpected %s message containing '%s' in %s",    \
        (level) ? (level) : "any", (needle), jraw(o))

/* ----------------------------------------------------------- engine/run */

/* Create an engine from options; a failure is a test failure (returns NULL). */
static inline hl_engine *eng_new(const char *options_json) {
  hl_engine *e = NULL;
  char *err = NULL;
  hl_status st = hl_engine_new(options_json, &e, &err);
  CHECK(st == HL_OK && e != NULL, "hl_engine_new: %s: %s (options %s)", hl_status_name(st), err ? err : "",
        options_json);
  hl_string_free(err);
  return e;
}

/* Engine for the current workspace with `hooks` config (may be NULL). */
static inline hl_engine *eng(const char *hooks) { return eng_new(opts(hooks, NULL)); }

/* Run an event synchronously; returns the parsed outcome (tracked) or NULL
 * after recording a failure. */
static inline jv *run_ev(hl_engine *e, hl_event ev, const char *input) {
  char *out = NULL, *err = NULL;
  hl_status st = hl_engine_run(e, ev, input, &out, &err);
  CHECK(st == HL_OK && out != NULL, "hl_engine_run(%s): %s: %s", hl_event_name(ev) ? hl_event_name(ev) : "?",
        hl_status_name(st), err ? err : "");
  CHECK(st != HL_OK || err == NULL, "errmsg not NULL on success");
  jv *o = NULL;
  if (out) {
    o = jv_parse(out);
    CHECK(o != NULL, "outcome is not valid JSON: %.2000s", out);
    if (getenv("HL_TEST_VERBOSE")) fprintf(stderr, "  outcome: %.4000s\n", out);
  }
  hl_string_free(out);
  hl_string_free(err);
  return track_jv(o);
}

/* Run and return the status, storing errmsg (tracked copy) in *msg when given. */
static inline hl_status run_status(hl_engine *e, hl_event ev, const char *input, char **msg) {
  char *out = (char *)0x1, *err = NULL;
  hl_status st = hl_engine_run(e, ev, input, &out, &err);
  if (st != HL_OK) CHECK(out == NULL, "outcome_json not NULL on failure");
  if (msg) *msg = err ? track(strdup(err)) : NULL;
  hl_string_free(out);
  hl_string_free(err);
  return st;
}

/* Common inputs. */
#define PTU_INPUT "{\"tool_name\":\"Bash\",\"tool_input\":{\"command\":\"ls\"},\"tool_call_id\":\"call-1\"}"
#define POST_INPUT \
  "{\"tool_name\":\"Bash\",\"tool_input\":{\"command\":\"ls\"},\"tool_response\":{\"ok\":true},\"tool_call_id\":\"call-2\"}"
#define UPS_INPUT "{\"turn_id\":\"t-1\",\"prompt\":\"hello world\"}"
#define STOP_INPUT "{\"last_assistant_message\":\"done\",\"stop_hook_active\":false}"
#define PERM_INPUT \
  "{\"tool_name\":\"Bash\",\"tool_input\":{\"command\":\"rm -rf build\"},\"permission_request\":{\"kind\":\"exec\"}," \
  "\"permission_suggestions\":[]}"
#define SEND_INPUT "{\"turn_id\":\"t-9\",\"reason\":\"completed\"}"
#define SUBAGENT_INPUT \
  "{\"parent_session_id\":\"sess-1\",\"child_thread_id\":\"th-2\",\"agent_name\":\"explorer\"," \
  "\"agent_type\":\"explorer\",\"display_label\":\"Explorer\",\"background\":false,\"status\":\"running\"}"
#define PRECOMPACT_INPUT \
  "{\"trigger\":\"auto\",\"mode\":\"provider\",\"original_message_count\":40,\"compacted_message_count\":10}"
#define NOTIF_INPUT "{\"notification_type\":\"idle_prompt\",\"title\":\"Idle\",\"message\":\"waiting\"}"
#define FAIL_INPUT "{\"tool_name\":\"Bash\",\"tool_input\":{\"command\":\"false\"},\"tool_call_id\":\"c-3\",\"error\":\"exit 1\"}"

/* A valid input for every event (index = hl_event). */
static const char *const eu_inputs[12] EU_UNUSED = {
    "{}", SEND_INPUT, SUBAGENT_INPUT, SUBAGENT_INPUT, UPS_INPUT, PTU_INPUT,
    POST_INPUT, PERM_INPUT, PRECOMPACT_INPUT, STOP_INPUT, NOTIF_INPUT, FAIL_INPUT};
/* snake_case config keys (index = hl_event). */
static const char *const eu_keys[12] EU_UNUSED = {
    "session_start", "session_end", "subagent_start", "subagent_stop", "user_prompt_submit", "pre_tool_use",
    "post_tool_use", "permission_request", "pre_compact", "stop", "notification", "post_tool_use_failure"};

/* -------------------------------------------------------- process checks */

/* Number of zombie processes whose parent is this process. */
static inline int zombie_children(void) {
  DIR *d = opendir("/proc");
  if (!d) return 0;
  int n = 0;
  pid_t me = getpid();
  struct dirent *de;
  while ((de = readdir(d))) {
    if (!isdigit((unsigned char)de->d_name[0])) continue;
    char path[300], buf[512];
    snprintf(path, sizeof path, "/proc/%s/stat", de->d_name);
    int fd = open(path, O_RDONLY);
    if (fd < 0) continue;
    ssize_t r = read(fd, buf, sizeof buf - 1);
    close(fd);
    if (r <= 0) continue;
    buf[r] = 0;
    char *rp = strrchr(buf, ')');
    if (!rp) continue;
    char state = 0;
    int ppid = 0;
    if (sscanf(rp + 1, " %c %d", &state, &ppid) == 2 && state == 'Z' && ppid == me) n++;
  }
  closedir(d);
  return n;
}

/* Whether pid is a live (non-zombie) process. */
static inline int pid_alive(pid_t pid) {
  if (pid <= 0) return 0;
  if (kill(pid, 0) != 0 && errno == ESRCH) return 0;
  char path[64], buf[512];
  snprintf(path, sizeof path, "/proc/%d/stat", (int)pid);
  int fd = open(path, O_RDONLY);
  if (fd < 0) return 0;
  ssize_t r = read(fd, buf, sizeof buf - 1);
  close(fd);
  if (r <= 0) return 0;
  buf[r] = 0;
  char *rp = strrchr(buf, ')');
  char state = 0;
  if (rp) sscanf(rp + 1, " %c", &state);
  /* A zombie reparented to a pid 1 that does not reap is dead for our purposes. */
  return state != 'Z' && state != 'X';
}

/* Wait up to ms for pid to die; returns 1 when it is gone. */
static inline int wait_pid_gone(pid_t pid, int ms) {
  double end = now_ms() + ms;
  while (pid_alive(pid)) {
    if (now_ms() > end) return 0;
    sleep_ms(20);
  }
  return 1;
}

/* Read an integer pid written by a hook into a file (0 if absent), waiting up to ms. */
static inline pid_t read_pid(const char *path, int ms) {
  double end = now_ms() + ms;
  for (;;) {
    char *t = read_file(path);
    if (t && *t) return (pid_t)atoi(t);
    if (now_ms() > end) return 0;
    sleep_ms(20);
  }
}

/* Wait up to ms for a file to exist. */
static inline int wait_file(const char *path, int ms) {
  double end = now_ms() + ms;
  while (!file_exists(path)) {
    if (now_ms() > end) return 0;
    sleep_ms(20);
  }
  return 1;
}

/* Resident set size of this process in KiB. */
static inline long vmrss_kb(void) {
  FILE *f = fopen("/proc/self/status", "r");
  if (!f) return -1;
  char line[256];
  long kb = -1;
  while (fgets(line, sizeof line, f))
    if (!strncmp(line, "VmRSS:", 6)) { kb = atol(line + 6); break; }
  fclose(f);
  return kb;
}

/* End of a test: free parsed docs, remove the workspace, free the arena. */
static inline void test_end(void) {
  docs_free();
  ws_end();
}

#endif
