#!/usr/bin/env bash
# Renders the page of `spotswap simulate --html` for the built-in scenario in headless Chromium and
# writes docs/screenshot-simulate.png (shown in the README and docs/simulator.md).
#
#   scripts/screenshot.sh            # needs Chromium: apt-get install -y chromium
#   CHROMIUM=/path/to/chrome scripts/screenshot.sh
#
# The simulation is deterministic, so the picture changes only when the engine, the simulator or the
# page does.
set -euo pipefail

cd "$(dirname "$0")/.."
browser="${CHROMIUM:-$(command -v chromium || command -v chromium-browser || command -v google-chrome || true)}"
if [[ -z "$browser" ]]; then
  echo "screenshot: no Chromium found; install it (Debian: apt-get install -y chromium) or set CHROMIUM" >&2
  exit 1
fi

work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
npx tsx tools/cli/main.ts simulate --html "$work/simulate.html" > "$work/summary.txt"

# --no-sandbox: CI containers run as root, where Chromium's sandbox cannot start.
"$browser" --headless --no-sandbox --disable-gpu --hide-scrollbars --force-device-scale-factor=1 \
  --window-size=1200,1420 --screenshot="$work/simulate.png" "file://$work/simulate.html" 2> "$work/chromium.log" || {
  cat "$work/chromium.log" >&2
  exit 1
}
mkdir -p docs
cp "$work/simulate.png" docs/screenshot-simulate.png
echo "wrote docs/screenshot-simulate.png"
