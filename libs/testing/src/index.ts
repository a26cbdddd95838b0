/**
 * Test support shared by integration and system tests: real local servers standing in for outside
 * services (an SMTP server, Google's OpenID endpoints, an S3 server), and a service's database on
 * PGlite for repository tests. Never part of the build.
 */
export * from './fake-google';
export * from './pglite-data-source';
export * from './s3-server';
export * from './service-urls';
export * from './smtp-sink';
