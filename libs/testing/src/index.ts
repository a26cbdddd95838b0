/**
 * Test support shared by integration and system tests: real local servers standing in for outside
 * services (an SMTP server, Google's OpenID endpoints, an S3 server), a service's database on
 * PGlite for repository tests, document files of every kind (and the attack corpus), and
 * `refusal` for asserting on a DomainError. Never part of the build.
 */
export * as documentFiles from './document-files';
export * from './fake-google';
export * from './local-oidc-provider';
export * from './fake-openai';
export * from './fake-nppes';
export * from './pglite-data-source';
export * from './refusal';
export * from './s3-server';
export * from './stripe-mock';
export * from './service-urls';
export * from './smtp-sink';
export * from './automock';
export * from './clamd';
export { eventually } from './eventually';
export { IsolatedEventBus, isolatedDeadLetterPrefix } from './isolated-event-bus';
export * from './shl-receiver';
export * from './shl-sender';
export { CCDA_GLUCOSE, FHIR_GLUCOSE, trendDocuments, type AddedGlucose } from './trend-documents';
export { manifestProblems, opensslVerifyPkpass, pngSize, readPkpass } from './pkpass';
