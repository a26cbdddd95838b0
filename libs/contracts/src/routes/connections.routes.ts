import { CompleteConnectionDto, CONNECTIONS_MESSAGES, CONNECTIONS_SUBJECTS, SearchEndpointsDto, StartConnectionDto } from '../connections';
import { forward, ownRead } from './route';

const CONNECTION_ID = { description: 'A connection id from GET /api/connections/', format: 'uuid', notFound: CONNECTIONS_MESSAGES.notFound } as const;

/** Hospital and clinic connections: SMART on FHIR patient access (the directory, connecting, listing, disconnecting). */
export const CONNECTION_ROUTES = {
  connectionsEndpoints: forward(CONNECTIONS_SUBJECTS.searchEndpoints, {
    onBehalf: 'manage',
    method: 'GET', path: '/api/connections/endpoints/', tag: 'connections', auth: 'bearer', rateLimit: 'per-client',
    summary: 'Search the directory of hospitals and clinics that can be connected (SMART App Launch User-access Brands)',
    description: 'Every word of `q` must appear in the name, another name, the city or the portal (case and accents ignored); at most 50, by name. Only these endpoints are ever contacted.',
    query: SearchEndpointsDto,
    queryDocs: { q: { description: 'Words of the name or city; empty: the start of the directory', example: 'springfield general' } },
    reply: { status: 200, shape: 'EndpointView[]' },
    errors: {},
  }),
  connectionsStart: forward(CONNECTIONS_SUBJECTS.start, {
    onBehalf: 'manage',
    method: 'POST', path: '/api/connections/', tag: 'connections', auth: 'bearer', rateLimit: 'per-client',
    summary: "Start connecting a hospital or clinic: the address of its sign-in page (SMART standalone launch with PKCE)",
    description:
      "Reads the endpoint's `.well-known/smart-configuration`, makes a PKCE S256 verifier and a state bound to the signed-in user (valid for CONNECTIONS_AUTHORIZE_MINUTES), " +
      'and answers the authorization URL (scopes `launch/patient openid fhirUser offline_access patient/*.rs`, or `patient/*.read` where the server speaks only SMART v1; `aud` = its FHIR base). Send the browser there.',
    body: StartConnectionDto,
    reply: { status: 200, shape: 'AuthorizeReply' },
    errors: { 404: CONNECTIONS_MESSAGES.unknownEndpoint, 409: 'The account has the most connections it may have' },
  }),
  connectionsCallback: forward(CONNECTIONS_SUBJECTS.complete, {
    onBehalf: 'manage',
    method: 'GET', path: '/api/connections/callback/', tag: 'connections', auth: 'bearer', rateLimit: 'per-client',
    summary: "Finish connecting: the hospital's redirect (code and state) handed over by the web app's callback page",
    description:
      "The state must be one the signed-in user started, unexpired and unused; the code is exchanged with the PKCE verifier. The tokens are kept encrypted (AES-256-GCM, CONNECTIONS_TOKEN_KEY). " +
      "An `error` from the hospital (the patient refused) answers 400 and connects nothing.",
    query: CompleteConnectionDto,
    queryDocs: {
      state: { description: 'The state the hospital sent back', required: true },
      code: { description: 'The authorization code' },
      error: { description: "The hospital's error instead of a code (e.g. access_denied)" },
    },
    reply: { status: 200, shape: 'ConnectionView' },
    errors: { 400: CONNECTIONS_MESSAGES.unknownState, 404: CONNECTIONS_MESSAGES.unknownEndpoint },
  }),
  connectionsList: ownRead(CONNECTIONS_SUBJECTS.list, '/api/connections/', 'connections', "The signed-in patient's connections, newest first, each with its state in plain words", 'ConnectionView[]', { onBehalf: 'view' }),
  connectionsSync: forward(CONNECTIONS_SUBJECTS.sync, {
    onBehalf: 'manage',
    method: 'POST', path: '/api/connections/{connectionId}/sync/', tag: 'connections', auth: 'bearer', rateLimit: 'per-client',
    summary: "Fetch the connection's records now: answers at once with the connection in state `syncing`; the fetch runs in the background",
    description:
      'Reads Patient, AllergyIntolerance, Condition, MedicationRequest, MedicationStatement, Immunization, Observation (laboratory, vital signs), Procedure and DocumentReference ' +
      "(with their PDF and C-CDA Binaries) since the last fetch, and keeps them encrypted. One fetch at a time per connection; GET /api/connections/ shows the state, counts and the last error in plain words. " +
      'Connections are also fetched right after connecting and every CONNECTIONS_SYNC_INTERVAL_MINUTES.',
    params: { connectionId: CONNECTION_ID },
    paramNames: { connectionId: 'connection_id' },
    reply: { status: 202, shape: 'ConnectionView' },
    errors: { 404: CONNECTIONS_MESSAGES.notFound, 409: CONNECTIONS_MESSAGES.notConnected },
  }),
  connectionsDelete: forward(CONNECTIONS_SUBJECTS.remove, {
    onBehalf: 'manage',
    method: 'DELETE', path: '/api/connections/{connectionId}/', tag: 'connections', auth: 'bearer', rateLimit: 'per-client',
    summary: 'Disconnect: the grant is revoked at the hospital where it offers revocation, and the tokens are deleted',
    params: { connectionId: CONNECTION_ID },
    paramNames: { connectionId: 'connection_id' },
    reply: { status: 200, shape: 'DeletedReply' },
    errors: { 404: CONNECTIONS_MESSAGES.notFound },
  }),
  connectionsJwks: forward(CONNECTIONS_SUBJECTS.jwks, {
    method: 'GET', path: '/api/connections/.well-known/jwks.json', tag: 'connections', auth: 'public', rateLimit: 'per-client',
    summary: "The product's public keys for SMART confidential asymmetric clients (private_key_jwt): the JWKS URL to register with an EHR",
    description:
      'The JWK Set (RFC 7517) whose keys verify the client assertions the product signs (ES384 or RS384; SMART_CLIENT_JWK, or a key generated into DATA_DIR in the one-process mode) ' +
      'for endpoints registered as private_key_jwt clients in SMART_CLIENT_REGISTRATIONS_FILE. The current key comes first; keys being rotated out stay listed. Never a private member.',
    reply: { status: 200, shape: 'JwksReply' },
    errors: {},
    internal: true,
  }),
} as const;
