import { randomUUID } from 'node:crypto';
import type { EntityManager } from 'typeorm';
import type { Headers } from '../events/event-bus';
import { OutboxMessage } from './outbox-message.entity';

/**
 * The transactional outbox: record an event in the same database transaction as the change it
 * describes, so both commit or neither does. The OutboxRelay publishes it afterwards (call
 * `relay.kick()` after the commit to publish at once rather than on the next poll).
 *
 * @example
 *   await dataSource.transaction(async (manager) => {
 *     await manager.save(document);
 *     await Outbox.add(manager, SUBJECTS.documents.uploaded, { documentId: document.id }, headers);
 *   });
 *   relay.kick();
 */
export const Outbox = {
  /** Inserts the event row; returns its id (the msgId it will be published with). */
  async add(
    manager: EntityManager,
    subject: string,
    data: OutboxMessage['payload'],
    headers: Headers = {},
  ): Promise<string> {
    if (!manager.queryRunner?.isTransactionActive) {
      throw new Error('Outbox.add needs the EntityManager of an open transaction (dataSource.transaction(...))');
    }
    const id = randomUUID();
    await manager.insert(OutboxMessage, { id, subject, payload: data, headers });
    return id;
  },
};
