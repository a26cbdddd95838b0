import { Column, Entity, PrimaryColumn } from 'typeorm';
import type { SummarySectionKey } from '@medfolio/contracts';

/**
 * A patient's change to one fact, stored apart from the engine's output and applied on every build:
 * hidden, text corrected (`text`), or a fact the patient added (`added`, with its section and text).
 */
@Entity('fact_overrides')
export class FactOverride {
  @PrimaryColumn({ name: 'user_id', type: 'text' })
  userId!: string;

  @PrimaryColumn({ name: 'fact_id', type: 'uuid' })
  factId!: string;

  @Column({ type: 'text' })
  section!: SummarySectionKey;

  @Column({ type: 'boolean' })
  added!: boolean;

  @Column({ type: 'boolean' })
  hidden!: boolean;

  /** The corrected text (or the added fact's text); null when not edited. */
  @Column({ type: 'text', nullable: true })
  text!: string | null;

  @Column({ name: 'created_at', type: 'timestamptz' })
  createdAt!: Date;
}
