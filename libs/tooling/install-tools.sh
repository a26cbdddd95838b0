#!/usr/bin/env bash
# Installs the tools the tests need: Debian's Chromium (browser tests) and ClamAV's daemon
# (antivirus tests) with apt-get, and
# versitygw as the S3 server, helm and kube-score with
# `go install` from the Go module proxy, at pinned versions, into a cache outside the clone
# (MEDFOLIO_TOOLS_DIR, default ~/.cache/medfolio/tools/bin), so a second run takes no time.
# Each group of tools has its own file in tools/tools.d/, sourced here, which calls go_install.
# Prints the bin directory last; callers add it to PATH.
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
export MEDFOLIO_TOOLS_DIR="${MEDFOLIO_TOOLS_DIR:-$HOME/.cache/medfolio/tools}"
export GOBIN="$MEDFOLIO_TOOLS_DIR/bin"
mkdir -p "$GOBIN"
export PATH="$GOBIN:/usr/local/go/bin:$PATH"
# Debian's Chromium for the browser tests (Playwright drives it; it never downloads a browser).
chromium="${CHROMIUM_PATH:-/usr/bin/chromium}"
if [[ ! -x "$chromium" ]]; then
  if command -v apt-get >/dev/null 2>&1 && [[ "$(id -u)" == 0 ]]; then
    echo "install-tools: apt-get install chromium" >&2
    export DEBIAN_FRONTEND=noninteractive
    apt-get install -y --no-install-recommends chromium >&2 || { apt-get update >&2 && apt-get install -y --no-install-recommends chromium >&2; }
  else
    echo "install-tools: Chromium is missing at $chromium; install Debian's chromium package (as root) or set CHROMIUM_PATH" >&2
  fi
fi

# Debian's ClamAV daemon for the antivirus tests: libs/testing/src/clamd.ts starts its own clamd on a
# free port with a signature database it writes (the EICAR test signature). freshclam is never run:
# the official databases cannot be downloaded on these machines. In CI the tests fail without it.
clamd="${CLAMD_BIN:-/usr/sbin/clamd}"
if [[ ! -x "$clamd" ]]; then
  if command -v apt-get >/dev/null 2>&1 && [[ "$(id -u)" == 0 ]]; then
    echo "install-tools: apt-get install clamav-daemon" >&2
    export DEBIAN_FRONTEND=noninteractive
    apt-get install -y --no-install-recommends clamav-daemon >&2 || { apt-get update >&2 && apt-get install -y --no-install-recommends clamav-daemon >&2; }
  else
    echo "install-tools: clamd is missing at $clamd; install Debian's clamav-daemon package (as root) or set CLAMD_BIN" >&2
  fi
fi

# poppler-utils (pdftotext, pdfinfo, pdffonts) and qpdf: the summary PDF's layout test reads the
# rendered pages with them (libs/clinical/src/print/summary-pdf-layout.spec.ts).
if ! command -v pdftotext >/dev/null 2>&1 || ! command -v qpdf >/dev/null 2>&1; then
  if command -v apt-get >/dev/null 2>&1 && [[ "$(id -u)" == 0 ]]; then
    echo "install-tools: apt-get install poppler-utils qpdf" >&2
    export DEBIAN_FRONTEND=noninteractive
    apt-get install -y --no-install-recommends poppler-utils qpdf >&2 || { apt-get update >&2 && apt-get install -y --no-install-recommends poppler-utils qpdf >&2; }
  else
    echo "install-tools: install Debian's poppler-utils and qpdf for the summary PDF tests" >&2
  fi
fi

if ! command -v go >/dev/null 2>&1; then
  echo "install-tools: Go is not installed; tools that need it are skipped" >&2
  echo "$GOBIN"
  exit 0
fi

# go_install NAME MODULE@VERSION: installs once per version (a marker file records the version).
go_install() {
  local name="$1" pkg="$2" marker="$GOBIN/.$1.version"
  if [[ -x "$GOBIN/$name" && -f "$marker" && "$(cat "$marker")" == "$pkg" ]]; then return 0; fi
  echo "install-tools: go install $pkg" >&2
  go install "$pkg" >&2
  echo "$pkg" >"$marker"
}

for f in "$here"/tools.d/*.sh; do
  [[ -e "$f" ]] || continue
  # shellcheck source=/dev/null
  source "$f"
done
echo "$GOBIN"
