# Stripe's API stand-in for billing's integration and system tests: sourced by
# tools/install-tools.sh, which provides go_install NAME MODULE@VERSION and puts the result in $GOBIN.
#
# stripe-mock  Stripe's own mock of its API, generated from the OpenAPI specification: it validates
#              every request (paths, parameters, types) and answers with fixture objects. It is
#              stateless: an object created is not kept, so tests assert the requests billing sends
#              and how billing reacts to the answers. Started by libs/testing/src/stripe-mock.ts.
#
# The version is pinned; bump it here and the cache reinstalls on the next run.
go_install stripe-mock github.com/stripe/stripe-mock@v0.203.0
