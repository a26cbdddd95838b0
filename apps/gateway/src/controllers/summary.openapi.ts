import { ApiProperty } from '@nestjs/swagger';
import { SUMMARY_SECTION_KEYS } from '@medfolio/contracts';

/** OpenAPI shapes of the summary routes (the contracts are plain interfaces and DTOs). */
export class SummarySourceDoc {
  @ApiProperty({ format: 'uuid' }) document_id!: string;
  @ApiProperty({ example: 'labs.pdf' }) filename!: string;
  @ApiProperty({ nullable: true, type: Number, example: 2, description: '1-based page; null where the document has no pages' })
  page!: number | null;
  @ApiProperty({ example: 'Metformin 500 mg PO BID', description: 'The source text the fact was read from (at most 200 characters)' })
  quote!: string;
}

export class SummaryCodeDoc {
  @ApiProperty({ example: 'RxNorm' }) system!: string;
  @ApiProperty({ example: '861007' }) code!: string;
  @ApiProperty({ required: false, example: 'metformin hydrochloride 500 MG Oral Tablet' }) display?: string;
}

export class SummaryFactDoc {
  @ApiProperty({ format: 'uuid', description: 'Stable across rebuilds while the fact is the same (section + normalised name), so review changes survive' })
  id!: string;
  @ApiProperty({ example: 'Metformin 500 mg by mouth twice daily' }) text!: string;
  @ApiProperty({ enum: ['condition', 'medication', 'allergy', 'immunization', 'procedure', 'result', 'vital', 'care_team', 'note'] })
  category!: string;
  @ApiProperty({ enum: ['active', 'resolved', 'stopped', 'unknown'], nullable: true }) status!: string | null;
  @ApiProperty({ nullable: true, type: String, example: '2015', description: 'ISO 8601, possibly partial' }) onset!: string | null;
  @ApiProperty({ nullable: true, type: String, example: null }) end!: string | null;
  @ApiProperty({ nullable: true, type: SummaryCodeDoc }) code!: SummaryCodeDoc | null;
  @ApiProperty({
    nullable: true,
    type: 'object',
    additionalProperties: { type: 'string' },
    example: { dose: '500 mg', route: 'by mouth', frequency: 'twice daily' },
  })
  details!: Record<string, string> | null;
  @ApiProperty({ enum: ['confirmed', 'possible'], nullable: true }) certainty!: string | null;
  @ApiProperty({ description: 'Hidden by the patient: shown to the owner, marked; left out of the text and of shares' }) hidden!: boolean;
  @ApiProperty({ description: 'Text corrected by the patient (the original is kept)' }) edited!: boolean;
  @ApiProperty({ description: 'Added by the patient (no sources)' }) added_by_patient!: boolean;
  @ApiProperty({ type: [SummarySourceDoc] }) sources!: SummarySourceDoc[];
}

export class SummaryNoneKnownDoc {
  @ApiProperty({ example: 'No known drug allergies' }) text!: string;
  @ApiProperty({ type: [SummarySourceDoc] }) sources!: SummarySourceDoc[];
}

export class SummarySectionDoc {
  @ApiProperty({ enum: SUMMARY_SECTION_KEYS }) key!: string;
  @ApiProperty({ example: 'Medications' }) title!: string;
  @ApiProperty({ enum: ['facts', 'none_known', 'not_recorded'] }) state!: string;
  @ApiProperty({ type: [SummaryFactDoc] }) facts!: SummaryFactDoc[];
  @ApiProperty({ nullable: true, type: SummaryNoneKnownDoc }) none_known!: SummaryNoneKnownDoc | null;
}

export class SummaryDocumentDoc {
  @ApiProperty({ format: 'uuid' }) document_id!: string;
  @ApiProperty({ example: 'labs.pdf' }) filename!: string;
  @ApiProperty({ enum: ['pending', 'processing', 'read', 'unreadable'] }) state!: string;
  @ApiProperty({ type: [String], example: ['page 3 could not be read: the scan is unclear'], description: 'Reasons shown to the patient' })
  problems!: string[];
}

export class SharedViaDoc {
  @ApiProperty({ example: 'For Dr Lee' }) label!: string;
  @ApiProperty({ format: 'date-time', nullable: true, type: String }) expires_at!: string | null;
  @ApiProperty({ required: false, description: "The link shows the patient's name and date of birth" }) show_patient_identity?: boolean;
}

export class SummaryPatientDoc {
  @ApiProperty({ example: 'Ada Example', description: 'Given and family name joined' }) name!: string;
  @ApiProperty({ example: 'Ada' }) given!: string;
  @ApiProperty({ example: 'Example' }) family!: string;
  @ApiProperty({ nullable: true, type: String, example: '1980-04-02', description: 'YYYY-MM-DD' }) birth_date!: string | null;
}

export class SummaryItemDoc {
  @ApiProperty({
    example:
      '**Current Medical Conditions:**\n- Type 2 diabetes mellitus (since 2015)\n\n**Past Medical History:**\nNot recorded\n\n**Medications:**\n- Metformin 500 mg by mouth twice daily\n\n**Allergies:**\nNone known (No known drug allergies)\n\n**Additional Categories:**\nNot recorded',
    description: 'The summary text: five sections with bold headings (hidden facts left out, corrected text used)',
  })
  summary!: string;
  @ApiProperty({
    enum: ['empty', 'processing', 'ready', 'unreviewed'],
    description:
      'processing: documents are being read or the summary is being rebuilt. unreviewed (share links only): the patient has not ' +
      'reviewed and confirmed a summary yet; there are then no sections (nothing is claimed, not even "not recorded")',
  })
  status!: string;
  @ApiProperty({ example: 3, description: 'The latest built version; 0 when nothing was built yet' }) version!: number;
  @ApiProperty({ nullable: true, type: Number, example: 2, description: 'The version the patient confirmed' }) confirmed_version!: number | null;
  @ApiProperty({ format: 'date-time' }) updated_at!: string;
  @ApiProperty({ type: [SummarySectionDoc] }) sections!: SummarySectionDoc[];
  @ApiProperty({ type: [SummaryDocumentDoc] }) documents!: SummaryDocumentDoc[];
  @ApiProperty({ required: false, type: SharedViaDoc, description: 'Set when served through a share link' }) shared?: SharedViaDoc;
  @ApiProperty({
    required: false,
    nullable: true,
    type: SummaryPatientDoc,
    description: "Whose summary it is (current name and date of birth); null when the link hides them or they could not be read just now",
  })
  patient?: SummaryPatientDoc | null;
}

export class SummaryStatusDocumentDoc {
  @ApiProperty({ format: 'uuid' }) document_id!: string;
  @ApiProperty({ enum: ['pending', 'processing', 'read', 'unreadable'] }) state!: string;
}

export class SummaryStatusDoc {
  @ApiProperty({ enum: ['empty', 'processing', 'ready'], description: 'As GET /api/summary/ answers the owner' }) status!: string;
  @ApiProperty({ example: 3, description: 'The latest built version; 0 when nothing was built yet' }) version!: number;
  @ApiProperty({ nullable: true, type: Number, example: 2, description: 'The version the patient confirmed' }) confirmed_version!: number | null;
  @ApiProperty({ type: [SummaryStatusDocumentDoc], description: 'The documents the summary service knows of, and how far each was read' })
  documents!: SummaryStatusDocumentDoc[];
}

export class HideFactBodyDoc {
  @ApiProperty({ example: true }) hidden!: boolean;
}

export class EditFactBodyDoc {
  @ApiProperty({ minLength: 1, maxLength: 300, example: 'Metformin 1000 mg twice daily' }) text!: string;
}

export class AddFactBodyDoc {
  @ApiProperty({ enum: SUMMARY_SECTION_KEYS, example: 'allergies' }) section!: string;
  @ApiProperty({ minLength: 1, maxLength: 300, example: 'Latex (rash)' }) text!: string;
}

export class ConfirmSummaryBodyDoc {
  @ApiProperty({ example: 3, description: 'Must be the latest version' }) version!: number;
}
