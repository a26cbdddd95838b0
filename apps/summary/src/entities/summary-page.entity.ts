import { Column, Entity, PrimaryColumn } from 'typeorm';

/** One unit of a document's extracted text (a PDF page, an image, a Word file, a file in a zip). */
@Entity('pages')
export class SummaryPage {
  @PrimaryColumn({ name: 'document_id', type: 'uuid' })
  documentId!: string;

  /** Order within the document. */
  @PrimaryColumn({ type: 'int' })
  seq!: number;

  @Column({ type: 'text' })
  filename!: string;

  @Column({ type: 'int', nullable: true })
  page!: number | null;

  @Column({ type: 'text' })
  text!: string;

  @Column({ type: 'boolean' })
  ocr!: boolean;

  @Column({ type: 'real', nullable: true })
  confidence!: number | null;

  /** A structured record's narrative whose entries were read as facts: kept, but engines do not read it again. */
  @Column({ name: 'covered_by_facts', type: 'boolean', default: false })
  coveredByFacts!: boolean;
}
