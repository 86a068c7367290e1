#!/usr/bin/env bash
# Compile and run every C, Go, TypeScript and Python snippet of the READMEs, so that
# the documentation runs as written (`make test-readme`, part of `make test`).
#
# A fenced block tagged ```c, ```go or ```ts in README.md, bindings/*/README.md
# or bindings/go/otelhookline/README.md is a complete program:
#   c   compiled with -std=c11 -Wall -Wextra -Werror against include/ and
#       target/release/libhookline.so (rpath recorded), then run;
#   go  `go run` in a scratch module that requires the Go binding (replaced
#       by bindings/go of this checkout), linked through build/pkgconfig;
#   ts  saved as .mts, type-checked with the tsc flags of README.md's
#       `npx tsc ...` line (the ones the Node quickstart tells users to run;
#       only --rootDir/--outDir are added) and run with node (ESM, top-level
#       await allowed; `import ... from 'hookline'` is this checkout's package);
#   python  type-checked with `mypy --strict` and run with the tools' Python
#       (build/python/venv, `make python-env`); `import hookline` is this checkout's package.
# Each program must exit 0 (snippets check their own results). A ```js block
# fails the run: tag Node examples ```ts so they are type-checked too.
# Fragments that are not programs use another tag (```text) or none.
# The Rust snippets are doctests (`cargo test`).
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
cd "$root"
out="$root/build/readme-snippets"
node_out="$root/bindings/node/build/readme-snippets" # inside the package: `hookline` resolves to it
rm -rf "$out" "$node_out"
mkdir -p "$out" "$node_out"
lib="$root/target/release"
[ -f "$lib/libhookline.so" ] || { echo "readme-snippets: build the library first (make lib)" >&2; exit 1; }
[ -f "$root/build/pkgconfig/hookline.pc" ] || { echo "readme-snippets: run 'make pc-uninstalled' first (the Go binding links through pkg-config)" >&2; exit 1; }

readmes=(README.md bindings/*/README.md bindings/go/otelhookline/README.md)
# Extract: one file per block, named <readme-slug>-<n>.<ext>; print "lang path source:line".
extract() {
  awk -v dir="$1" -v slug="$2" -v src="$3" '
    /^```/ {
      if (!inside) {
        lang = substr($0, 4); gsub(/[ \t].*$/, "", lang); inside = 1; n++; start = NR + 1
        if (lang == "c" || lang == "go" || lang == "ts" || lang == "js" || lang == "javascript" || lang == "python") {
          ext = (lang == "ts") ? "mts" : (lang == "python") ? "py" : lang
          file = sprintf("%s/%s-%d.%s", dir, slug, n, ext); keep = 1
          printf "" > file
          print lang, file, src ":" start
        } else keep = 0
        next
      }
      inside = 0; if (keep) close(file); keep = 0; next
    }
    inside && keep { print > file }
  ' "$3"
}

go_module="$(awk '/^module /{print $2; exit}' bindings/go/go.mod)"
# The documented tsc command: its flags, without `npx tsc` and the file name.
tsc_line="$(grep -E '^npx tsc ' README.md | head -n 1 | sed 's/[[:space:]]*#.*$//')"
[ -n "$tsc_line" ] || { echo "readme-snippets: README.md has no 'npx tsc ...' line (the TypeScript quickstart's command)" >&2; exit 1; }
read -r -a tsc_flags <<<"$tsc_line"
tsc_flags=("${tsc_flags[@]:2:${#tsc_flags[@]}-3}")
tsc="$root/bindings/node/node_modules/typescript/bin/tsc"
py="$root/build/python/venv/bin/python"
snippets=()
for readme in "${readmes[@]}"; do
  slug="$(echo "$readme" | tr '/.' '__')"
  while read -r lang file where; do
    case "$lang" in
      js | javascript) echo "readme-snippets: $where: a \`\`\`$lang block; tag Node examples \`\`\`ts" >&2; exit 1 ;;
      ts) mv "$file" "$node_out/"; file="$node_out/$(basename "$file")" ;;
    esac
    snippets+=("$lang $file $where")
  done < <(extract "$out" "$slug" "$readme")
done

failed=0
ran=0
for s in "${snippets[@]}"; do
  read -r lang file where <<<"$s"
  name="$(basename "$file")"
  log="$out/$name.log"
  ok=1
  case "$lang" in
    c)
      bin="$out/${name%.c}"
      # The link line the C quickstart documents.
      if ! cc -std=c11 -Wall -Wextra -Werror -Iinclude "$file" -L"$lib" -lhookline -Wl,-rpath,"$lib" -o "$bin" >"$log" 2>&1 ||
        ! (cd "$out" && "$bin") >>"$log" 2>&1; then ok=0; fi
      ;;
    go)
      mod="$out/${name%.go}"
      mkdir -p "$mod"
      mv "$file" "$mod/main.go"
      src_dir="$(dirname "${where%%:*}")"
      if [ "$src_dir" != bindings/go ] && [ -f "$src_dir/go.mod" ]; then
        # The README of a module of its own (bindings/go/otelhookline): the scratch module
        # requires it with its requirements and checksums (all in the module cache after setup).
        sub_module="$(awk '/^module /{print $2; exit}' "$src_dir/go.mod")"
        { printf 'module readmesnippet\n\n'
          grep -v -e '^module ' -e '^replace ' -e '^//' "$src_dir/go.mod"
          printf '\nrequire %s v0.0.0\n\nreplace %s => %s\n\nreplace %s => %s\n' \
            "$sub_module" "$sub_module" "$root/$src_dir" "$go_module" "$root/bindings/go"
        } >"$mod/go.mod"
        cp "$src_dir/go.sum" "$mod/go.sum"
      else
        printf 'module readmesnippet\n\ngo 1.22\n\nrequire %s v0.0.0\n\nreplace %s => %s\n' \
          "$go_module" "$go_module" "$root/bindings/go" >"$mod/go.mod"
      fi
      # The binding links through pkg-config: the in-tree build's .pc (make pc-uninstalled).
      if ! (cd "$mod" && PKG_CONFIG_PATH="$root/build/pkgconfig" LD_LIBRARY_PATH="$lib" GOFLAGS=-mod=mod go run .) >"$log" 2>&1; then ok=0; fi
      ;;
    ts)
      if [ ! -f "$tsc" ]; then
        echo "readme-snippets: typescript is not installed (scripts/setup.sh)" >&2
        exit 1
      fi
      if ! (cd "$root/bindings/node" && node "$tsc" "${tsc_flags[@]}" \
        --rootDir "$root/bindings/node" --outDir "$node_out/js" "$file") >"$log" 2>&1 ||
        ! (cd "$out" && node "$node_out/js/build/readme-snippets/${name%.mts}.mjs") >>"$log" 2>&1; then ok=0; fi
      ;;
    python)
      if [ ! -x "$py" ]; then
        echo "readme-snippets: the Python tools are not installed (make python-env)" >&2
        exit 1
      fi
      if ! (cd "$out" && MYPYPATH="$root/bindings/python/src" "$py" -m mypy --strict --no-incremental "$file") >"$log" 2>&1 ||
        ! (cd "$out" && PYTHONPATH="$root/bindings/python/src" "$py" "$file") >>"$log" 2>&1; then ok=0; fi
      ;;
  esac
  ran=$((ran + 1))
  if [ "$ok" = 1 ]; then
    echo "ok   $lang snippet at $where"
  else
    echo "FAIL $lang snippet at $where:" >&2
    sed 's/^/    /' "$log" >&2
    failed=$((failed + 1))
  fi
done
echo "readme snippets: $ran compiled and run, $failed failed"
[ "$failed" = 0 ] && [ "$ran" -gt 0 ]
