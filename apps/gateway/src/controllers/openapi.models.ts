import { ApiProperty } from '@nestjs/swagger';

/** OpenAPI descriptions of the response shapes (the contracts are plain interfaces). */
export class HistoryEntryDoc {
  @ApiProperty({ format: 'uuid' }) id!: string;
  @ApiProperty({ format: 'date-time' }) when!: string;
  @ApiProperty({ example: 'you', description: "'you', another user's id, 'anonymous' or 'someone with your shared link'" }) who!: string;
  @ApiProperty({ example: 'document.download-link' }) action!: string;
  @ApiProperty({ example: 'Downloaded a document' }) what!: string;
  @ApiProperty({ enum: ['success', 'failure', 'denied'] }) outcome!: string;
  @ApiProperty({ nullable: true, type: String, example: '203.0.113.7' }) from!: string | null;
  @ApiProperty({ nullable: true, type: String }) user_agent!: string | null;
}

export class HistoryPageDoc {
  @ApiProperty({ type: [HistoryEntryDoc] }) results!: HistoryEntryDoc[];
  @ApiProperty() page!: number;
  @ApiProperty() page_size!: number;
  @ApiProperty() total!: number;
}

export class ErrorDoc {
  @ApiProperty({ example: 'Authentication credentials were not provided or are invalid.' }) message!: string;
  @ApiProperty({ example: 'UNAUTHENTICATED' }) code!: string;
}
