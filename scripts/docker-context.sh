#!/usr/bin/env bash
# The build context of docker/Dockerfile (`docker build .` from a clone): the working tree's files
# that git tracks or would track (new ones not yet added too, not those .gitignore excludes), less
# those .dockerignore excludes, by Docker's rules (BuildKit's pattern matcher): a pattern is
# a path relative to the root, `*` and `?` stop at `/`, `**` spans directories, a pattern that
# matches a directory takes everything under it, `!` re-includes, and the last matching line wins.
# Usage: scripts/docker-context.sh --list   (prints the paths, one a line)
#        scripts/docker-context.sh DEST     (copies them from the working tree to DEST)
# scripts/check-docker-context.sh checks the image's build against this copy.
set -euo pipefail
[ $# -eq 1 ] || { echo "usage: $0 --list | DEST" >&2; exit 2; }
dest=$1
[ "$dest" = --list ] || dest=$(realpath -m "$dest")
cd "$(dirname "$0")/.."

# A pattern as an anchored extended regex, as the matcher compiles it.
to_regex() {
  local p=$1 re='' c i=0
  while [ $i -lt ${#p} ]; do
    c=${p:i:1}
    if [ "$c" = '*' ] && [ "${p:i+1:1}" = '*' ]; then
      i=$((i + 2))
      [ "${p:i:1}" = / ] && i=$((i + 1))
      if [ $i -ge ${#p} ]; then re+='.*'; else re+='(.*/)?'; fi
      continue
    fi
    case $c in
      '*') re+='[^/]*' ;;
      '?') re+='[^/]' ;;
      \\) i=$((i + 1)); re+="\\${p:i:1}" ;;
      .|+|'('|')'|'|'|'{'|'}'|'$'|'^') re+="\\$c" ;;
      *) re+=$c ;;
    esac
    i=$((i + 1))
  done
  printf '^%s$' "$re"
}

regexes=()
exceptions=()
if [ -f .dockerignore ]; then
  while IFS= read -r line || [ -n "$line" ]; do
    line=$(sed -E 's/^[[:space:]]+//; s/[[:space:]]+$//' <<<"$line")
    [ -z "$line" ] || [ "${line:0:1}" = '#' ] && continue
    exception=0
    if [ "${line:0:1}" = '!' ]; then
      exception=1
      line=$(sed -E 's/^![[:space:]]*//' <<<"$line")
    fi
    # Cleaned like a path: no leading or trailing `/`, no `//` or `./`.
    line=$(sed -E 's#/+#/#g; s#(^|/)\./#\1#g; s#^/##; s#/$##' <<<"$line")
    [ -n "$line" ] || continue
    regexes+=("$(to_regex "$line")")
    exceptions+=("$exception")
  done <.dockerignore
fi

# Whether the context leaves the path out: the last pattern matching it or a directory above it.
excluded() {
  local path=$1 out=0 i prefix rest
  for i in "${!regexes[@]}"; do
    prefix='' rest=$path
    while :; do
      prefix=${prefix:+$prefix/}${rest%%/*}
      if [[ $prefix =~ ${regexes[i]} ]]; then
        out=$((1 - exceptions[i]))
        break
      fi
      [[ $rest == */* ]] || break
      rest=${rest#*/}
    done
  done
  return $((1 - out))
}

kept=()
while IFS= read -r -d '' f; do
  [ -e "$f" ] || [ -L "$f" ] || continue  # deleted in the working tree
  excluded "$f" || kept+=("$f")
done < <(git ls-files -z --cached --others --exclude-standard)

if [ "$dest" = --list ]; then
  printf '%s\n' "${kept[@]}"
else
  mkdir -p "$dest"
  printf '%s\0' "${kept[@]}" | tar -cf - --null -T - | tar -C "$dest" -xf -
fi
