import { randomUUID } from 'node:crypto';
import { Logger } from '@nestjs/common';
import { Test } from '@nestjs/testing';
import { AuditEventDto, STREAMS, SUBJECTS } from '@medfolio/contracts';
import { EventHandlersExplorer, EventsModule, InProcessEventBus, InvalidEventError, type EventEnvelope } from '@medfolio/messaging';
import { AuditLogService } from '../services/audit-log.service';
import { AuditEventsController } from './audit-events.controller';

/** The AUDIT consumer as the bus calls it: the service kit validates each record before the log sees it. */
describe('AuditEventsController', () => {
  beforeAll(() => Logger.overrideLogger(false));

  async function deliverer() {
    const appended: unknown[] = [];
    const bus = new InProcessEventBus();
    const moduleRef = await Test.createTestingModule({
      imports: [EventsModule.forRoot({ useFactory: () => bus, streams: [{ name: STREAMS.AUDIT.name, subjects: [...STREAMS.AUDIT.subjects] }] })],
      controllers: [AuditEventsController],
      providers: [{ provide: AuditLogService, useValue: { append: async (record: unknown) => void appended.push(record) } }],
    }).compile();
    await moduleRef.init();
    const deliver = moduleRef.get(EventHandlersExplorer).deliveryFor(STREAMS.AUDIT.name, 'audit-writer');
    const envelope = (data: unknown): EventEnvelope => ({ id: randomUUID(), subject: SUBJECTS.audit.recorded, data, headers: {}, deliveryCount: 1, seq: 1 });
    return { deliver: (data: unknown) => deliver(envelope(data)), appended, close: () => moduleRef.close() };
  }

  const record = {
    id: randomUUID(),
    occurredAt: new Date().toISOString(),
    service: 'documents',
    actor: 'p-1',
    action: 'document.list',
    entityType: 'document',
    patientId: 'p-1',
    outcome: 'success',
    correlationId: randomUUID(),
    policy: 'owner',
  };

  it('hands the log a valid record as an AuditEventDto', async () => {
    const { deliver, appended, close } = await deliverer();
    await deliver(record);
    expect(appended).toEqual([record]);
    expect(appended[0]).toBeInstanceOf(AuditEventDto);
    await close();
  });

  it('refuses an invalid record before the log (dead-lettered at once), naming the fields', async () => {
    const { deliver, appended, close } = await deliverer();
    const refused = deliver({ ...record, id: 'not-a-uuid', outcome: 'maybe' });
    await expect(refused).rejects.toBeInstanceOf(InvalidEventError);
    await expect(refused).rejects.toThrow(/id must be a UUID.*outcome must be one of/);
    expect(appended).toEqual([]);
    await close();
  });
});
