#!/usr/bin/env bash
# A single-node Kubernetes on this machine, then the chart installed on it (npm run cluster:up).
#
#   1. binaries: deploy/cluster/build.sh when any is missing (compiled from the Go module proxy)
#   2. images: the product's (docker/images.sh) and the infrastructure's (docker/infra/build.sh)
#      when the local Docker engine lacks them
#   3. certificates (openssl), containerd (Debian's, a second instance on its own socket), etcd,
#      kube-apiserver, kube-controller-manager, kube-scheduler, kubelet, kube-proxy (iptables),
#      cluster DNS (dnsmasq fed with the Services' names, see dns-sync.sh), metrics-server
#   4. the images into containerd (`docker save | ctr import`, no registry)
#   5. PostgreSQL, NATS (JetStream) and versitygw (S3) in the namespace medfolio-infra (infra.yaml)
#   6. the Secrets, then `helm upgrade --install` of helm/medfolio with values-cluster.yaml; waits for
#      the migration Jobs and every pod Ready
# Idempotent: what already runs is kept. Needs root, iptables, cgroup write access.
# Environment: TAG (image tag, default dev), CLUSTER_DIR (state, default /var/lib/medfolio-cluster),
# CLUSTER_BIN (binaries), NODE_IP (default: the first global IPv4 address).
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(cd "$here/../.." && pwd)"
# shellcheck source=deploy/cluster/lib.sh
source "$here/lib.sh"
# shellcheck source=deploy/cluster/pki.sh
source "$here/pki.sh"

[[ "$(id -u)" == 0 ]] || die "run as root: the kubelet, containerd and kube-proxy need it"
[[ -n "$NODE_IP" ]] || die "no global IPv4 address found; set NODE_IP"
for tool in containerd runc ctr iptables openssl dnsmasq; do
  command -v "$tool" >/dev/null || die "$tool is missing: apt-get install -y containerd runc iptables openssl dnsmasq-base containernetworking-plugins"
done
[[ -x /usr/lib/cni/bridge ]] || die "the CNI plugins are missing: apt-get install -y containernetworking-plugins"

T_ALL=$(now_ms)
# 1. binaries
for b in etcd kube-apiserver kube-controller-manager kube-scheduler kubelet kube-proxy kubectl helm pause; do
  if [[ ! -x "$CLUSTER_BIN/$b" ]]; then
    step "build binaries (deploy/cluster/build.sh)"
    "$here/build.sh"
    break
  fi
done

# 2. images in the local Docker engine
step "images in the local Docker engine"
missing=()
for app in "${APPS[@]}"; do docker_cli image inspect "medfolio/$app:$TAG" >/dev/null 2>&1 || missing+=("$app"); done
((${#missing[@]} == 0)) || TAG="$TAG" "$root/docker/images.sh" "${missing[@]}"
for image in "${INFRA_IMAGES[@]}"; do
  docker_cli image inspect "$image" >/dev/null 2>&1 || { "$root/docker/infra/build.sh"; break; }
done

# 3. the node
step "certificates and kubeconfigs"
mkdir -p "$CLUSTER_DIR"/{logs,run,etcd,cni/net.d,containerd}
make_pki

step "containerd (own instance) and the pause image"
write_if_changed "$CLUSTER_DIR/containerd/config.toml" <<EOF
version = 2
root = "$CLUSTER_DIR/containerd/root"
state = "/run/medfolio-containerd/state"
[grpc]
  address = "$CONTAINERD_SOCK"
[ttrpc]
  address = "$CONTAINERD_SOCK.ttrpc"
[debug]
  address = "/run/medfolio-containerd/debug.sock"
[plugins."io.containerd.grpc.v1.cri"]
  sandbox_image = "$PAUSE_IMAGE"
  restrict_oom_score_adj = true
  [plugins."io.containerd.grpc.v1.cri".containerd]
    snapshotter = "overlayfs"
    default_runtime_name = "runc"
    [plugins."io.containerd.grpc.v1.cri".containerd.runtimes.runc]
      runtime_type = "io.containerd.runc.v2"
      [plugins."io.containerd.grpc.v1.cri".containerd.runtimes.runc.options]
        SystemdCgroup = false
  [plugins."io.containerd.grpc.v1.cri".cni]
    bin_dir = "/usr/lib/cni"
    conf_dir = "$CLUSTER_DIR/cni/net.d"
  [plugins."io.containerd.grpc.v1.cri".registry]
    config_path = ""
EOF
write_if_changed "$CLUSTER_DIR/cni/net.d/10-medfolio.conflist" <<EOF
{
  "cniVersion": "0.4.0",
  "name": "medfolio",
  "plugins": [
    {
      "type": "bridge", "bridge": "$BRIDGE", "isGateway": true, "ipMasq": true, "hairpinMode": true,
      "ipam": { "type": "host-local", "ranges": [[{ "subnet": "$POD_CIDR", "gateway": "$POD_GATEWAY" }]],
                "routes": [{ "dst": "0.0.0.0/0" }], "dataDir": "$CLUSTER_DIR/cni/ipam" }
    },
    { "type": "portmap", "capabilities": { "portMappings": true } }
  ]
}
EOF
mkdir -p /run/medfolio-containerd
spawn containerd containerd --config "$CLUSTER_DIR/containerd/config.toml"
wait_for "containerd on $CONTAINERD_SOCK" 30 ctr --address "$CONTAINERD_SOCK" version ||
  { tail -20 "$CLUSTER_DIR/logs/containerd.log" >&2; die "containerd did not start"; }
if ! ctr_k8s images ls -q | grep -qx "$PAUSE_IMAGE"; then
  # A one-file image: the static pause binary, imported with docker (which writes the image tar).
  ctx="$(mktemp -d)"
  cp "$CLUSTER_BIN/pause" "$ctx/pause"
  tar -C "$ctx" -c pause | docker_cli import -c 'ENTRYPOINT ["/pause"]' - "$PAUSE_IMAGE" >/dev/null
  rm -rf "$ctx"
  docker_cli save "$PAUSE_IMAGE" | ctr_k8s images import - >/dev/null
fi

step "etcd"
spawn etcd etcd --name medfolio --data-dir "$CLUSTER_DIR/etcd" \
  --listen-client-urls "http://127.0.0.1:$ETCD_PORT" --advertise-client-urls "http://127.0.0.1:$ETCD_PORT" \
  --listen-peer-urls http://127.0.0.1:2380 --initial-advertise-peer-urls http://127.0.0.1:2380 \
  --initial-cluster medfolio=http://127.0.0.1:2380 --listen-metrics-urls http://127.0.0.1:2381 \
  --quota-backend-bytes 2147483648
wait_for etcd 30 curl -fsS "http://127.0.0.1:2381/health" || { tail -20 "$CLUSTER_DIR/logs/etcd.log" >&2; die "etcd did not start"; }

step "kube-apiserver"
pki="$CLUSTER_DIR/pki"
spawn kube-apiserver kube-apiserver \
  --advertise-address "$NODE_IP" --bind-address 0.0.0.0 --secure-port "$APISERVER_PORT" \
  --etcd-servers "http://127.0.0.1:$ETCD_PORT" \
  --service-cluster-ip-range "$SERVICE_CIDR" --service-node-port-range 30000-32767 \
  --client-ca-file "$pki/ca.crt" --tls-cert-file "$pki/apiserver.crt" --tls-private-key-file "$pki/apiserver.key" \
  --kubelet-client-certificate "$pki/apiserver-kubelet-client.crt" --kubelet-client-key "$pki/apiserver-kubelet-client.key" \
  --kubelet-preferred-address-types InternalIP \
  --service-account-issuer https://kubernetes.default.svc.cluster.local \
  --service-account-key-file "$pki/sa.pub" --service-account-signing-key-file "$pki/sa.key" \
  --authorization-mode Node,RBAC --enable-admission-plugins NodeRestriction \
  --requestheader-client-ca-file "$pki/ca.crt" --requestheader-allowed-names front-proxy-client \
  --requestheader-username-headers X-Remote-User --requestheader-group-headers X-Remote-Group \
  --requestheader-extra-headers-prefix X-Remote-Extra- \
  --proxy-client-cert-file "$pki/front-proxy-client.crt" --proxy-client-key-file "$pki/front-proxy-client.key" \
  --enable-aggregator-routing=true --allow-privileged=true --profiling=false
wait_for "kube-apiserver /readyz" 120 kubectl get --raw /readyz ||
  { tail -30 "$CLUSTER_DIR/logs/kube-apiserver.log" >&2; die "kube-apiserver did not become ready"; }

step "kube-controller-manager and kube-scheduler"
spawn kube-controller-manager kube-controller-manager \
  --kubeconfig "$CLUSTER_DIR/controller-manager.kubeconfig" \
  --authentication-kubeconfig "$CLUSTER_DIR/controller-manager.kubeconfig" \
  --authorization-kubeconfig "$CLUSTER_DIR/controller-manager.kubeconfig" \
  --bind-address 127.0.0.1 --leader-elect=false --use-service-account-credentials \
  --service-account-private-key-file "$pki/sa.key" --root-ca-file "$pki/ca.crt" \
  --cluster-signing-cert-file "$pki/ca.crt" --cluster-signing-key-file "$pki/ca.key" \
  --service-cluster-ip-range "$SERVICE_CIDR" \
  --horizontal-pod-autoscaler-sync-period 10s
spawn kube-scheduler kube-scheduler --kubeconfig "$CLUSTER_DIR/scheduler.kubeconfig" \
  --authentication-kubeconfig "$CLUSTER_DIR/scheduler.kubeconfig" \
  --authorization-kubeconfig "$CLUSTER_DIR/scheduler.kubeconfig" \
  --bind-address 127.0.0.1 --leader-elect=false
wait_for kube-controller-manager 60 curl -fsSk https://127.0.0.1:10257/healthz ||
  { tail -30 "$CLUSTER_DIR/logs/kube-controller-manager.log" >&2; die "kube-controller-manager did not start"; }
wait_for kube-scheduler 60 curl -fsSk https://127.0.0.1:10259/healthz ||
  { tail -30 "$CLUSTER_DIR/logs/kube-scheduler.log" >&2; die "kube-scheduler did not start"; }

step "cluster DNS (dnsmasq on the pod bridge)"
# No CoreDNS (its module is not on the Go module proxy): dnsmasq answers on the bridge's address
# from a hosts file that dns-sync.sh rewrites from the Services every 2 s; other names go to the
# machine's resolver. The bridge is made here so that dnsmasq can bind before the first pod.
if ! ip link show "$BRIDGE" >/dev/null 2>&1; then
  ip link add "$BRIDGE" type bridge
fi
ip addr show dev "$BRIDGE" | grep -q "inet $POD_GATEWAY/" || ip addr add "$POD_GATEWAY/${POD_CIDR#*/}" dev "$BRIDGE"
ip link set "$BRIDGE" up
touch "$CLUSTER_DIR/run/cluster-hosts"
spawn dns-sync "$here/dns-sync.sh"
spawn dnsmasq dnsmasq --keep-in-foreground --no-hosts --no-resolv --server "$(awk '/^nameserver/ {print $2; exit}' /etc/resolv.conf)" \
  --listen-address "$POD_GATEWAY" --bind-interfaces --port 53 --addn-hosts "$CLUSTER_DIR/run/cluster-hosts" \
  --local-ttl 1 --pid-file= --log-facility=- --domain-needed --local=/cluster.local/

step "kubelet and kube-proxy"
modprobe br_netfilter 2>/dev/null || true
sysctl -qw net.ipv4.ip_forward=1 net.bridge.bridge-nf-call-iptables=1 2>/dev/null ||
  echo "cluster: warning: could not set net.ipv4.ip_forward / bridge-nf-call-iptables" >&2
# Traffic between pods crosses the bridge through iptables' FORWARD chain (br_netfilter), whose
# policy Docker sets to DROP: accept what enters or leaves the pod bridge.
for dir in -i -o; do
  iptables -C FORWARD "$dir" "$BRIDGE" -j ACCEPT 2>/dev/null || iptables -I FORWARD 1 "$dir" "$BRIDGE" -j ACCEPT
done
cgroup_driver=cgroupfs
[[ "$(stat -fc %T /sys/fs/cgroup)" == cgroup2fs && -d /run/systemd/system ]] && cgroup_driver=systemd
write_if_changed "$CLUSTER_DIR/kubelet-config.yaml" <<EOF
apiVersion: kubelet.config.k8s.io/v1beta1
kind: KubeletConfiguration
authentication:
  anonymous: { enabled: false }
  webhook: { enabled: true }
  x509: { clientCAFile: $pki/ca.crt }
authorization: { mode: Webhook }
cgroupDriver: $cgroup_driver
# This machine may be cgroup v1 and may have swap: run anyway.
failCgroupV1: false
failSwapOn: false
memorySwap: { swapBehavior: NoSwap }
containerRuntimeEndpoint: unix://$CONTAINERD_SOCK
clusterDNS: [$POD_GATEWAY]
clusterDomain: cluster.local
resolvConf: /etc/resolv.conf
podCIDR: $POD_CIDR
maxPods: 110
tlsCertFile: $pki/kubelet.crt
tlsPrivateKeyFile: $pki/kubelet.key
serializeImagePulls: false
# No eviction on this shared build machine's disk (it is not the cluster's to manage).
evictionHard: { memory.available: "100Mi", nodefs.available: "1%", imagefs.available: "1%" }
imageGCHighThresholdPercent: 100
imageGCLowThresholdPercent: 99
protectKernelDefaults: false
makeIPTablesUtilChains: true
localStorageCapacityIsolation: true
EOF
spawn kubelet kubelet --config "$CLUSTER_DIR/kubelet-config.yaml" --kubeconfig "$CLUSTER_DIR/kubelet.kubeconfig" \
  --hostname-override "$NODE_NAME" --node-ip "$NODE_IP" --root-dir "$CLUSTER_DIR/kubelet" \
  --cert-dir "$CLUSTER_DIR/kubelet/pki" --v 1
write_if_changed "$CLUSTER_DIR/kube-proxy-config.yaml" <<EOF
apiVersion: kubeproxy.config.k8s.io/v1alpha1
kind: KubeProxyConfiguration
clientConnection: { kubeconfig: $CLUSTER_DIR/kube-proxy.kubeconfig }
mode: iptables
clusterCIDR: 10.244.0.0/16
hostnameOverride: $NODE_NAME
bindAddress: 0.0.0.0
metricsBindAddress: 127.0.0.1:10249
healthzBindAddress: 127.0.0.1:10256
# Leave the conntrack sysctls alone (read-only in a container).
conntrack: { maxPerCore: 0, min: 0, tcpEstablishedTimeout: 0s, tcpCloseWaitTimeout: 0s }
iptables: { masqueradeAll: false, syncPeriod: 5s, minSyncPeriod: 0s }
EOF
spawn kube-proxy kube-proxy --config "$CLUSTER_DIR/kube-proxy-config.yaml"
wait_for "node $NODE_NAME Ready" 120 kubectl wait "node/$NODE_NAME" --for=condition=Ready --timeout=2s ||
  { tail -40 "$CLUSTER_DIR/logs/kubelet.log" >&2; die "the node did not become Ready (kubelet log above)"; }

step "metrics-server (host process, aggregated API)"
if [[ -x "$CLUSTER_BIN/metrics-server" ]]; then
  kubectl apply -f "$here/metrics-server.yaml" >/dev/null
  kubectl -n kube-system apply -f - >/dev/null <<EOF
apiVersion: v1
kind: Endpoints
metadata: { name: metrics-server, namespace: kube-system }
subsets:
  - addresses: [{ ip: "$NODE_IP" }]
    ports: [{ name: https, port: 4443, protocol: TCP }]
EOF
  spawn metrics-server metrics-server --secure-port 4443 --bind-address "$NODE_IP" \
    --kubeconfig "$CLUSTER_DIR/metrics-server.kubeconfig" \
    --authentication-kubeconfig "$CLUSTER_DIR/metrics-server.kubeconfig" \
    --authorization-kubeconfig "$CLUSTER_DIR/metrics-server.kubeconfig" \
    --tls-cert-file "$pki/metrics-server.crt" --tls-private-key-file "$pki/metrics-server.key" \
    --requestheader-client-ca-file "$pki/ca.crt" --requestheader-allowed-names front-proxy-client \
    --kubelet-certificate-authority "" --kubelet-insecure-tls --kubelet-preferred-address-types InternalIP \
    --metric-resolution 15s
else
  echo "cluster: no metrics-server binary: the HPA will report <unknown> CPU" >&2
fi

# 4. images into containerd
step "images into containerd (docker save | ctr import)"
want=("${INFRA_IMAGES[@]}")
for app in "${APPS[@]}"; do want+=("medfolio/$app:$TAG"); done
have="$(ctr_k8s images ls -q)"
for image in "${want[@]}"; do
  id="$(docker_cli image inspect -f '{{.Id}}' "$image")"
  marker="$CLUSTER_DIR/run/imported-$(echo "$image" | tr '/:' '__')"
  if grep -qx "docker.io/$image" <<<"$have" && [[ "$(cat "$marker" 2>/dev/null)" == "$id" ]]; then continue; fi
  docker_cli save "$image" | ctr_k8s images import - >/dev/null
  echo "$id" >"$marker"
done

# 5. PostgreSQL, NATS and S3 for the chart
step "infrastructure: PostgreSQL, NATS, versitygw"
secrets="$CLUSTER_DIR/secrets.env"
if [[ ! -s "$secrets" ]]; then
  (
    umask 077
    cat >"$secrets" <<EOF
POSTGRES_PASSWORD=$(openssl rand -hex 24)
S3_ACCESS_KEY_ID=medfolio-cluster
S3_SECRET_ACCESS_KEY=$(openssl rand -hex 24)
IDENTITY_SECRET=$(openssl rand -base64 48)
INTERNAL_API_TOKEN=$(openssl rand -base64 32)
NOTIFICATIONS_ENCRYPTION_KEY=$(openssl rand -base64 32)
STORAGE_URL_SIGNING_KEY=$(openssl rand -base64 48)
SHARE_LINK_KEY=$(openssl rand -base64 32)
CONNECTIONS_TOKEN_KEY=$(openssl rand -base64 32)
EOF
  )
fi
# A secrets.env made before connections joined: add its key.
grep -q '^CONNECTIONS_TOKEN_KEY=' "$secrets" || (umask 077; echo "CONNECTIONS_TOKEN_KEY=$(openssl rand -base64 32)" >>"$secrets")
# shellcheck source=/dev/null
source "$secrets"
kubectl create namespace "$INFRA_NAMESPACE" --dry-run=client -o yaml | kubectl apply -f - >/dev/null
kubectl -n "$INFRA_NAMESPACE" create secret generic infra \
  --from-literal=POSTGRES_PASSWORD="$POSTGRES_PASSWORD" \
  --from-literal=ROOT_ACCESS_KEY_ID="$S3_ACCESS_KEY_ID" --from-literal=ROOT_SECRET_ACCESS_KEY="$S3_SECRET_ACCESS_KEY" \
  --dry-run=client -o yaml | kubectl apply -f - >/dev/null
kubectl -n "$INFRA_NAMESPACE" apply -f "$here/infra.yaml" >/dev/null
for d in postgres nats s3; do
  kubectl -n "$INFRA_NAMESPACE" rollout status "deployment/$d" --timeout=180s >/dev/null ||
    { kubectl -n "$INFRA_NAMESPACE" describe pod -l "app=$d" | tail -30 >&2; die "$d did not become ready"; }
done

# 6. the chart
step "secrets and helm upgrade --install (migrations, all pods Ready)"
# The identity signing keys: kept as the system tests' key ring (keys/jwt-signing-keys.json) so that
# cluster:test can mint access tokens, and given to identity as JWT_SIGNING_KEYS.
keys="$CLUSTER_DIR/identity-keys/keys/jwt-signing-keys.json"
if [[ ! -s "$keys" ]]; then
  mkdir -p "$(dirname "$keys")"
  (cd "$root" && node --input-type=module -e "
    import { exportJWK, generateKeyPair } from 'jose';
    import { randomUUID } from 'node:crypto';
    import { writeFileSync } from 'node:fs';
    const { privateKey, publicKey } = await generateKeyPair('ES256', { extractable: true });
    const kid = randomUUID();
    const key = { kid, privateJwk: { ...(await exportJWK(privateKey)), kid }, publicJwk: { ...(await exportJWK(publicKey)), kid } };
    writeFileSync(process.argv[1], JSON.stringify({ keys: [key] }), { mode: 0o600 });
  " "$keys")
fi
jwt_keys="$(node -e "const k = require(process.argv[1]).keys; console.log(JSON.stringify(k.map((x) => ({ ...x.privateJwk, alg: 'ES256' }))))" "$keys")"
# Apple Wallet: a test chain made with openssl (a CA standing in for Apple's WWDR, and a pass
# certificate it issued), where the wallet journey looks for the development CA.
wallet_dir="$CLUSTER_DIR/wallet-data/wallet"
if [[ ! -s "$wallet_dir/development-wwdr-ca.pem" ]]; then
  mkdir -p "$wallet_dir"
  chmod 700 "$CLUSTER_DIR/wallet-data"
  openssl genrsa -traditional -out "$wallet_dir/ca.key" 2048 2>/dev/null
  openssl req -x509 -new -key "$wallet_dir/ca.key" -subj "/CN=Medfolio test WWDR/O=Medfolio test" -days 365 \
    -addext "basicConstraints=critical,CA:TRUE" -addext "keyUsage=critical,keyCertSign,cRLSign" \
    -out "$wallet_dir/development-wwdr-ca.pem" 2>/dev/null
  openssl genrsa -traditional -out "$wallet_dir/signer.key" 2048 2>/dev/null
  openssl req -new -key "$wallet_dir/signer.key" -subj "/UID=pass.local.medfolio/CN=Pass Type ID: pass.local.medfolio/O=Medfolio test" \
    -out "$wallet_dir/signer.csr" 2>/dev/null
  printf 'basicConstraints=CA:FALSE\nkeyUsage=critical,digitalSignature\n' >"$wallet_dir/signer.ext"
  openssl x509 -req -in "$wallet_dir/signer.csr" -CA "$wallet_dir/development-wwdr-ca.pem" -CAkey "$wallet_dir/ca.key" \
    -CAcreateserial -days 365 -sha256 -extfile "$wallet_dir/signer.ext" -out "$wallet_dir/signer.pem" 2>/dev/null
  rm -f "$wallet_dir/signer.csr" "$wallet_dir/signer.ext"
fi
kubectl create namespace "$NAMESPACE" --dry-run=client -o yaml | kubectl apply -f - >/dev/null
kubectl label namespace "$NAMESPACE" pod-security.kubernetes.io/enforce=restricted --overwrite >/dev/null
db_host="postgres.$INFRA_NAMESPACE.svc.cluster.local"
kubectl -n "$NAMESPACE" create secret generic medfolio-db-app \
  --from-literal=uri="postgres://medfolio:$POSTGRES_PASSWORD@$db_host:5432/medfolio" \
  --dry-run=client -o yaml | kubectl apply -f - >/dev/null
kubectl -n "$NAMESPACE" create secret generic medfolio-s3 \
  --from-literal=S3_ACCESS_KEY_ID="$S3_ACCESS_KEY_ID" --from-literal=S3_SECRET_ACCESS_KEY="$S3_SECRET_ACCESS_KEY" \
  --dry-run=client -o yaml | kubectl apply -f - >/dev/null
# SMTP and the NPI registry: the test's own sink and fake registry, on this machine, which cluster:test
# starts (reached from the pods at the bridge's address).
kubectl -n "$NAMESPACE" create secret generic medfolio-app \
  --from-literal=JWT_SIGNING_KEYS="$jwt_keys" \
  --from-literal=IDENTITY_SECRET="$IDENTITY_SECRET" \
  --from-literal=INTERNAL_API_TOKEN="$INTERNAL_API_TOKEN" \
  --from-literal=SMTP_URL="smtp://$POD_GATEWAY:2525" \
  --from-literal=NOTIFICATIONS_ENCRYPTION_KEY="$NOTIFICATIONS_ENCRYPTION_KEY" \
  --from-literal=STORAGE_URL_SIGNING_KEY="$STORAGE_URL_SIGNING_KEY" \
  --from-literal=SHARE_LINK_KEY="$SHARE_LINK_KEY" \
  --from-literal=CONNECTIONS_TOKEN_KEY="$CONNECTIONS_TOKEN_KEY" \
  --from-file=WALLET_SIGNER_CERT="$wallet_dir/signer.pem" --from-file=WALLET_SIGNER_KEY="$wallet_dir/signer.key" \
  --from-file=WALLET_WWDR_CERT="$wallet_dir/development-wwdr-ca.pem" \
  --from-literal=STRIPE_SECRET_KEY= --from-literal=STRIPE_WEBHOOK_SECRET= \
  --dry-run=client -o yaml | kubectl apply -f - >/dev/null
unset jwt_keys
helm_args=(upgrade --install "$RELEASE" "$root/helm/medfolio" -n "$NAMESPACE"
  -f "$here/values-cluster.yaml" --set "global.image.tag=$TAG"
  --set "identity.env.NPI_REGISTRY_URL=http://$POD_GATEWAY:2526/api/?version=2.1"
  --wait --wait-for-jobs --timeout 15m)
# A first install that failed leaves a release that cannot be upgraded: remove it first.
if helm status "$RELEASE" -n "$NAMESPACE" >/dev/null 2>&1 &&
  ! helm history "$RELEASE" -n "$NAMESPACE" -o json | grep -q '"status":"deployed"'; then
  echo "cluster: removing the release left by a failed install" >&2
  helm uninstall "$RELEASE" -n "$NAMESPACE" --wait >/dev/null
  kubectl -n "$NAMESPACE" delete jobs --all --wait=true >/dev/null 2>&1 || true
fi
if ! helm "${helm_args[@]}"; then
  kubectl -n "$NAMESPACE" get pods,jobs >&2 || true
  die "helm upgrade --install failed (pods above; kubectl -n $NAMESPACE describe pod / logs for details)"
fi
step_end
kubectl -n "$NAMESPACE" get pods -o wide
print_timings
echo "cluster: up in $(( ($(now_ms) - T_ALL) / 1000 )) s; KUBECONFIG=$KUBECONFIG; state in $CLUSTER_DIR"
