# The cluster's certificates, made with openssl (sourced by up.sh). Written once into
# $CLUSTER_DIR/pki (mode 0700) and reused while it exists; `cluster:down` deletes them.

# cert NAME CN O [SAN]: a client/server certificate signed by the cluster CA.
cert() {
  local name="$1" cn="$2" o="$3" san="${4:-}" pki="$CLUSTER_DIR/pki"
  [[ -s "$pki/$name.crt" ]] && return 0
  local subj="/CN=$cn"
  [[ -n "$o" ]] && subj="/O=$o$subj"
  openssl genrsa -out "$pki/$name.key" 2048 2>/dev/null
  openssl req -new -key "$pki/$name.key" -subj "$subj" -out "$pki/$name.csr" 2>/dev/null
  {
    echo "basicConstraints=CA:FALSE"
    echo "keyUsage=critical,digitalSignature,keyEncipherment"
    echo "extendedKeyUsage=serverAuth,clientAuth"
    [[ -n "$san" ]] && echo "subjectAltName=$san"
  } >"$pki/$name.ext"
  openssl x509 -req -in "$pki/$name.csr" -CA "$pki/ca.crt" -CAkey "$pki/ca.key" -CAcreateserial \
    -days 365 -sha256 -extfile "$pki/$name.ext" -out "$pki/$name.crt" 2>/dev/null
  rm -f "$pki/$name.csr" "$pki/$name.ext"
}

# kubeconfig NAME CERT: a kubeconfig for the apiserver with that client certificate.
kubeconfig() {
  local name="$1" c="$2" pki="$CLUSTER_DIR/pki"
  cat >"$CLUSTER_DIR/$name.kubeconfig" <<EOF
apiVersion: v1
kind: Config
clusters:
  - name: medfolio
    cluster:
      certificate-authority: $pki/ca.crt
      server: https://$NODE_IP:$APISERVER_PORT
users:
  - name: $c
    user:
      client-certificate: $pki/$c.crt
      client-key: $pki/$c.key
contexts:
  - name: medfolio
    context: { cluster: medfolio, user: $c }
current-context: medfolio
EOF
  chmod 600 "$CLUSTER_DIR/$name.kubeconfig"
}

make_pki() {
  local pki="$CLUSTER_DIR/pki"
  mkdir -p "$pki"
  chmod 700 "$pki"
  if [[ ! -s "$pki/ca.crt" ]]; then
    openssl genrsa -out "$pki/ca.key" 2048 2>/dev/null
    openssl req -x509 -new -key "$pki/ca.key" -subj "/CN=medfolio-cluster-ca" -days 365 -sha256 \
      -addext "basicConstraints=critical,CA:TRUE" -addext "keyUsage=critical,keyCertSign,cRLSign,digitalSignature" \
      -out "$pki/ca.crt" 2>/dev/null
  fi
  cert apiserver kube-apiserver "" "DNS:kubernetes,DNS:kubernetes.default,DNS:kubernetes.default.svc,DNS:kubernetes.default.svc.cluster.local,DNS:localhost,IP:$KUBERNETES_SVC_IP,IP:127.0.0.1,IP:$NODE_IP"
  cert apiserver-kubelet-client kube-apiserver-kubelet-client system:masters
  cert admin kubernetes-admin system:masters
  cert controller-manager system:kube-controller-manager ""
  cert scheduler system:kube-scheduler ""
  cert kube-proxy system:kube-proxy ""
  cert kubelet "system:node:$NODE_NAME" system:nodes "DNS:$NODE_NAME,IP:$NODE_IP,IP:127.0.0.1"
  cert front-proxy-client front-proxy-client ""
  cert metrics-server metrics-server "" "DNS:metrics-server,DNS:metrics-server.kube-system.svc,IP:$NODE_IP,IP:127.0.0.1"
  if [[ ! -s "$pki/sa.key" ]]; then
    openssl genrsa -out "$pki/sa.key" 2048 2>/dev/null
    openssl rsa -in "$pki/sa.key" -pubout -out "$pki/sa.pub" 2>/dev/null
  fi
  kubeconfig admin admin
  kubeconfig controller-manager controller-manager
  kubeconfig scheduler scheduler
  kubeconfig kube-proxy kube-proxy
  kubeconfig kubelet kubelet
  kubeconfig metrics-server metrics-server
}
