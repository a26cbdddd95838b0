import { installConformanceCheck } from './conformance';

/**
 * Every system test file checks the API's answers against docs/api/openapi.json (support/conformance.ts):
 * any response the document does not describe fails the file, with the list of what differed.
 */
const report = installConformanceCheck();

afterAll(() => {
  if (report.violations.length > 0) {
    throw new Error(`${report.violations.length} of ${report.checked} API answers do not conform to docs/api/openapi.json:\n${[...new Set(report.violations)].join('\n')}`);
  }
});
