import { Inject, Injectable } from '@nestjs/common';
import { DataSource, type EntityManager } from 'typeorm';
import { PrivateDocument } from '../entities/private-document.entity';

/** Which of a patient's documents are hidden from proxies (read when a proxy reads the summary or trends). */
@Injectable()
export class PrivateDocumentsRepository {
  constructor(@Inject(DataSource) private readonly dataSource: DataSource) {}

  /** The ids of the patient's private documents. */
  async privateIds(userId: string): Promise<Set<string>> {
    const rows = await this.dataSource.getRepository(PrivateDocument).find({ where: { userId, isPrivate: true }, select: { documentId: true } });
    return new Set(rows.map((r) => r.documentId));
  }

  /** The flag as documents said it last, in the transaction that records the message. */
  async set(documentId: string, userId: string, isPrivate: boolean, manager: EntityManager): Promise<void> {
    await manager
      .createQueryBuilder()
      .insert()
      .into(PrivateDocument)
      .values({ documentId, userId, isPrivate, updatedAt: new Date() })
      .orUpdate(['private', 'user_id', 'updated_at'], ['document_id'])
      .execute();
  }
}
