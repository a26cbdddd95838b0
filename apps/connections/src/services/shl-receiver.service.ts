import { Inject, Injectable, Logger } from '@nestjs/common';
import type { JSONWebKeySet } from 'jose';
import { AuditRecorder } from '@medfolio/audit-client';
import {
  type CallerIdentity,
  DomainError,
  type ReceivedShlItem,
  type ReceiveShlDto,
  type ReceiveShlReply,
  SHL_RECEIVE_MESSAGES,
} from '@medfolio/contracts';
import { ConnectionsConfig } from '../config';
import { RecordDocumentsRepository } from '../repositories/record-documents.repository';
import { type ShlAnswer, ShlFetchError, ShlFetchRepository } from '../repositories/shl-fetch.repository';
import { cleanText, decryptShlFile, healthCardJwsList, isBundle, parseShlink, readHealthCard, ShlContentError, type ShlPayload, verifyHealthCard } from './shl-content';

/** Who the manifest request says is asking (the spec's `recipient`: a name the sharer may show). */
export const SHL_RECIPIENT = 'Medfolio (on behalf of the patient)';
/** Most files one link may hand over; most SMART Health Cards in one card file. */
const MAX_FILES = 20;
const MAX_CARDS = 20;
/** A card issuer's JWK Set is small. */
const MAX_JWKS_BYTES = 64 * 1024;
const FHIR_JSON = 'application/fhir+json';
const HEALTH_CARD = 'application/smart-health-card';
const DAY = new Intl.DateTimeFormat('en-GB', { day: 'numeric', month: 'short', year: 'numeric', timeZone: 'UTC' });

interface Received {
  kind: ReceivedShlItem['kind'];
  bundle: Record<string, unknown>;
  issuer?: string;
  verifiedIssuer?: string | null;
}

/**
 * Receives a SMART Health Link a clinic gave the patient (HL7 SMART Health Links STU1): the payload,
 * the manifest (or the one file of a U link), every file decrypted and read before anything is
 * written, SMART Health Cards checked against their issuer's published keys, then each FHIR Bundle
 * handed to the patient's documents through documents' own upload route (as the connections sync
 * does), named after the link and the day, so the summary and trends read and cite it. All or
 * nothing: a failed upload deletes the ones before it. Audited. No I/O of its own.
 */
@Injectable()
export class ShlReceiverService {
  private readonly logger = new Logger(ShlReceiverService.name);

  constructor(
    @Inject(ConnectionsConfig) private readonly config: ConnectionsConfig,
    @Inject(ShlFetchRepository) private readonly http: ShlFetchRepository,
    @Inject(RecordDocumentsRepository) private readonly documents: RecordDocumentsRepository,
    @Inject(AuditRecorder) private readonly audit: AuditRecorder,
  ) {}

  async receive(caller: CallerIdentity, dto: ReceiveShlDto, now = new Date()): Promise<ReceiveShlReply> {
    if (!caller.userId) throw new DomainError('UNAUTHENTICATED', 'Please sign in again.');
    const ownerId = caller.userId;
    if (!this.documents.configured) throw new DomainError('UNAVAILABLE', SHL_RECEIVE_MESSAGES.notConfigured);
    const payload = this.parse(dto.shlink);
    if (payload.exp !== undefined && payload.exp * 1000 < now.getTime()) throw new DomainError('VALIDATION_FAILED', SHL_RECEIVE_MESSAGES.expired);
    const passcode = dto.passcode?.length ? dto.passcode : undefined;
    if (payload.flag.includes('P') && passcode === undefined) throw passcodeError(SHL_RECEIVE_MESSAGES.passcodeNeeded);
    try {
      const files = payload.flag.includes('U') ? [await this.directFile(payload)] : await this.manifestFiles(payload, passcode);
      const received: Received[] = [];
      const jwksCache = new Map<string, Promise<JSONWebKeySet | null>>();
      for (const file of files) received.push(...(await this.read(file, payload.key, jwksCache)));
      if (received.length === 0) throw new DomainError('VALIDATION_FAILED', SHL_RECEIVE_MESSAGES.nothingToImport);
      const imported = await this.store(ownerId, payload, received, now);
      try {
        for (const item of imported) await this.audit.record(caller, { action: 'connections.shl.receive', entityType: 'document', entityId: item.document_id, patientId: ownerId, outcome: 'success', policy: 'owner' });
      } catch (error) {
        await this.undo(ownerId, imported.map((item) => item.document_id));
        throw error;
      }
      this.logger.log({ files: files.length, imported: imported.length, cards: imported.filter((i) => i.kind === 'health-card').length }, 'received a SMART Health Link');
      return { label: payload.label, imported };
    } catch (error) {
      throw toDomainError(error);
    }
  }

  private parse(text: string): ShlPayload {
    try {
      return parseShlink(text);
    } catch {
      throw new DomainError('VALIDATION_FAILED', SHL_RECEIVE_MESSAGES.notShl);
    }
  }

  /** A U link: the one encrypted file, straight from its URL (GET with `recipient`). */
  private async directFile(payload: ShlPayload): Promise<{ contentType: string | undefined; jwe: string }> {
    const url = new URL(this.http.checkUrl(payload.url));
    url.searchParams.set('recipient', SHL_RECIPIENT);
    const answer = await this.http.get(url.toString(), this.config.syncMaxAnswerBytes, 'application/jose');
    refuseUnlessOk(answer);
    return { contentType: undefined, jwe: answer.text.trim() };
  }

  /** The manifest's files (POST `{recipient, passcode?}`), each as its JWE (embedded, or fetched from its location). */
  private async manifestFiles(payload: ShlPayload, passcode: string | undefined): Promise<{ contentType: string | undefined; jwe: string }[]> {
    const answer = await this.http.postJson(payload.url, { recipient: SHL_RECIPIENT, ...(passcode !== undefined ? { passcode } : {}) }, this.config.syncMaxAnswerBytes);
    if (answer.status === 401) {
      const remaining = remainingAttempts(answer.text);
      if (passcode === undefined) throw passcodeError(SHL_RECEIVE_MESSAGES.passcodeNeeded);
      throw passcodeError(
        remaining === undefined ? SHL_RECEIVE_MESSAGES.wrongPasscode : `${SHL_RECEIVE_MESSAGES.wrongPasscode} ${remaining} ${remaining === 1 ? 'attempt' : 'attempts'} left.`,
        remaining,
      );
    }
    refuseUnlessOk(answer);
    const manifest = json(answer.text) as { status?: unknown; files?: unknown } | undefined;
    if (!manifest || typeof manifest !== 'object') throw new DomainError('UNAVAILABLE', SHL_RECEIVE_MESSAGES.unexpectedAnswer);
    if (manifest.status === 'no-longer-valid') throw new DomainError('NOT_FOUND', SHL_RECEIVE_MESSAGES.noLongerValid);
    if (!Array.isArray(manifest.files)) throw new DomainError('UNAVAILABLE', SHL_RECEIVE_MESSAGES.unexpectedAnswer);
    if (manifest.files.length > MAX_FILES) throw new DomainError('PAYLOAD_TOO_LARGE', SHL_RECEIVE_MESSAGES.tooLarge);
    const files: { contentType: string | undefined; jwe: string }[] = [];
    let total = 0;
    for (const entry of manifest.files as { contentType?: unknown; embedded?: unknown; location?: unknown }[]) {
      const contentType = typeof entry?.contentType === 'string' ? entry.contentType : undefined;
      let jwe: string;
      if (typeof entry?.embedded === 'string') jwe = entry.embedded;
      else if (typeof entry?.location === 'string') {
        const file = await this.http.get(entry.location, this.config.syncMaxAnswerBytes, 'application/jose');
        refuseUnlessOk(file);
        jwe = file.text.trim();
      } else throw new DomainError('UNAVAILABLE', SHL_RECEIVE_MESSAGES.unexpectedAnswer);
      total += jwe.length;
      if (total > this.config.syncMaxAnswerBytes) throw new DomainError('PAYLOAD_TOO_LARGE', SHL_RECEIVE_MESSAGES.tooLarge);
      files.push({ contentType, jwe });
    }
    return files;
  }

  /** One file, decrypted: a FHIR Bundle, or a card file's cards; other content types (smart-api-access…) are skipped. */
  private async read(file: { contentType: string | undefined; jwe: string }, key: string, jwksCache: Map<string, Promise<JSONWebKeySet | null>>): Promise<Received[]> {
    const { cty, text } = await decryptShlFile(file.jwe, key, this.config.syncMaxAnswerBytes);
    const type = (file.contentType ?? cty ?? '').split(';', 1)[0]?.trim().toLowerCase() ?? '';
    if (type === FHIR_JSON || type === 'application/json') {
      const resource = json(text);
      if (isBundle(resource)) return [{ kind: 'fhir-bundle', bundle: resource }];
      if (resource && typeof resource === 'object' && typeof (resource as { resourceType?: unknown }).resourceType === 'string') {
        return [{ kind: 'fhir-bundle', bundle: { resourceType: 'Bundle', type: 'collection', entry: [{ resource }] } }];
      }
      throw new ShlContentError('undecryptable');
    }
    if (type === HEALTH_CARD) {
      const list = healthCardJwsList(text);
      if (list.length > MAX_CARDS) throw new DomainError('PAYLOAD_TOO_LARGE', SHL_RECEIVE_MESSAGES.tooLarge);
      const cards: Received[] = [];
      for (const jws of list) {
        const card = readHealthCard(jws, this.config.syncMaxAnswerBytes);
        const jwks = await this.issuerKeys(card.iss, jwksCache);
        const verified = jwks !== null && (await verifyHealthCard(jws, jwks));
        cards.push({ kind: 'health-card', bundle: card.bundle, issuer: card.iss, verifiedIssuer: verified ? card.iss : null });
      }
      return cards;
    }
    return [];
  }

  /** The issuer's JWK Set from `<iss>/.well-known/jwks.json`, or null when it cannot be had (never an error: the card is then "not verified"). */
  private issuerKeys(iss: string, cache: Map<string, Promise<JSONWebKeySet | null>>): Promise<JSONWebKeySet | null> {
    const known = cache.get(iss);
    if (known) return known;
    const fetched = (async () => {
      try {
        const answer = await this.http.get(`${iss.replace(/\/+$/, '')}/.well-known/jwks.json`, MAX_JWKS_BYTES);
        const body = answer.status === 200 ? (json(answer.text) as { keys?: unknown } | undefined) : undefined;
        return body && Array.isArray(body.keys) ? (body as JSONWebKeySet) : null;
      } catch {
        return null;
      }
    })();
    cache.set(iss, fetched);
    return fetched;
  }

  /** Each bundle as a document of the owner's; all or nothing. */
  private async store(ownerId: string, payload: ShlPayload, received: Received[], now: Date): Promise<ReceivedShlItem[]> {
    const day = DAY.format(now);
    const from = payload.label ?? 'a clinic';
    const imported: ReceivedShlItem[] = [];
    const used = new Map<string, number>();
    try {
      for (const item of received) {
        const what = item.kind === 'health-card' ? 'SMART Health Card' : 'SMART Health Link';
        const source = item.kind === 'health-card' && !payload.label && item.issuer ? hostOf(item.issuer) : from;
        const base = cleanText(`${what} from ${source}, received ${day}`, 150);
        const n = (used.get(base) ?? 0) + 1;
        used.set(base, n);
        const name = `${base}${n > 1 ? ` (${n})` : ''}.json`;
        // The source travels with the document (X-Document-Source): the trends' points say where they came from.
        const documentId = await this.documents.upload(ownerId, name, Buffer.from(JSON.stringify(item.bundle)), FHIR_JSON, cleanText(`${what} from ${source}`, 200));
        imported.push({
          document_id: documentId,
          name,
          kind: item.kind,
          ...(item.kind === 'health-card' ? { verified_issuer: item.verifiedIssuer ?? null, issuer: item.issuer ?? '' } : {}),
        });
      }
      return imported;
    } catch (error) {
      await this.undo(ownerId, imported.map((item) => item.document_id));
      const status = /documents answered (\d{3})/.exec(error instanceof Error ? error.message : '')?.[1];
      if (status === '402') throw new DomainError('QUOTA_EXCEEDED', 'Your plan has no room for more documents. Delete some or upgrade, then receive the link again.');
      if (status === '413') throw new DomainError('PAYLOAD_TOO_LARGE', SHL_RECEIVE_MESSAGES.tooLarge);
      if (status && status.startsWith('4')) throw new DomainError('VALIDATION_FAILED', "The link's records could not be added to your documents.");
      throw new DomainError('UNAVAILABLE', "The link's records could not be added to your documents just now. Please try again.");
    }
  }

  private async undo(ownerId: string, documentIds: string[]): Promise<void> {
    for (const id of documentIds) {
      try {
        await this.documents.remove(ownerId, id);
      } catch (error) {
        this.logger.error({ err: error instanceof Error ? error.message : 'unknown' }, 'a received document could not be deleted after a failed receive');
      }
    }
  }
}

function passcodeError(message: string, remaining?: number): DomainError {
  return new DomainError('FORBIDDEN', message, { passcode: [message], ...(remaining !== undefined ? { remaining_attempts: [String(remaining)] } : {}) });
}

function refuseUnlessOk(answer: ShlAnswer): void {
  if (answer.status === 200) return;
  if (answer.status === 404 || answer.status === 410) throw new DomainError('NOT_FOUND', SHL_RECEIVE_MESSAGES.noLongerValid);
  if (answer.status === 429) throw new DomainError('RATE_LIMITED', SHL_RECEIVE_MESSAGES.busy);
  if (answer.status === 413) throw new DomainError('PAYLOAD_TOO_LARGE', SHL_RECEIVE_MESSAGES.tooLarge);
  if (answer.status >= 500) throw new DomainError('UNAVAILABLE', SHL_RECEIVE_MESSAGES.unreachable);
  throw new DomainError('UNAVAILABLE', SHL_RECEIVE_MESSAGES.unexpectedAnswer);
}

function remainingAttempts(text: string): number | undefined {
  const body = json(text) as { remainingAttempts?: unknown; remaining_attempts?: unknown; details?: { remaining_attempts?: unknown } } | undefined;
  const value = body?.remainingAttempts ?? body?.remaining_attempts ?? body?.details?.remaining_attempts;
  const n = Array.isArray(value) ? Number(value[0]) : Number(value);
  return value !== undefined && Number.isInteger(n) && n >= 0 ? n : undefined;
}

function json(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

function hostOf(url: string): string {
  try {
    return new URL(url).host;
  } catch {
    return 'an issuer';
  }
}

/** The receiver's own failures in the product's error codes and words. */
function toDomainError(error: unknown): unknown {
  if (error instanceof ShlFetchError) {
    if (error.reason === 'refused-address') return new DomainError('VALIDATION_FAILED', SHL_RECEIVE_MESSAGES.refusedAddress);
    if (error.reason === 'too-large') return new DomainError('PAYLOAD_TOO_LARGE', SHL_RECEIVE_MESSAGES.tooLarge);
    return new DomainError('UNAVAILABLE', SHL_RECEIVE_MESSAGES.unreachable);
  }
  if (error instanceof ShlContentError) {
    if (error.reason === 'too-large') return new DomainError('PAYLOAD_TOO_LARGE', SHL_RECEIVE_MESSAGES.tooLarge);
    if (error.reason === 'not-shl') return new DomainError('VALIDATION_FAILED', SHL_RECEIVE_MESSAGES.notShl);
    return new DomainError('VALIDATION_FAILED', SHL_RECEIVE_MESSAGES.undecryptable);
  }
  return error;
}
