#!/usr/bin/env bash
# Builds the image of each application given (default: gateway audit) and checks that it stays
# within the size budget: 250 MB uncompressed, `docker image inspect -f '{{.Size}}'`.
# Usage: docker/check-image-size.sh [APP...]    (from anywhere; needs a Docker engine)
# Environment: TAG (default: size-check), LIMIT_MB (default: 250). docker/images.sh does the work.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
[[ $# -gt 0 ]] || set -- gateway audit
TAG="${TAG:-size-check}" exec "$root/docker/images.sh" "$@"
