/**
 * A local SMART on FHIR server for tests (its own entry point, `@medfolio/testing/smart-sandbox`,
 * so tests that do not use it do not load Medplum): SmartSandbox (authorization server + FHIR R4
 * base), its FHIR store, the scope rules, and a synthetic record of any size.
 */
export { SmartSandbox, type SandboxClient, type SandboxRequest, type SandboxUser, type SmartSandboxOptions } from './smart-sandbox';
export { DEFAULT_PAGE_SIZE, MAX_PAGE_SIZE, SandboxFhirStore } from './fhir-store';
export { grantScopes, parseResourceScope, scopesAllow, type SmartScopeVersions } from './scopes';
export { addSyntheticRecord, SYNTHETIC_TYPES } from './synthetic-record';
export { sandboxDirectory } from './directory';
