#!/usr/bin/env bash
# Tests the chart's release on the single-node cluster that up.sh made (npm run cluster:test):
#   - the system journeys through `kubectl port-forward` to the gateway's Service (127.0.0.1:28080);
#   - `helm upgrade` to another image tag (the same images re-tagged <TAG>-b, or back to <TAG> when
#     <TAG>-b runs) under a mixed load on the gateway's Service: no request may fail;
#   - a gateway pod and a documents pod deleted under load come back; nothing acknowledged is lost;
#   - the gateway's HorizontalPodAutoscaler (with CPU figures from metrics-server) and the
#     PodDisruptionBudgets.
# Prints the time of each step and the figures measured. Jest arguments after the script's name are
# passed on (e.g. -t 'journey').
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(cd "$here/../.." && pwd)"
# shellcheck source=deploy/cluster/lib.sh
source "$here/lib.sh"
[[ "$(id -u)" == 0 ]] || die "run as root (the images go into the node's containerd)"
kubectl get --raw /readyz >/dev/null 2>&1 || die "no cluster answers at $KUBECONFIG: run npm run cluster:up first"
helm status "$RELEASE" -n "$NAMESPACE" >/dev/null 2>&1 || die "the release $RELEASE is not installed in $NAMESPACE: run npm run cluster:up"
pids=()
cleanup() { for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; done; }
trap cleanup EXIT

# From empty databases, as stack:test: the journeys use the fake NPI registry's fixed licence
# numbers, which a previous run's accounts would already hold. The infrastructure keeps its data in
# emptyDir, so new pods start empty; the migrations run again (helm upgrade's hooks), then the
# services restart (their JetStream streams are made at start).
step "fresh data: new PostgreSQL, NATS and S3 pods, migrations, services restarted"
kubectl -n "$INFRA_NAMESPACE" delete pod -l 'app in (postgres,nats,s3)' --wait=true >/dev/null
for d in postgres nats s3; do kubectl -n "$INFRA_NAMESPACE" rollout status "deployment/$d" --timeout=180s >/dev/null; done
wait_for "PostgreSQL ready" 60 kubectl -n "$INFRA_NAMESPACE" wait pod -l app=postgres --for=condition=Ready --timeout=2s
helm upgrade "$RELEASE" "$root/helm/medfolio" -n "$NAMESPACE" --reuse-values --wait --wait-for-jobs --timeout 10m >/dev/null ||
  die "helm upgrade (migrations on the fresh database) failed"
kubectl -n "$NAMESPACE" rollout restart deployment -l "app.kubernetes.io/instance=$RELEASE" >/dev/null
for d in $(kubectl -n "$NAMESPACE" get deploy -l "app.kubernetes.io/instance=$RELEASE" -o name); do
  kubectl -n "$NAMESPACE" rollout status "$d" --timeout=300s >/dev/null || die "$d did not roll out"
done

step "the upgrade's image tag into containerd"
current="$(kubectl -n "$NAMESPACE" get deploy "$RELEASE-gateway" -o jsonpath='{.spec.template.spec.containers[0].image}')"
current="${current##*:}"
if [[ "$current" == "$TAG-b" ]]; then upgrade_tag="$TAG"; else upgrade_tag="$TAG-b"; fi
have="$(ctr_k8s images ls -q)"
for app in "${APPS[@]}"; do
  grep -qx "docker.io/medfolio/$app:$upgrade_tag" <<<"$have" && continue
  if [[ "$upgrade_tag" == "$TAG" ]]; then
    docker_cli save "medfolio/$app:$TAG" | ctr_k8s images import - >/dev/null
  else
    ctr_k8s images tag "docker.io/medfolio/$app:$TAG" "docker.io/medfolio/$app:$upgrade_tag" >/dev/null
  fi
done
echo "cluster: running :$current, upgrading to :$upgrade_tag" >&2

step "port-forwards (gateway 127.0.0.1:28080, PostgreSQL 127.0.0.1:25432)"
kubectl -n "$NAMESPACE" port-forward "svc/$RELEASE-gateway" 28080:80 >"$CLUSTER_DIR/logs/port-forward-gateway.log" 2>&1 &
pids+=($!)
kubectl -n "$INFRA_NAMESPACE" port-forward svc/postgres 25432:5432 >"$CLUSTER_DIR/logs/port-forward-postgres.log" 2>&1 &
pids+=($!)
wait_for "the gateway through the port-forward" 30 curl -fsS http://127.0.0.1:28080/api/health/ ||
  { cat "$CLUSTER_DIR/logs/port-forward-gateway.log" >&2; die "port-forward to the gateway failed"; }
# shellcheck source=/dev/null
source "$CLUSTER_DIR/secrets.env"
service_ip="$(kubectl -n "$NAMESPACE" get svc "$RELEASE-gateway" -o jsonpath='{.spec.clusterIP}')"
service_port="$(kubectl -n "$NAMESPACE" get svc "$RELEASE-gateway" -o jsonpath='{.spec.ports[0].port}')"

step "journeys, upgrade under load, pods deleted under load, HPA and PDB (jest)"
cd "$root"
export PATH="$root/node_modules/.bin:$PATH"
status=0
CLUSTER_BASE_URL=http://127.0.0.1:28080 CLUSTER_SERVICE_URL="http://$service_ip:$service_port" \
  CLUSTER_PG_URL="postgres://medfolio:$POSTGRES_PASSWORD@127.0.0.1:25432/medfolio" \
  CLUSTER_DIR="$CLUSTER_DIR" CLUSTER_UPGRADE_TAG="$upgrade_tag" NAMESPACE="$NAMESPACE" RELEASE="$RELEASE" POD_GATEWAY="$POD_GATEWAY" \
  NODE_OPTIONS=--experimental-vm-modules jest -c deploy/cluster/jest.cluster.config.cjs --runInBand "$@" || status=$?
step_end
echo "cluster: objects after the test"
kubectl -n "$NAMESPACE" get hpa,pdb,deploy 2>&1 || true
kubectl top pods -n "$NAMESPACE" 2>&1 | head -20 || true
print_timings
exit "$status"
