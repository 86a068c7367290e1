/* A hook program for the Windows tests (built with mingw-w64, run under
 * Wine or on Windows): what a hook does, without a shell Wine lacks.
 *
 *   hook cat                 stdin to stdout, then exit 0
 *   hook reply CODE TEXT     read stdin; TEXT to stdout, "stderr:CODE" to stderr; exit CODE
 *   hook write N             read stdin; N bytes of 'x' to stdout; stdin's length to stderr
 *   hook sleep MS            sleep MS milliseconds, exit 0
 *   hook tick FILE MS        append a byte to FILE every 20 ms for MS milliseconds
 *   hook tree MS [FILE]      start "hook sleep MS" (or "hook tick FILE MS") with our
 *                            stdout and stderr (a grandchild holding the pipes),
 *                            then sleep MS too
 *   hook leave MS [FILE]     start "hook sleep MS" (or "hook tick FILE MS") holding
 *                            the pipes, exit 0 at once
 */
#include <windows.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static size_t drain_stdin(int echo)
{
    HANDLE in = GetStdHandle(STD_INPUT_HANDLE), out = GetStdHandle(STD_OUTPUT_HANDLE);
    static char buf[65536];
    size_t total = 0;
    DWORD n, w;
    while (ReadFile(in, buf, sizeof buf, &n, NULL) && n > 0) {
        total += n;
        if (echo) {
            DWORD off = 0;
            while (off < n && WriteFile(out, buf + off, n - off, &w, NULL))
                off += w;
        }
    }
    return total;
}

static void put(HANDLE h, const char *s, size_t len)
{
    DWORD w;
    while (len > 0 && WriteFile(h, s, (DWORD)len, &w, NULL)) {
        s += w;
        len -= w;
    }
}

/* Start this program again as "sleep MS" (or "tick FILE MS"), inheriting
 * our standard handles. */
static int start_sleeper(const char *ms, const char *file)
{
    char self[MAX_PATH], line[2 * MAX_PATH + 64];
    STARTUPINFOA si;
    PROCESS_INFORMATION pi;
    GetModuleFileNameA(NULL, self, sizeof self);
    if (file)
        snprintf(line, sizeof line, "\"%s\" tick \"%s\" %s", self, file, ms);
    else
        snprintf(line, sizeof line, "\"%s\" sleep %s", self, ms);
    memset(&si, 0, sizeof si);
    si.cb = sizeof si;
    si.dwFlags = STARTF_USESTDHANDLES;
    si.hStdInput = GetStdHandle(STD_INPUT_HANDLE);
    si.hStdOutput = GetStdHandle(STD_OUTPUT_HANDLE);
    si.hStdError = GetStdHandle(STD_ERROR_HANDLE);
    SetHandleInformation(si.hStdOutput, HANDLE_FLAG_INHERIT, HANDLE_FLAG_INHERIT);
    SetHandleInformation(si.hStdError, HANDLE_FLAG_INHERIT, HANDLE_FLAG_INHERIT);
    if (!CreateProcessA(NULL, line, NULL, NULL, TRUE, 0, NULL, NULL, &si, &pi))
        return 0;
    CloseHandle(pi.hThread);
    CloseHandle(pi.hProcess);
    return 1;
}

int main(int argc, char **argv)
{
    HANDLE out = GetStdHandle(STD_OUTPUT_HANDLE), err = GetStdHandle(STD_ERROR_HANDLE);
    char msg[64];
    if (argc >= 2 && !strcmp(argv[1], "cat")) {
        drain_stdin(1);
        return 0;
    }
    if (argc >= 4 && !strcmp(argv[1], "reply")) {
        int code = atoi(argv[2]);
        drain_stdin(0);
        put(out, argv[3], strlen(argv[3]));
        snprintf(msg, sizeof msg, "stderr:%d", code);
        put(err, msg, strlen(msg));
        return code;
    }
    if (argc >= 3 && !strcmp(argv[1], "write")) {
        size_t n = (size_t)strtoull(argv[2], NULL, 10), read = drain_stdin(0);
        static char xs[65536];
        memset(xs, 'x', sizeof xs);
        while (n > 0) {
            size_t k = n < sizeof xs ? n : sizeof xs;
            put(out, xs, k);
            n -= k;
        }
        snprintf(msg, sizeof msg, "%zu", read);
        put(err, msg, strlen(msg));
        return 0;
    }
    if (argc >= 3 && !strcmp(argv[1], "sleep")) {
        Sleep((DWORD)atoi(argv[2]));
        return 0;
    }
    if (argc >= 4 && !strcmp(argv[1], "tick")) {
        DWORD end = GetTickCount() + (DWORD)atoi(argv[3]);
        while ((LONG)(end - GetTickCount()) > 0) {
            FILE *f = fopen(argv[2], "ab");
            if (f) {
                fputc('.', f);
                fclose(f);
            }
            Sleep(20);
        }
        return 0;
    }
    if (argc >= 3 && !strcmp(argv[1], "tree")) {
        if (!start_sleeper(argv[2], argc >= 4 ? argv[3] : NULL))
            return 90;
        put(out, "started", 7);
        Sleep((DWORD)atoi(argv[2]));
        return 0;
    }
    if (argc >= 3 && !strcmp(argv[1], "leave")) {
        if (!start_sleeper(argv[2], argc >= 4 ? argv[3] : NULL))
            return 90;
        put(out, "left", 4);
        return 0;
    }
    fprintf(stderr, "usage: hook cat|reply CODE TEXT|write N|sleep MS|tick FILE MS|tree MS [FILE]|leave MS [FILE]\n");
    return 64;
}
