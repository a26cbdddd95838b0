# S3-compatible server for the integration tests of libs/storage (and the system tests).
# versitygw: a single Go binary that verifies SigV4 signatures, supports multipart uploads
# and presigned URLs, and stores objects in a plain directory (its "posix" backend).
# The main package lives in cmd/versitygw, not at the module root.
# Sourced by tools/install-tools.sh, which defines go_install.
install_s3() {
  go_install versitygw github.com/versity/versitygw/cmd/versitygw@v1.8.0
}
install_s3
