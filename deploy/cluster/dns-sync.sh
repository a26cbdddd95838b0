#!/usr/bin/env bash
# Cluster DNS without CoreDNS (its module is not on the Go module proxy): rewrites the hosts file that
# dnsmasq serves on the pod bridge from the cluster's Services every 2 s, one line per Service,
#   <cluster IP> <name>.<namespace>.svc.cluster.local
# and sends dnsmasq SIGHUP when it changed. Pods resolve short names through the search path the
# kubelet writes (<namespace>.svc.cluster.local ...). Headless Services and pod names are not served.
# Started (and stopped) by up.sh / down.sh.
set -uo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
# shellcheck source=deploy/cluster/lib.sh
source "$here/lib.sh"
hosts="$CLUSTER_DIR/run/cluster-hosts"
while true; do
  if lines="$(kubectl get services -A -o jsonpath='{range .items[*]}{.spec.clusterIP} {.metadata.name}.{.metadata.namespace}.svc.cluster.local{"\n"}{end}' 2>/dev/null)"; then
    lines="$(grep -v '^None ' <<<"$lines" | grep -v '^ ' | sort)"
    if [[ "$lines" != "$(cat "$hosts" 2>/dev/null)" ]]; then
      printf '%s\n' "$lines" >"$hosts.new" && mv "$hosts.new" "$hosts"
      [[ -f "$CLUSTER_DIR/run/dnsmasq.pid" ]] && kill -HUP "$(cat "$CLUSTER_DIR/run/dnsmasq.pid")" 2>/dev/null
    fi
  fi
  sleep 2
done
