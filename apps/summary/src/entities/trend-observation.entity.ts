import { Column, Entity, PrimaryColumn } from 'typeorm';
import type { Observation } from '@medfolio/clinical';

/**
 * One lab result or vital sign of a patient's document, as the source gave it (code, value, unit,
 * reference range, interpretation, date, citation). `record`: read from the C-CDA or FHIR file
 * itself when the document was read; `facts`: from the facts the summary's engine read out of a PDF
 * or text (written by each rebuild). Replaced when the document is read again, deleted with it.
 */
@Entity('observations')
export class TrendObservation {
  @PrimaryColumn({ name: 'document_id', type: 'uuid' })
  documentId!: string;

  @PrimaryColumn({ type: 'text' })
  origin!: 'record' | 'facts';

  @PrimaryColumn({ type: 'int' })
  seq!: number;

  @Column({ name: 'user_id', type: 'text' })
  userId!: string;

  @Column({ type: 'jsonb' })
  observation!: Observation;
}
