#!/usr/bin/env bash
# Commit subjects are at most 72 characters; the why goes in the body. Checked for every commit after
# SINCE (the commit the rule was adopted at; older history is left as it was written). A clone without
# that commit (shallow) has nothing to check against and says so.
set -euo pipefail
SINCE=1cc45ef5c0cc193546a5a4bdb7c8c0c65201d9fd
LIMIT=72
if ! git rev-parse --quiet --verify "${SINCE}^{commit}" >/dev/null 2>&1; then
  echo "commit subjects: ${SINCE:0:7} is not in this clone; not checked"
  exit 0
fi
long=$(git log --no-merges --format='%h %s' "${SINCE}..HEAD" | awk -v limit="$LIMIT" '{ if (length($0) - length($1) - 1 > limit) print }')
if [ -n "$long" ]; then
  printf 'commit subjects over %d characters:\n%s\n' "$LIMIT" "$long" >&2
  exit 1
fi
echo "commit subjects: every one since ${SINCE:0:7} is at most ${LIMIT} characters"
