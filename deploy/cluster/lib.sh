# Shared by deploy/cluster/*.sh (sourced, not run): where things live, versions, small helpers.
#
# The cluster is one node, this machine: etcd, kube-apiserver, kube-controller-manager,
# kube-scheduler, kubelet and kube-proxy run as host processes started by up.sh; pods run in a
# containerd of their own (Debian's package, its own socket and state) with the bridge CNI plugin.
# Nothing is pulled from a registry: the binaries are compiled from the Go module proxy
# (build.sh), the pause image is a static binary compiled here, and every other image comes from
# the local Docker engine (`docker save | ctr import`).

# State of the running cluster (certificates, etcd data, containerd's images, logs, pids).
CLUSTER_DIR="${CLUSTER_DIR:-/var/lib/medfolio-cluster}"
# Compiled binaries, kept across `cluster:down` (building them takes long).
CLUSTER_BIN="${CLUSTER_BIN:-/var/cache/medfolio-cluster/bin}"
# Go build directory (a module of its own that requires k8s.io/kubernetes; never in the repository).
CLUSTER_BUILD="${CLUSTER_BUILD:-/var/tmp/medfolio-cluster-build}"

K8S_VERSION="${K8S_VERSION:-v1.37.2}"    # k8s.io/kubernetes; its staging modules are v0.<minor>.<patch>
ETCD_VERSION="${ETCD_VERSION:-v3.6.16}"  # go.etcd.io/etcd/server/v3
HELM_VERSION="${HELM_VERSION:-v3.21.4}"  # as libs/tooling/tools.d/k8s.sh
METRICS_SERVER_VERSION="${METRICS_SERVER_VERSION:-v0.8.0}"  # sigs.k8s.io/metrics-server

NODE_NAME="${NODE_NAME:-medfolio-node}"
# The address the apiserver advertises and the kubelet reports: the first global IPv4 address.
NODE_IP="${NODE_IP:-$(ip -4 -o addr show scope global 2>/dev/null | awk '$2 != "docker0" && $2 !~ /^mfk8s/ {split($4, a, "/"); print a[1]; exit}')}"
POD_CIDR="${POD_CIDR:-10.244.0.0/24}"
POD_GATEWAY="${POD_GATEWAY:-10.244.0.1}"   # the bridge's address: also where cluster DNS answers
BRIDGE="${BRIDGE:-mfk8s0}"
SERVICE_CIDR="${SERVICE_CIDR:-10.96.0.0/16}"
KUBERNETES_SVC_IP="${KUBERNETES_SVC_IP:-10.96.0.1}"
APISERVER_PORT="${APISERVER_PORT:-6443}"
ETCD_PORT="${ETCD_PORT:-2379}"
CONTAINERD_SOCK="/run/medfolio-containerd/containerd.sock"
PAUSE_IMAGE="medfolio.local/pause:3.10"

NAMESPACE="${NAMESPACE:-medfolio}"
INFRA_NAMESPACE="${INFRA_NAMESPACE:-medfolio-infra}"
RELEASE="${RELEASE:-medfolio}"
TAG="${TAG:-dev}"
APPS=(gateway audit identity documents summary notifications wallet billing connections)
INFRA_IMAGES=(medfolio/postgres:15 medfolio/nats:2.9 medfolio/versitygw:1.8.0)

export KUBECONFIG="$CLUSTER_DIR/admin.kubeconfig"
export PATH="$CLUSTER_BIN:/usr/local/go/bin:$PATH"

now_ms() { date +%s%3N; }
# Step timing: `step NAME` starts a step (and ends the previous one), `step_end` ends the last.
STEP_NAME="" STEP_T0=0 TIMINGS=()
step() {
  step_end
  STEP_NAME="$1" STEP_T0=$(now_ms)
  echo "cluster: -- $1" >&2
}
step_end() {
  if [[ -n "$STEP_NAME" ]]; then
    local ms=$(( $(now_ms) - STEP_T0 ))
    TIMINGS+=("$(printf '%-44s %7.1f s' "$STEP_NAME" "$(echo "$ms / 1000" | bc -l)")")
    STEP_NAME=""
  fi
}
print_timings() {
  step_end
  echo "cluster: timings"
  printf '  %s\n' "${TIMINGS[@]}"
}
die() { echo "cluster: ERROR: $*" >&2; exit 1; }

# wait_for WHAT TIMEOUT_S COMMAND...: retries COMMAND every second until it succeeds.
wait_for() {
  local what="$1" timeout="$2"
  shift 2
  local deadline=$(( $(date +%s) + timeout ))
  until "$@" >/dev/null 2>&1; do
    if (( $(date +%s) > deadline )); then echo "cluster: $what: not after $timeout s" >&2; return 1; fi
    sleep 1
  done
}

# Background processes: started with `spawn NAME CMD...` (log in $CLUSTER_DIR/logs/NAME.log, pid in
# $CLUSTER_DIR/run/NAME.pid); `running NAME` tells whether it still runs.
running() {
  local f="$CLUSTER_DIR/run/$1.pid"
  [[ -f "$f" ]] && kill -0 "$(cat "$f")" 2>/dev/null
}
spawn() {
  local name="$1"
  shift
  mkdir -p "$CLUSTER_DIR/logs" "$CLUSTER_DIR/run"
  if running "$name"; then return 0; fi
  setsid nohup "$@" >>"$CLUSTER_DIR/logs/$name.log" 2>&1 </dev/null &
  echo $! >"$CLUSTER_DIR/run/$name.pid"
}

# write_if_changed FILE: stdin into FILE, only when it differs (kube-proxy exits when its
# configuration file changes, even to the same content).
write_if_changed() {
  local tmp="$1.new"
  cat >"$tmp"
  if cmp -s "$tmp" "$1"; then rm -f "$tmp"; else mv "$tmp" "$1"; fi
}

docker_cli() {
  # The engine the image scripts use (docker/lib.sh): its own socket unless DOCKER_HOST is set.
  local d=docker
  [[ -x /usr/bin/docker ]] && d=/usr/bin/docker
  DOCKER_HOST="${DOCKER_HOST:-unix:///var/run/medfolio-docker.sock}" "$d" "$@"
}
ctr_k8s() { ctr --address "$CONTAINERD_SOCK" -n k8s.io "$@"; }
