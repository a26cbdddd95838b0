/**
 * Test support shared by integration and system tests: real local servers standing in for outside
 * services (an SMTP server, Google's OpenID endpoints). Never part of the build.
 */
export * from './fake-google';
export * from './service-urls';
export * from './smtp-sink';
