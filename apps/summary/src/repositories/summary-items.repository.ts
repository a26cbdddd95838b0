import { Inject, Injectable } from '@nestjs/common';
import { DataSource, type EntityManager } from 'typeorm';
import { SummaryItem } from '../entities';

/** The only I/O of the service: its own tables. Inside a transaction, pass its manager. */
@Injectable()
export class SummaryItemsRepository {
  constructor(@Inject(DataSource) private readonly dataSource: DataSource) {}

  add(item: Pick<SummaryItem, 'id' | 'ownerId' | 'label'>, manager?: EntityManager): Promise<SummaryItem> {
    const repository = (manager ?? this.dataSource.manager).getRepository(SummaryItem);
    return repository.save(repository.create({ ...item, createdAt: new Date() }));
  }

  /** The owner's items, newest first. */
  listByOwner(ownerId: string, limit: number): Promise<SummaryItem[]> {
    return this.dataSource.getRepository(SummaryItem).find({ where: { ownerId }, order: { createdAt: 'DESC' }, take: limit });
  }
}
