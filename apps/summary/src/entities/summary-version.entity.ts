import { Column, Entity, PrimaryColumn } from 'typeorm';
import type { SummaryItem } from '@medfolio/contracts';
import type { EngineOutput } from '../services/summary-model';

/**
 * One built version. `engineOutput` is what the engine read (merged, with fact ids), kept apart
 * from the patient's changes so a review call re-applies them without reading the documents again;
 * `sections` and `text` are the result with the changes applied, as served.
 */
@Entity('versions')
export class SummaryVersion {
  @PrimaryColumn({ name: 'user_id', type: 'text' })
  userId!: string;

  @PrimaryColumn({ type: 'int' })
  version!: number;

  @Column({ type: 'text' })
  engine!: string;

  @Column({ name: 'engine_output', type: 'jsonb' })
  engineOutput!: EngineOutput;

  @Column({ type: 'jsonb' })
  sections!: SummaryItem['sections'];

  @Column({ type: 'text' })
  text!: string;

  @Column({ name: 'built_at', type: 'timestamptz' })
  builtAt!: Date;
}
