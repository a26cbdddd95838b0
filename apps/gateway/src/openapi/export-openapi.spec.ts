import { readFileSync } from 'node:fs';
import path from 'node:path';
import { exportOpenApi } from './export-openapi';

/**
 * The web app's API client is generated from a committed copy of the gateway's OpenAPI document
 * (apps/web/src/api/openapi.json → generated.ts). This fails when a controller or DTO changed and
 * the copy was not regenerated, so the web app's types can never silently drift from the gateway.
 */
describe('the web app API client', () => {
  it('was generated from the current gateway (else run: npm run api:generate)', async () => {
    const committed = JSON.parse(readFileSync(path.resolve(__dirname, '../../../web/src/api/openapi.json'), 'utf8'));
    const current = JSON.parse(JSON.stringify(await exportOpenApi()));
    expect(current).toEqual(committed);
  }, 30_000);
});
