// The SMART sandbox on its own, for trying connections by hand with `npm start`:
//   node -r @swc-node/register -r tsconfig-paths/register libs/testing/src/smart-sandbox/serve.ts [directory.json]
// Settings (all optional): SANDBOX_PORT (default 4090), SMART_DEFAULT_CLIENT_ID (default medfolio),
// PUBLIC_BASE_URL (default http://localhost:3000; the redirect URI is its /connections/callback),
// SANDBOX_RECORD_SIZE (synthetic resources added to Homer Simpson's record, default 200).
// It writes the endpoint directory and prints the settings to start the product with.
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { sandboxDirectory } from './directory';
import { SmartSandbox } from './smart-sandbox';
import { addSyntheticRecord } from './synthetic-record';

async function main(): Promise<void> {
  const clientId = process.env['SMART_DEFAULT_CLIENT_ID'] ?? 'medfolio';
  const publicBase = (process.env['PUBLIC_BASE_URL'] ?? 'http://localhost:3000').replace(/\/$/, '');
  const sandbox = await SmartSandbox.start({ clients: [{ client_id: clientId, redirect_uris: [`${publicBase}/connections/callback`] }], port: Number(process.env['SANDBOX_PORT'] ?? 4090) });
  await addSyntheticRecord(sandbox.fhir, '123', Number(process.env['SANDBOX_RECORD_SIZE'] ?? 200), 'sandbox');
  const file = path.resolve(process.argv[2] ?? '.data/smart-sandbox-endpoints.json');
  await writeFile(file, JSON.stringify(sandboxDirectory(sandbox), null, 2));
  process.stdout.write(
    `SMART sandbox: FHIR base ${sandbox.fhirBaseUrl}, sign-in auto-approved as Homer Simpson (Patient/123).\n` +
      `Start the product with:\n  FHIR_ENDPOINTS_FILE=${file} SMART_ALLOW_LOOPBACK_HTTP=true SMART_DEFAULT_CLIENT_ID=${clientId} npm start\n`,
  );
}

main().catch((error: unknown) => {
  process.stderr.write(`${(error as Error).message}\n`);
  process.exit(1);
});
