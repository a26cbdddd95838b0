import schemas from './api-schemas.json';

/**
 * The JSON Schemas of the reply shapes (`ApiShapes`) and of the request DTOs the routes name,
 * generated from their TypeScript types by `npm run api:generate` (api-schemas.json: data, not code;
 * the build copies it next to the compiled file).
 */
export const API_SCHEMAS: Record<string, unknown> = schemas;
