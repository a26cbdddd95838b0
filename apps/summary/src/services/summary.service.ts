import { randomUUID } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import {
  DomainError,
  SUMMARY_MESSAGES,
  type AddFactDto,
  type CallerIdentity,
  type ConfirmSummaryDto,
  type EditFactDto,
  type FactIdDto,
  type HideFactDto,
  type SummaryItem,
  type SummaryQueryDto,
  type SummaryStatusReply,
} from '@medfolio/contracts';
import type { SummaryEngine } from '@medfolio/clinical';
import { OutboxRelay } from '@medfolio/messaging/outbox';
import type { SummaryVersion } from '../entities';
import { PrivateDocumentsRepository } from '../repositories/private-documents.repository';
import { SummaryDocumentsRepository } from '../repositories/summary-documents.repository';
import { SummaryVersionsRepository } from '../repositories/summary-versions.repository';
import { SUMMARY_ENGINE } from './engine';
import { SharingService } from './sharing.service';
import { SummaryAudit, type SummaryAction } from './summary-audit';
import { withoutPrivate } from './private-filter';
import { applyOverrides, emptySummary, EMPTY_OUTPUT, findFact, problemsOfDocument, type Override } from './summary-model';

const OWNER_ID = /^[A-Za-z0-9_-]{1,128}$/;

/**
 * The patient's summary and their review of it. The owner sees and reviews it; anyone else reads it
 * only through a share link (SharingService), and every other id answers the same 404. Every read and change is audited
 * first (fail-closed). Each change is stored apart from the engine's output and makes a new version
 * at once from the latest engine output (the documents are not read again).
 */
@Injectable()
export class SummaryService {
  constructor(
    @Inject(SummaryDocumentsRepository) private readonly documents: SummaryDocumentsRepository,
    @Inject(SummaryVersionsRepository) private readonly versions: SummaryVersionsRepository,
    @Inject(SummaryAudit) private readonly audit: SummaryAudit,
    @Inject(SUMMARY_ENGINE) private readonly engine: SummaryEngine,
    @Inject(OutboxRelay) private readonly relay: OutboxRelay,
    @Inject(SharingService) private readonly sharing: SharingService,
    @Inject(PrivateDocumentsRepository) private readonly privacy: PrivateDocumentsRepository,
  ) {}

  /**
   * The owner's own id, or one of their own live share links (View Summary opens the default link):
   * their latest summary, with their name and date of birth unless that link hides them. Anything else is a share id for someone else (sharing.service.ts decides).
   */
  async get(caller: CallerIdentity, query: SummaryQueryDto): Promise<SummaryItem[]> {
    const userId = caller.userId;
    const own = userId !== undefined && userId === query.user && OWNER_ID.test(userId);
    const ownLink = own ? null : await this.sharing.ownersLink(userId, query.user);
    if (!userId || (!own && !ownLink)) return this.sharing.view(caller, query);
    await this.audit.record(caller, 'summary.read', 'success', userId, ownLink?.id ?? undefined);
    // Named as the link shows it: through their own link the owner sees what it shows.
    const show = ownLink ? ownLink.showPatientIdentity : true;
    const [item, patient] = await Promise.all([this.item(userId, await this.hiddenFrom(caller, userId)), show ? this.sharing.patientOf(userId, caller) : Promise.resolve(null)]);
    return [{ ...item, patient }];
  }

  hide(caller: CallerIdentity, dto: HideFactDto): Promise<SummaryItem> {
    return this.change(caller, 'summary.fact-hide', dto.fact_id, async (manager, userId, found, current) => {
      await this.versions.upsertOverride(manager, userId, { ...this.base(dto.fact_id, found, current), hidden: dto.hidden });
    });
  }

  edit(caller: CallerIdentity, dto: EditFactDto): Promise<SummaryItem> {
    return this.change(caller, 'summary.fact-edit', dto.fact_id, async (manager, userId, found, current) => {
      await this.versions.upsertOverride(manager, userId, { ...this.base(dto.fact_id, found, current), text: dto.text.trim() });
    });
  }

  add(caller: CallerIdentity, dto: AddFactDto): Promise<SummaryItem> {
    const factId = randomUUID();
    return this.change(caller, 'summary.fact-add', factId, async (manager, userId) => {
      await this.versions.upsertOverride(manager, userId, { factId, section: dto.section, added: true, hidden: false, text: dto.text.trim() });
    }, { lookup: false });
  }

  remove(caller: CallerIdentity, dto: FactIdDto): Promise<SummaryItem> {
    return this.change(caller, 'summary.fact-remove', dto.fact_id, async (manager, userId, found) => {
      if (!found?.added) throw new DomainError('VALIDATION_FAILED', SUMMARY_MESSAGES.onlyAdded);
      await this.versions.deleteOverride(manager, userId, dto.fact_id);
    });
  }

  async confirm(caller: CallerIdentity, dto: ConfirmSummaryDto): Promise<SummaryItem> {
    const userId = this.owner(caller);
    await this.audit.record(caller, 'summary.confirm', 'success', userId, String(dto.version));
    if (!(await this.versions.confirm(userId, dto.version))) throw new DomainError('CONFLICT', SUMMARY_MESSAGES.changed);
    return this.item(userId, await this.hiddenFrom(caller, userId));
  }

  /**
   * Where the owner's summary stands, without its content (no health data: not audited, as the wallet
   * pass status): what the dashboard polls while a build is pending, cheaply (the patient row and the
   * documents' states; the latest version is read only to tell an emptied summary from a built one).
   */
  async status(caller: CallerIdentity): Promise<SummaryStatusReply> {
    const userId = this.owner(caller);
    const [patient, all, hidden] = await Promise.all([this.versions.patient(userId), this.documents.listForUser(userId), this.hiddenFrom(caller, userId)]);
    const documents = all.filter((d) => !hidden.has(d.documentId));
    const reading = documents.some((d) => d.state === 'pending' || d.state === 'processing');
    let status: SummaryStatusReply['status'] = reading || patient?.rebuildDueAt ? 'processing' : 'ready';
    if (status === 'ready' && documents.length === 0) {
      const latest = patient?.latestVersion ? await this.versions.latest(userId, patient.latestVersion) : null;
      if (!latest?.sections.some((s) => s.facts.length > 0)) status = 'empty';
    }
    return {
      status,
      version: patient?.latestVersion ?? 0,
      confirmed_version: patient?.confirmedVersion ?? null,
      documents: documents.map((d) => ({ document_id: d.documentId, state: d.state === 'deleted' ? 'read' : d.state })),
    };
  }

  /**
   * The summary item as the API shows it: latest version, state, and each document's reading.
   * `hidden`: documents the reader may not see (a proxy, when the owner marked documents private):
   * the version is applied again without what came only from them, and they leave the document list.
   */
  async item(userId: string, hidden: Set<string> = new Set()): Promise<SummaryItem> {
    const [patient, all] = await Promise.all([this.versions.patient(userId), this.documents.listForUser(userId)]);
    const documents = all.filter((d) => !hidden.has(d.documentId));
    const latest = patient ? await this.versions.latest(userId, patient.latestVersion) : null;
    const view = !latest
      ? emptySummary()
      : hidden.size > 0
        ? applyOverrides(withoutPrivate(latest.engineOutput, hidden), await this.versions.overrides(userId), await this.documents.fetchedSources(userId))
        : { text: latest.text, sections: latest.sections };
    const reading = documents.some((d) => d.state === 'pending' || d.state === 'processing');
    const hasFacts = view.sections.some((s) => s.facts.length > 0);
    const status = reading || patient?.rebuildDueAt ? 'processing' : documents.length === 0 && !hasFacts ? 'empty' : 'ready';
    return {
      summary: view.text,
      status,
      version: latest?.version ?? 0,
      confirmed_version: patient?.confirmedVersion ?? null,
      updated_at: (latest?.builtAt ?? new Date()).toISOString(),
      sections: view.sections,
      documents: documents.map((d) => ({
        document_id: d.documentId,
        filename: d.filename,
        state: d.state === 'deleted' ? 'read' : d.state,
        problems: problemsOfDocument(d, latest?.engineOutput ?? null),
      })),
    };
  }

  /**
   * One review change: under the patient's lock, finds the fact (404 if it is not in the latest
   * version), audits, stores the change and writes the next version from the latest engine output.
   */
  private async change(
    caller: CallerIdentity,
    action: SummaryAction,
    factId: string,
    store: (manager: EntityManager, userId: string, found: ReturnType<typeof findFact>, current: Override | undefined) => Promise<void>,
    options: { lookup: boolean } = { lookup: true },
  ): Promise<SummaryItem> {
    const userId = this.owner(caller);
    // The audit record says what happened: 'success' is written last inside the transaction (still
    // fail-closed: if it is not stored, nothing is), and a change that failed is recorded as 'failure'
    // (it was recorded as 'success' before the write, which then failed).
    let audited = false;
    const fetched = await this.documents.fetchedSources(userId);
    try {
      await this.versions.write(
        userId,
        (overrides, latest) => {
          const output = latest?.engineOutput ?? EMPTY_OUTPUT;
          return { engine: latest?.engine ?? this.engine.name, output, ...applyOverrides(output, overrides, fetched) };
        },
        {
          before: async (manager, latest: SummaryVersion | null, overrides) => {
            const found = findFact(latest?.engineOutput ?? EMPTY_OUTPUT, overrides, factId);
            if (options.lookup && !found) {
              audited = true;
              await this.audit.recordQuietly(caller, action, 'failure', userId, factId);
              throw new DomainError('NOT_FOUND', SUMMARY_MESSAGES.factNotFound);
            }
            await store(manager, userId, found, overrides.find((o) => o.factId === factId));
          },
          after: async () => {
            audited = true;
            await this.audit.record(caller, action, 'success', userId, factId);
          },
        },
      );
    } catch (error) {
      if (!audited) await this.audit.recordQuietly(caller, action, 'failure', userId, factId);
      throw error;
    }
    this.relay.kick();
    return this.item(userId, await this.hiddenFrom(caller, userId));
  }

  /** The owner's private documents when a proxy (caller.actor) reads; nothing is hidden from the owner. */
  private async hiddenFrom(caller: CallerIdentity, userId: string): Promise<Set<string>> {
    return caller.actor ? this.privacy.privateIds(userId) : new Set();
  }

  /** A change to a fact keeps the other changes to it (hiding keeps a correction, and the reverse). */
  private base(factId: string, found: ReturnType<typeof findFact>, current: Override | undefined): Override {
    if (!found) throw new DomainError('NOT_FOUND', SUMMARY_MESSAGES.factNotFound);
    return current ?? { factId, section: found.section, added: found.added, hidden: false, text: null };
  }

  private owner(caller: CallerIdentity): string {
    if (!caller.userId || !OWNER_ID.test(caller.userId)) throw new DomainError('NOT_FOUND', SUMMARY_MESSAGES.notFound);
    return caller.userId;
  }
}
