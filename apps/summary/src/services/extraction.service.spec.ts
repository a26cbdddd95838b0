import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Logger } from '@nestjs/common';
import type { ExtractionResult, OcrScheduler } from '@medfolio/clinical';
import type { DocumentDeletedEvent } from '@medfolio/contracts';
import type { OnceInTransaction } from '@medfolio/messaging/outbox';
import type { EntityManager } from 'typeorm';
import { SummaryConfig } from '../config';
import { DocumentGoneError, readStructuredRecord, type DocumentContentRepository, type SpooledDocument } from '../repositories/document-content.repository';
import type { ObservationsRepository } from '../repositories/observations.repository';
import type { ClaimedDocument, SummaryDocumentsRepository } from '../repositories/summary-documents.repository';
import { ExtractionService, MAX_ATTEMPTS, READ_MESSAGES, verdictOf } from './extraction.service';

const base: ExtractionResult = { documentId: 'd1', filename: 'scan.pdf', texts: [], facts: [], noneKnown: [], problems: [] };

describe('verdictOf', () => {
  it('files a document with readable text as read, keeping the problems of the parts that were not', () => {
    const verdict = verdictOf(
      {
        ...base,
        texts: [{ filename: 'scan.pdf', page: 1, text: 'Medications: metformin', ocr: false }],
        problems: [{ filename: 'scan.pdf', reason: 'page 3 could not be read: the scan is unclear' }],
      },
      'scan.pdf',
    );
    expect(verdict).toEqual({ state: 'read', problems: ['page 3 could not be read: the scan is unclear'] });
  });

  it('names the file inside a zip the problem is about', () => {
    const verdict = verdictOf(
      { ...base, facts: [{ section: 'allergies', category: 'allergy', text: 'Penicillin', sources: [] }], problems: [{ filename: 'records.zip › a.tif', reason: 'This kind of file cannot be read.' }] },
      'records.zip',
    );
    expect(verdict.problems).toEqual(['records.zip › a.tif: This kind of file cannot be read.']);
  });

  it('files a document with nothing readable as unreadable, with a reason even when extraction gave none', () => {
    expect(verdictOf({ ...base, texts: [{ filename: 'scan.pdf', page: 1, text: '  ', ocr: true }] }, 'scan.pdf')).toEqual({
      state: 'unreadable',
      problems: [READ_MESSAGES.nothingRead],
    });
    expect(verdictOf({ ...base, problems: [{ filename: 'scan.pdf', reason: 'This kind of file cannot be read.' }] }, 'scan.pdf')).toEqual({
      state: 'unreadable',
      problems: ['This kind of file cannot be read.'],
    });
  });
});

describe('ExtractionService and the builder', () => {
  const claimed: ClaimedDocument = { documentId: 'd1', userId: 'u1', contentType: 'text/plain', attempts: 1 };
  let dir: string;
  beforeAll(async () => {
    Logger.overrideLogger(false);
    dir = await mkdtemp(join(tmpdir(), 'extraction-spec-'));
  });
  afterAll(() => rm(dir, { recursive: true, force: true }));

  /** The kit's `once` on a first delivery: the work runs (in a transaction the stand-in repository ignores). */
  const firstDelivery: OnceInTransaction = async (work) => {
    await work({} as EntityManager);
    return true;
  };

  function setup(spool: () => Promise<SpooledDocument>, attempts = 1) {
    const finished: Array<{ state: string; problems: string[] }> = [];
    const deleted: string[] = [];
    let handedOut = false;
    const documents = {
      claim: () => {
        if (handedOut) return Promise.resolve([]);
        handedOut = true;
        return Promise.resolve([{ ...claimed, attempts }]);
      },
      noteFilename: () => Promise.resolve(),
      finish: (_c: ClaimedDocument, _f: string, _r: ExtractionResult, state: string, problems: string[]) => {
        finished.push({ state, problems });
        return Promise.resolve(true);
      },
      noteDeleted: (documentId: string) => {
        deleted.push(documentId);
        return Promise.resolve();
      },
    } as unknown as SummaryDocumentsRepository;
    const content = { spool, readRecord: readStructuredRecord } as unknown as DocumentContentRepository;
    const ocr = { shutdown: () => Promise.resolve() } as unknown as OcrScheduler;
    const builder = { kick: jest.fn() };
    const observations = { unread: () => Promise.resolve([]) } as unknown as ObservationsRepository;
    const service = new ExtractionService(new SummaryConfig(), documents, content, ocr, builder, observations);
    return { service, builder, finished, deleted };
  }

  it('kicks the builder once a read has been filed', async () => {
    const path = join(dir, 'note.txt');
    await writeFile(path, 'just some plain words');
    const release = jest.fn(() => Promise.resolve());
    const { service, builder, finished } = setup(() => Promise.resolve({ path, filename: 'note.txt', contentType: 'text/plain', release }));
    await service.drain();
    expect(finished).toEqual([{ state: 'unreadable', problems: ['This kind of file cannot be read.'] }]);
    expect(release).toHaveBeenCalled();
    expect(builder.kick).toHaveBeenCalledTimes(1);
  });

  it('kicks the builder when a document is gone and filed as unreadable', async () => {
    const { service, builder, finished } = setup(() => Promise.reject(new DocumentGoneError()));
    await service.drain();
    expect(finished).toEqual([{ state: 'unreadable', problems: [READ_MESSAGES.gone] }]);
    expect(builder.kick).toHaveBeenCalledTimes(1);
  });

  it('leaves a failed read with attempts left to its claim, and the builder alone', async () => {
    const { service, builder, finished } = setup(() => Promise.reject(new Error('documents unreachable')));
    await service.drain();
    expect(finished).toEqual([]);
    expect(builder.kick).not.toHaveBeenCalled();
  });

  it('gives a document up after the last attempt, and kicks the builder', async () => {
    const { service, builder, finished } = setup(() => Promise.reject(new Error('documents unreachable')), MAX_ATTEMPTS);
    await service.drain();
    expect(finished).toEqual([{ state: 'unreadable', problems: [READ_MESSAGES.failed] }]);
    expect(builder.kick).toHaveBeenCalledTimes(1);
  });

  it('kicks the builder after noting a deletion', async () => {
    const { service, builder, deleted } = setup(() => Promise.reject(new Error('not read')));
    const deletion = { document_id: 'd1', owner_id: 'u1' } as DocumentDeletedEvent;
    await service.noteDeleted(deletion, firstDelivery);
    expect(deleted).toEqual(['d1']);
    expect(builder.kick).toHaveBeenCalledTimes(1);
  });
});
