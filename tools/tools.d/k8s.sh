# Kubernetes tooling for the deployment tests (deploy/tests): sourced by tools/install-tools.sh,
# which provides go_install NAME MODULE@VERSION and puts the result in $GOBIN.
#
# helm        renders and lints the chart in helm/medfolio.
# kube-score  static analysis of the rendered manifests (security context, probes, resources,
#             NetworkPolicy coverage, PodDisruptionBudget, ...). kube-linter is the usual choice,
#             but the Go module proxy refuses its module (golang.stackrox.io/kube-linter answers
#             403), so kube-score plays that role; its exceptions are justified in
#             deploy/tests/kube-score-exceptions.yaml.
#
# Versions are pinned; bump them here and the cache reinstalls on the next run.
go_install helm helm.sh/helm/v3/cmd/helm@v3.21.4
go_install kube-score github.com/zegl/kube-score/cmd/kube-score@v1.20.0
