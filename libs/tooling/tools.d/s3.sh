# S3-compatible server for the integration tests of libs/storage and the system tests: sourced by
# tools/install-tools.sh, which provides go_install NAME MODULE@VERSION and puts the result in $GOBIN.
#
# versitygw  one Go binary serving a plain directory (its "posix" backend) over the S3 API. It
#            verifies SigV4 signatures (headers and presigned URLs), supports multipart uploads,
#            and accepts the x-amz-server-side-encryption header (without encrypting: the posix
#            backend does not implement SSE, so HeadObject does not report it).
#            The main package is cmd/versitygw, not the module root. First install: about 3 min
#            on 2 cores (136 s CPU). MinIO was not used: the module proxy only has untagged
#            pseudo-versions of it, and it builds slower (261 dependencies, not 81; 231 s CPU).
#            Started by libs/testing/src/s3-server.ts.
#
# The version is pinned; bump it here and the cache reinstalls on the next run.
go_install versitygw github.com/versity/versitygw/cmd/versitygw@v1.8.0
