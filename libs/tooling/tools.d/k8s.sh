# Kubernetes tooling for the deployment tests (deploy/tests). Sourced by tools/install-tools.sh,
# which defines go_install NAME MODULE@VERSION (installs once per version into $GOBIN).
#
# helm        lints and renders the chart in helm/medfolio.
# kube-score  static analysis of the rendered manifests (security context, probes, resources,
#             NetworkPolicy coverage, PodDisruptionBudgets, deprecated APIs, ...). It stands in for
#             kube-linter, whose module the Go module proxy refuses (403 for
#             golang.stackrox.io/kube-linter); its exceptions are justified in
#             deploy/tests/kube-score.yaml.
#
# First install on a 2-core machine, from empty Go caches: helm about 150 s (85 s of it compiling),
# kube-score about 85 s (40 s compiling). Later runs: nothing to do.
# Versions are pinned; bump them here and the next run reinstalls.
install_k8s() {
  go_install helm helm.sh/helm/v3/cmd/helm@v3.21.4
  go_install kube-score github.com/zegl/kube-score/cmd/kube-score@v1.20.0
}
install_k8s
