#!/usr/bin/env bash
# Compiles what the single-node cluster runs, from the Go module proxy, into $CLUSTER_BIN (default
# /var/cache/medfolio-cluster/bin); a binary already there is kept (delete it to rebuild).
#
#   kube-apiserver kube-controller-manager kube-scheduler kubelet kube-proxy kubectl
#       k8s.io/kubernetes $K8S_VERSION. `go install k8s.io/kubernetes/cmd/kubelet@...` is refused
#       (its go.mod replaces every k8s.io/* staging module with ./staging/...), so a module of our
#       own in $CLUSTER_BUILD requires k8s.io/kubernetes and replaces each staging module with its
#       published v0.X.Y instead. The version is stamped in (helm checks the chart's kubeVersion).
#   etcd            go.etcd.io/etcd/server/v3 $ETCD_VERSION (its etcdmain, behind a three-line main)
#   helm            helm.sh/helm/v3 $HELM_VERSION (the version libs/tooling/tools.d/k8s.sh pins)
#   metrics-server  sigs.k8s.io/metrics-server $METRICS_SERVER_VERSION (the HPA's CPU figures)
#   pause           the sandbox image's binary: a static C program compiled with gcc
#
# On 2 shared cores, from empty Go caches: about 25 minutes for Kubernetes, 3 for etcd, 2 for helm.
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
# shellcheck source=deploy/cluster/lib.sh
source "$here/lib.sh"
command -v go >/dev/null || die "Go is needed (/usr/local/go/bin/go); the binaries are compiled from the Go module proxy"
mkdir -p "$CLUSTER_BIN" "$CLUSTER_BUILD"
export GOFLAGS=-mod=mod CGO_ENABLED=0

k8s_bins=(kube-apiserver kube-controller-manager kube-scheduler kubelet kube-proxy kubectl)
missing=()
for b in "${k8s_bins[@]}"; do [[ -x "$CLUSTER_BIN/$b" ]] || missing+=("$b"); done
if ((${#missing[@]})); then
  step "compile ${missing[*]} ($K8S_VERSION)"
  dir="$CLUSTER_BUILD/kubernetes"
  mkdir -p "$dir"
  go mod download -json "k8s.io/kubernetes@$K8S_VERSION" >"$dir/download.json"
  modfile="$(sed -n 's/.*"GoMod": "\(.*\)".*/\1/p' "$dir/download.json")"
  staging_version="v0.${K8S_VERSION#v1.}"
  {
    printf 'module local/medfolio-cluster-kubernetes\n\ngo 1.26.0\n\nrequire k8s.io/kubernetes %s\n\nreplace (\n' "$K8S_VERSION"
    grep -E '=> \./staging/' "$modfile" | awk -v v="$staging_version" '{printf "\t%s => %s %s\n", $1, $1, v}'
    printf ')\n'
  } >"$dir/go.mod"
  {
    printf '//go:build tools\n\npackage tools\n\nimport (\n'
    for b in "${k8s_bins[@]}"; do printf '\t_ "k8s.io/kubernetes/cmd/%s"\n' "$b"; done
    printf ')\n'
  } >"$dir/tools.go"
  (cd "$dir" && go mod tidy)
  v=k8s.io/component-base/version cv=k8s.io/client-go/pkg/version minor="${K8S_VERSION#v1.}"
  minor="${minor%%.*}"
  ld="-s -w -X $v.gitVersion=$K8S_VERSION -X $v.gitMajor=1 -X $v.gitMinor=$minor -X $v.gitTreeState=clean"
  ld+=" -X $v.buildDate=1970-01-01T00:00:00Z -X $cv.gitVersion=$K8S_VERSION -X $cv.gitMajor=1 -X $cv.gitMinor=$minor"
  pkgs=()
  for b in "${missing[@]}"; do pkgs+=("k8s.io/kubernetes/cmd/$b"); done
  (cd "$dir" && go build -trimpath -ldflags="$ld" -o "$CLUSTER_BIN/" "${pkgs[@]}")
fi

if [[ ! -x "$CLUSTER_BIN/etcd" ]]; then
  step "compile etcd ($ETCD_VERSION)"
  dir="$CLUSTER_BUILD/etcd"
  mkdir -p "$dir"
  cat >"$dir/main.go" <<'GO'
package main

import (
	"os"

	"go.etcd.io/etcd/server/v3/etcdmain"
)

func main() { etcdmain.Main(os.Args) }
GO
  printf 'module local/medfolio-cluster-etcd\n\ngo 1.26.0\n\nrequire go.etcd.io/etcd/server/v3 %s\n' "$ETCD_VERSION" >"$dir/go.mod"
  (cd "$dir" && go mod tidy && go build -trimpath -ldflags="-s -w" -o "$CLUSTER_BIN/etcd" .)
fi

if [[ ! -x "$CLUSTER_BIN/helm" ]]; then
  tools_helm="${MEDFOLIO_TOOLS_DIR:-$HOME/.cache/medfolio/tools}/bin/helm"
  if [[ -x "$tools_helm" ]]; then
    ln -sf "$tools_helm" "$CLUSTER_BIN/helm"
  else
    step "compile helm ($HELM_VERSION)"
    GOBIN="$CLUSTER_BIN" go install -trimpath -ldflags="-s -w" "helm.sh/helm/v3/cmd/helm@$HELM_VERSION"
  fi
fi

if [[ ! -x "$CLUSTER_BIN/metrics-server" && "${METRICS_SERVER:-1}" == 1 ]]; then
  step "compile metrics-server ($METRICS_SERVER_VERSION)"
  GOBIN="$CLUSTER_BIN" go install -trimpath -ldflags="-s -w" "sigs.k8s.io/metrics-server/cmd/metrics-server@$METRICS_SERVER_VERSION" ||
    echo "cluster: metrics-server did not compile; the HPA will show <unknown> CPU" >&2
fi

if [[ ! -x "$CLUSTER_BIN/pause" ]]; then
  step "compile pause"
  command -v gcc >/dev/null || die "gcc is needed for the pause binary (apt-get install -y gcc libc6-dev)"
  gcc -Os -static -o "$CLUSTER_BIN/pause" "$here/pause.c"
  strip "$CLUSTER_BIN/pause" 2>/dev/null || true
fi
print_timings
