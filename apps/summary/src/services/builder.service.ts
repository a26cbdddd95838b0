import { Inject, Injectable, Logger, type OnApplicationBootstrap, type OnModuleDestroy } from '@nestjs/common';
import { mergeFacts, type SummaryEngine } from '@medfolio/clinical';
import { OutboxRelay, PollingLoop } from '@medfolio/messaging/outbox';
import { SummaryConfig } from '../config';
import { ObservationsRepository } from '../repositories/observations.repository';
import { SummaryDocumentsRepository } from '../repositories/summary-documents.repository';
import { SummaryVersionsRepository } from '../repositories/summary-versions.repository';
import { SUMMARY_ENGINE } from './engine';
import { applyOverrides, identify, type EngineOutput } from './summary-model';
import { factObservationsByDocument, medicationChanges } from './trends-model';

/** How often due rebuilds are looked for: the debounce's resolution. */
const POLL_MS = 500;
/** A build claims its patient this long (a crashed build is retried after it). */
const BUILD_LEASE_SECONDS = 120;
/** Patients built per pass. */
const BATCH = 5;

/**
 * Rebuilds a patient's summary once their documents have stopped changing (the due time each change
 * moves: the debounce) and none is still being read. Reads every read document through the engine,
 * merges, gives facts their stable ids, applies the patient's changes, and writes a new version with
 * its event. Driven by the due time in the patient's row, so a restart loses no rebuild.
 */
@Injectable()
export class BuilderService implements OnApplicationBootstrap, OnModuleDestroy {
  private readonly logger = new Logger(BuilderService.name);
  private readonly loop = new PollingLoop(() => this.passQuietly(), POLL_MS);

  constructor(
    @Inject(SummaryConfig) private readonly config: SummaryConfig,
    @Inject(SummaryDocumentsRepository) private readonly documents: SummaryDocumentsRepository,
    @Inject(SummaryVersionsRepository) private readonly versions: SummaryVersionsRepository,
    @Inject(SUMMARY_ENGINE) private readonly engine: SummaryEngine,
    @Inject(OutboxRelay) private readonly relay: OutboxRelay,
    @Inject(ObservationsRepository) private readonly observations: ObservationsRepository,
  ) {}

  onApplicationBootstrap(): void {
    this.loop.start();
  }

  onModuleDestroy(): Promise<void> {
    return this.loop.stop();
  }

  kick(): void {
    this.loop.kick();
  }

  /** One pass: builds every patient whose rebuild is due. Returns the versions written. */
  async pass(): Promise<number> {
    let written = 0;
    for (const { userId, claimedUntil } of await this.versions.claimDue(BATCH, BUILD_LEASE_SECONDS)) {
      if (await this.documents.hasUnread(userId)) {
        // The read that ends will move the due time again; until then, look now and then.
        await this.versions.postpone(userId, claimedUntil, new Date(Date.now() + Math.max(this.config.rebuildDelayMs, 1000)));
        continue;
      }
      if ((await this.build(userId, claimedUntil)) !== null) written += 1;
    }
    if (written > 0) this.relay.kick();
    return written;
  }

  private async build(userId: string, claimedUntil: Date): Promise<number | null> {
    const started = Date.now();
    const inputs = await this.documents.engineInputs(userId);
    const read = await this.engine.read(inputs);
    const merged = mergeFacts(read.facts, read.noneKnown);
    const output: EngineOutput = {
      facts: identify(merged.facts),
      noneKnown: merged.noneKnown,
      droppedUnsupported: read.droppedUnsupported,
      problems: read.problems ?? [],
      changes: medicationChanges(read.facts),
    };
    // Health trends: results and vitals the engine read from PDFs and text (before merging, so every
    // dated value is kept), written with the version; C-CDA and FHIR documents keep their own.
    const fromFacts = factObservationsByDocument(read.facts, await this.observations.recordDocuments(userId));
    const fetched = await this.documents.fetchedSources(userId);
    const version = await this.versions.write(
      userId,
      (overrides) => ({ engine: this.engine.name, output, ...applyOverrides(output, overrides, fetched) }),
      { claimedUntil, after: (manager) => this.observations.replaceFacts(userId, fromFacts, manager) },
    );
    this.logger.log({ userId, version, documents: inputs.length, facts: output.facts.length, problems: output.problems?.length ?? 0, ms: Date.now() - started }, 'summary: built');
    return version;
  }

  private async passQuietly(): Promise<void> {
    try {
      await this.pass();
    } catch (error) {
      this.logger.error({ err: String(error) }, 'summary: a rebuild pass failed');
    }
  }
}
