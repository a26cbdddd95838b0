#!/usr/bin/env bash
# Stops the single-node cluster (npm run cluster:down): the pods' containers, then every process
# up.sh started (by the pids it recorded), then removes the node's network setup (kube-proxy's and
# the CNI plugin's iptables rules, the bridge, the pods' network namespaces) and the state directory
# (certificates, etcd, containerd's images). The compiled binaries are kept ($CLUSTER_BIN).
# Idempotent: safe to run when nothing runs.
set -uo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
# shellcheck source=deploy/cluster/lib.sh
source "$here/lib.sh"
[[ "$(id -u)" == 0 ]] || die "run as root"
t0=$(now_ms)

stop() { # stop NAME: SIGTERM, then SIGKILL after 10 s
  local f="$CLUSTER_DIR/run/$1.pid" pid
  [[ -f "$f" ]] || return 0
  pid="$(cat "$f")"
  if kill -0 "$pid" 2>/dev/null; then
    kill "$pid" 2>/dev/null
    for _ in $(seq 1 20); do kill -0 "$pid" 2>/dev/null || break; sleep 0.5; done
    kill -9 "$pid" 2>/dev/null || true
  fi
  rm -f "$f"
}

# The control loops first, so nothing restarts what is stopped next.
for p in dns-sync metrics-server kube-controller-manager kube-scheduler kubelet; do stop "$p"; done
# The pods' containers: every task in containerd's k8s.io namespace, killed and deleted.
if [[ -S "$CONTAINERD_SOCK" ]]; then
  for id in $(ctr_k8s tasks ls -q 2>/dev/null); do ctr_k8s tasks kill -s SIGKILL "$id" >/dev/null 2>&1 || true; done
  sleep 1
  for id in $(ctr_k8s tasks ls -q 2>/dev/null); do ctr_k8s tasks delete -f "$id" >/dev/null 2>&1 || true; done
  for id in $(ctr_k8s containers ls -q 2>/dev/null); do ctr_k8s containers delete "$id" >/dev/null 2>&1 || true; done
fi
for p in kube-proxy kube-apiserver etcd dnsmasq containerd; do stop "$p"; done
# Shims of this containerd (found by its socket in their command line) that outlived it.
for d in /proc/[0-9]*; do
  if tr '\0' ' ' <"$d/cmdline" 2>/dev/null | grep -q "containerd-shim.*-address $CONTAINERD_SOCK "; then
    kill -9 "${d#/proc/}" 2>/dev/null || true
  fi
done

# kube-proxy's iptables chains, the CNI plugin's, the bridge and the pods' network namespaces.
[[ -x "$CLUSTER_BIN/kube-proxy" ]] && "$CLUSTER_BIN/kube-proxy" --cleanup >/dev/null 2>&1
for table in nat filter; do
  iptables -t "$table" -S 2>/dev/null | grep -E '^-A .*(CNI-|KUBE-)' | sed 's/^-A/-D/' | while read -r rule; do
    eval "iptables -t $table $rule" 2>/dev/null || true
  done
  for chain in $(iptables -t "$table" -S 2>/dev/null | awk '/^-N (CNI-|KUBE-)/ {print $2}'); do
    iptables -t "$table" -F "$chain" 2>/dev/null || true
  done
  for chain in $(iptables -t "$table" -S 2>/dev/null | awk '/^-N (CNI-|KUBE-)/ {print $2}'); do
    iptables -t "$table" -X "$chain" 2>/dev/null || true
  done
done
for dir in -i -o; do
  while iptables -D FORWARD "$dir" "$BRIDGE" -j ACCEPT 2>/dev/null; do :; done
done
ip link show "$BRIDGE" >/dev/null 2>&1 && ip link delete "$BRIDGE"
for ns in $(ip netns list 2>/dev/null | awk '/^cni-/ {print $1}'); do ip netns delete "$ns" 2>/dev/null || true; done

# Mounts left under the state directory (the pods' Secret volumes, containerd's snapshots).
if [[ -d "$CLUSTER_DIR" ]]; then
  awk -v d="$CLUSTER_DIR" 'index($2, d) == 1 {print $2}' /proc/mounts | sort -r | while read -r m; do umount -l "$m" 2>/dev/null || true; done
  awk '$2 ~ "^/run/medfolio-containerd" {print $2}' /proc/mounts | sort -r | while read -r m; do umount -l "$m" 2>/dev/null || true; done
  rm -rf "$CLUSTER_DIR" /run/medfolio-containerd
fi
echo "cluster: down in $(( ($(now_ms) - t0) / 1000 )) s (binaries kept in $CLUSTER_BIN)"
