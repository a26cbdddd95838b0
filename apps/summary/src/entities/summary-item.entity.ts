import { Column, Entity, PrimaryColumn } from 'typeorm';

/** One item of a user (the generated example: rename it to what the service keeps). */
@Entity('items')
export class SummaryItem {
  @PrimaryColumn({ type: 'uuid' })
  id!: string;

  @Column({ name: 'owner_id', type: 'text' })
  ownerId!: string;

  @Column({ type: 'text' })
  label!: string;

  @Column({ name: 'created_at', type: 'timestamptz' })
  createdAt!: Date;
}
