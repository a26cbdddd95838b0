import { ApiProperty } from '@nestjs/swagger';

/** OpenAPI shapes of the documents routes (the contracts are plain interfaces and DTOs). */
export class DocumentItemDoc {
  @ApiProperty({ format: 'uuid' }) id!: string;
  @ApiProperty({ example: 'Blood test March.pdf', description: 'The uploaded name, made safe for display' })
  filename!: string;
  @ApiProperty({
    nullable: true,
    type: String,
    description:
      'A short-lived URL (15 minutes) of a WebP thumbnail of at most 256x256 for jpg and png documents, once it is made (a moment after upload); null for other types',
  })
  url!: string | null;
  @ApiProperty({ format: 'date-time' }) uploaded_at!: string;
  @ApiProperty({ description: 'Bytes', example: 482133 }) size!: number;
  @ApiProperty({
    enum: [
      'application/pdf',
      'image/jpeg',
      'image/png',
      'application/msword',
      'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
      'application/zip',
      'application/xml',
      'application/fhir+json',
    ],
    description: 'Decided from the content at upload, not from the name or the declared type',
  })
  content_type!: string;
}

export class UploadReplyDoc {
  @ApiProperty({ example: '2 files uploaded successfully.' }) message!: string;
  @ApiProperty({
    type: [String],
    description: 'One download link per stored document, in upload order, valid 5 minutes',
  })
  image_urls!: string[];
  @ApiProperty({ nullable: true, type: String, description: 'The first of image_urls' }) image_url!: string | null;
  @ApiProperty({ type: [DocumentItemDoc], description: 'The stored documents, as GET /api/upload/ lists them' })
  documents!: DocumentItemDoc[];
}

export class DeleteDocumentBodyDoc {
  @ApiProperty({ format: 'uuid', description: 'The id of one of your documents' }) document_id!: string;
}

export class DownloadLinkDoc {
  @ApiProperty({
    description:
      'Valid 5 minutes; answers with Content-Disposition: attachment and X-Content-Type-Options: nosniff (the filesystem store); open it in a new tab',
  })
  download_url!: string;
  @ApiProperty({ example: 'Blood test March.pdf' }) filename!: string;
  @ApiProperty({ format: 'date-time' }) expires_at!: string;
}
