// The single-process reference for bench/run.mjs: what someone would write instead of Medfolio's
// services, one small Fastify process doing the same work per request directly, and nothing else:
//   - verify the same ES256 access token (jose, the key ring's public keys, issuer, audience, expiry,
//     token_use and sid as the gateway checks them),
//   - run the same query on the same PostgreSQL (the history page with its count, or the documents
//     list with a signed thumbnail link per document),
//   - insert an audit row (a plain INSERT into a table of its own, awaited before the answer).
// No hash chain, no message bus, no second process: that is the point of a reference.
//
//   node bench/reference-server.mjs   (env: PORT, DATABASE_URL, DATA_DIR; started by bench/run.mjs)
import { randomBytes, randomUUID } from 'node:crypto';
import { createRequire } from 'node:module';
import path from 'node:path';
import Fastify from 'fastify';
import { createLocalJWKSet, jwtVerify } from 'jose';
import pg from 'pg';

const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..');
const require = createRequire(import.meta.url);
require('reflect-metadata');
const { loadOrCreateSigningKeys, publicJwks } = require(path.join(root, 'dist/libs/security/src/index.js'));
const { signDownloadUrl } = require(path.join(root, 'dist/libs/storage/src/index.js'));

const jwks = createLocalJWKSet(publicJwks(await loadOrCreateSigningKeys(process.env.DATA_DIR)));
const pool = new pg.Pool({ connectionString: process.env.DATABASE_URL, max: Number(process.env.DATABASE_POOL_SIZE ?? 10) });
const signingKey = randomBytes(32).toString('base64url');
await pool.query(`CREATE SCHEMA IF NOT EXISTS bench_reference`);
await pool.query(`CREATE TABLE IF NOT EXISTS bench_reference.audit_rows (
  id bigserial PRIMARY KEY, event_id uuid NOT NULL UNIQUE, occurred_at timestamptz NOT NULL, actor text NOT NULL,
  action text NOT NULL, patient_id text, outcome text NOT NULL, ip text, user_agent text, correlation_id text NOT NULL)`);

async function authenticate(request, reply) {
  const header = request.headers.authorization ?? '';
  try {
    const { payload } = await jwtVerify(header.replace(/^Bearer /, ''), jwks, { algorithms: ['ES256'], issuer: 'medfolio-identity', audience: 'medfolio-api' });
    if (payload.token_use !== 'access' || typeof payload.sub !== 'string' || typeof payload.sid !== 'string') throw new Error('not an access token');
    return payload.sub;
  } catch {
    reply.code(401).send({ message: 'Unauthorized' });
    return null;
  }
}

function audit(request, userId, action) {
  return pool.query(
    `INSERT INTO bench_reference.audit_rows (event_id, occurred_at, actor, action, patient_id, outcome, ip, user_agent, correlation_id)
     VALUES ($1, now(), $2, $3, $2, 'success', $4, $5, $6)`,
    [randomUUID(), userId, action, request.ip, request.headers['user-agent'] ?? null, randomUUID()],
  );
}

const app = Fastify({ logger: false });
app.get('/', async () => ({ hello: 'world' }));

// The same SQL TypeORM sends for the audit service's findAndCount (apps/audit AuditLogRepository.pageForPatient).
app.get('/api/history/', async (request, reply) => {
  const userId = await authenticate(request, reply);
  if (!userId) return reply;
  await audit(request, userId, 'history.read');
  const [rows, count] = await Promise.all([
    pool.query(
      `SELECT position, event_id, occurred_at, actor, action, entity_type, entity_id, outcome, ip, user_agent, policy
         FROM audit.audit_log WHERE patient_id = $1 ORDER BY position DESC LIMIT 20 OFFSET 0`,
      [userId],
    ),
    pool.query(`SELECT count(*)::int AS n FROM audit.audit_log WHERE patient_id = $1`, [userId]),
  ]);
  return {
    results: rows.rows.map((e) => ({ id: e.event_id, when: e.occurred_at.toISOString(), who: 'you', action: e.action, outcome: e.outcome, from: e.ip, user_agent: e.user_agent, entity_type: e.entity_type, entity_id: e.entity_id })),
    page: 1,
    page_size: 20,
    total: count.rows[0].n,
  };
});

// The documents list (apps/documents DocumentsRepository.listActive + a signed thumbnail link each).
app.get('/api/upload/', async (request, reply) => {
  const userId = await authenticate(request, reply);
  if (!userId) return reply;
  const { rows } = await pool.query(
    `SELECT id, filename, content_type, size, thumbnail_key, uploaded_at FROM documents.documents
      WHERE owner_id = $1 AND deleted_at IS NULL ORDER BY uploaded_at DESC, id ASC`,
    [userId],
  );
  await audit(request, userId, 'document.list');
  const expiresAt = new Date(Date.now() + 900_000);
  return rows.map((row) => ({
    id: row.id,
    filename: row.filename,
    url: row.thumbnail_key ? signDownloadUrl({ key: row.thumbnail_key, expiresAt, filename: 'thumbnail.webp', contentType: 'image/webp', signingKey }) : null,
    uploaded_at: row.uploaded_at.toISOString(),
    size: Number(row.size),
    content_type: row.content_type,
  }));
});

await app.listen({ port: Number(process.env.PORT), host: '127.0.0.1' });
process.send?.('ready');
