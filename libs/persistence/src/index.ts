export * from './data-source';
// The embedded PGlite server is '@medfolio/persistence/embedded', loaded only where a process runs
// without DATABASE_URL: service images (MEDFOLIO_MODE=service, DATABASE_URL set) do not carry PGlite.
