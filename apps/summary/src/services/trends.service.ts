import { Inject, Injectable, Logger } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import {
  DomainError,
  SUMMARY_MESSAGES,
  type CallerIdentity,
  type EntitlementChangedEvent,
  type SummarySectionItem,
  type TimelineEvent,
  type TrendSeries,
  type TrendsCsvReply,
  type TrendsReply,
} from '@medfolio/contracts';
import { buildSeries } from '@medfolio/clinical';
import { SummaryEntitlementsRepository } from '../repositories/entitlements.repository';
import { ObservationsRepository } from '../repositories/observations.repository';
import { SummaryDocumentsRepository } from '../repositories/summary-documents.repository';
import { SummaryVersionsRepository } from '../repositories/summary-versions.repository';
import { SummaryAudit } from './summary-audit';
import { buildTimeline, fullAccess, gate, toTrendSeries, trendsCsv, withFetchedFrom } from './trends-model';
import { PrivateDocumentsRepository } from '../repositories/private-documents.repository';
import { onlyPrivateSources } from './private-filter';

const OWNER_ID = /^[A-Za-z0-9_-]{1,128}$/;

/**
 * Health trends: the patient's lab results and vital signs as series (buildSeries over the
 * observations kept per document), the timeline from the summary's facts, gated by the plan
 * (billing's events, projected here), and the CSV of every observation. Every read and export is
 * audited first (fail-closed: nothing is shown when the audit is not stored).
 */
@Injectable()
export class TrendsService {
  private readonly logger = new Logger(TrendsService.name);

  constructor(
    @Inject(ObservationsRepository) private readonly observations: ObservationsRepository,
    @Inject(SummaryEntitlementsRepository) private readonly entitlements: SummaryEntitlementsRepository,
    @Inject(SummaryVersionsRepository) private readonly versions: SummaryVersionsRepository,
    @Inject(SummaryDocumentsRepository) private readonly documents: SummaryDocumentsRepository,
    @Inject(SummaryAudit) private readonly audit: SummaryAudit,
    @Inject(PrivateDocumentsRepository) private readonly privacy: PrivateDocumentsRepository,
  ) {}

  async get(caller: CallerIdentity): Promise<TrendsReply> {
    const userId = this.owner(caller);
    await this.audit.record(caller, 'trends.read', 'success', userId);
    const hidden = await this.hiddenFrom(caller, userId);
    const [plan, series] = await Promise.all([this.entitlements.planOf(userId), this.series(userId, hidden)]);
    const full = fullAccess(plan);
    return gate(series, full ? await this.timeline(userId, hidden) : [], full, new Date());
  }

  /** Every observation as CSV, on every plan (the data is the patient's own; the analytics are what is sold). */
  async exportCsv(caller: CallerIdentity): Promise<TrendsCsvReply> {
    const userId = this.owner(caller);
    await this.audit.record(caller, 'trends.export', 'success', userId);
    const hidden = await this.hiddenFrom(caller, userId);
    const { content, rows } = trendsCsv((await this.observations.listForUser(userId)).filter((o) => !hidden.has(o.source.document_id ?? '')));
    return { filename: `medfolio-trends-${new Date().toISOString().slice(0, 10)}.csv`, content, rows };
  }

  /** The patient's series (shares, the IPS and the PDF use them too: their callers audit). */
  async series(userId: string, hidden: Set<string> = new Set()): Promise<TrendSeries[]> {
    const [all, fetched] = await Promise.all([this.observations.listForUser(userId), this.documents.fetchedSources(userId)]);
    // A proxy's read: the points read from documents the owner marked private are left out.
    const observations = all.filter((o) => !hidden.has(o.source.document_id ?? ''));
    return buildSeries(observations).map((series) => toTrendSeries(series, fetched));
  }

  /** The series as `caller` may read them: without the points of private documents for a proxy. */
  async seriesFor(caller: CallerIdentity, userId: string): Promise<TrendSeries[]> {
    return this.series(userId, await this.hiddenFrom(caller, userId));
  }

  /** Whether the patient's plan sees every series (Plus, Family). */
  async fullAccess(userId: string): Promise<boolean> {
    return fullAccess(await this.entitlements.planOf(userId));
  }

  /** Applies billing's plan change in `manager`'s transaction (the one that records the message). */
  async applyEntitlement(change: EntitlementChangedEvent, manager: EntityManager): Promise<void> {
    const applied = await this.entitlements.apply(change.user_id, change.plan, new Date(change.changed_at), manager);
    this.logger.log({ userId: change.user_id, plan: change.plan, applied }, 'entitlement change received');
  }

  private async timeline(userId: string, hidden: Set<string> = new Set()): Promise<TimelineEvent[]> {
    const [patient, documents, fetched] = await Promise.all([this.versions.patient(userId), this.documents.listForUser(userId), this.documents.fetchedSources(userId)]);
    const latest = patient?.latestVersion ? await this.versions.latest(userId, patient.latestVersion) : null;
    const sections: SummarySectionItem[] = (latest?.sections ?? []).map((section) =>
      hidden.size === 0 ? section : { ...section, facts: section.facts.filter((f) => !onlyPrivateSources(f.sources.map((s) => ({ documentId: s.document_id ?? '' })), hidden)) },
    );
    const read = documents.filter((d) => d.state === 'read' && !hidden.has(d.documentId)).map((d) => ({ documentId: d.documentId, filename: d.filename, documentDate: d.documentDate }));
    const changes = (latest?.engineOutput.changes ?? []).filter((c) => !(c.sources.length > 0 && c.sources.every((s) => hidden.has(s.document_id ?? ''))));
    return buildTimeline(sections, read, changes).map((event) => ({ ...event, sources: event.sources.map((s) => withFetchedFrom(s, fetched)) }));
  }

  /** The owner's private documents when a proxy (caller.actor) reads; nothing is hidden from the owner. */
  private async hiddenFrom(caller: CallerIdentity, userId: string): Promise<Set<string>> {
    return caller.actor ? this.privacy.privateIds(userId) : new Set();
  }

  private owner(caller: CallerIdentity): string {
    if (!caller.userId || !OWNER_ID.test(caller.userId)) throw new DomainError('NOT_FOUND', SUMMARY_MESSAGES.notFound);
    return caller.userId;
  }
}
