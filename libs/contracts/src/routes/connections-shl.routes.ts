import { CONNECTIONS_SHL_SUBJECTS, ReceiveShlDto, SHL_RECEIVE_MESSAGES } from '../connections-shl';
import { forward } from './route';

/** The longest a receive may take: the manifest, each file and each card issuer's JWKS, each within SMART_HTTP_TIMEOUT_MS. */
export const SHL_RECEIVE_TIMEOUT_MS = 90_000;

/** Receiving a SMART Health Link from a clinic (the connections service). */
export const CONNECTION_SHL_ROUTES = {
  connectionsShlReceive: forward(CONNECTIONS_SHL_SUBJECTS.receive, {
    onBehalf: 'manage',
    method: 'POST', path: '/api/connections/shl/', tag: 'connections', auth: 'bearer', rateLimit: 'per-client',
    summary: "Receive a SMART Health Link a clinic gave you: its FHIR Bundles and SMART Health Cards become documents of yours",
    description:
      'Takes a `shlink:/…` (or a viewer URL with `#shlink:/…`, what the QR code holds), asks the link\'s manifest (POST `{recipient, passcode?}`; GET for a `U` direct-file link), ' +
      'decrypts each file (compact JWE, `dir` + `A256GCM`, with the link\'s key), and adds each FHIR Bundle (`application/fhir+json`) and each SMART Health Card\'s Bundle (`application/smart-health-card`) ' +
      "to the patient's documents, named after the link's label and the day. A card's signature (ES256) is checked against `<iss>/.well-known/jwks.json` when that can be reached: " +
      '`verified_issuer` is the issuer then, else null. Only public https addresses are contacted (no redirects, answers capped in size and time). ' +
      '403 when the link needs a passcode or the passcode is wrong (the message says the attempts left when the clinic does; not 401, which means the session ended); nothing is added unless every file could be read and stored.',
    body: ReceiveShlDto,
    reply: { status: 200, shape: 'ReceiveShlReply' },
    errors: {
      400: `${SHL_RECEIVE_MESSAGES.notShl} / ${SHL_RECEIVE_MESSAGES.expired} / ${SHL_RECEIVE_MESSAGES.undecryptable} / ${SHL_RECEIVE_MESSAGES.refusedAddress}`,
      402: 'The plan has no room for more documents',
      403: `${SHL_RECEIVE_MESSAGES.passcodeNeeded} / ${SHL_RECEIVE_MESSAGES.wrongPasscode}`,
      404: SHL_RECEIVE_MESSAGES.noLongerValid,
      413: SHL_RECEIVE_MESSAGES.tooLarge,
    },
    timeoutMs: SHL_RECEIVE_TIMEOUT_MS,
  }),
} as const;
