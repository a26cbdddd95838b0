# stripe-mock (Stripe's own mock of its API), the same version the tests pin
# (libs/testing/src/stripe-mock.ts, libs/tooling/tools.d/stripe.sh), built with `go install` from the
# Go module proxy, on the local base. Tagged as stripe/stripe-mock:<version> as well, the name the
# tests' Testcontainers path asks for, so that no pull from Docker Hub is attempted.
ARG BASE_IMAGE=medfolio/debian:bookworm
FROM ${BASE_IMAGE}
COPY stripe-mock /usr/local/bin/stripe-mock
USER 10004:10004
EXPOSE 12111 12112
ENTRYPOINT ["/usr/local/bin/stripe-mock", "-http-port", "12111", "-https-port", "12112"]
