import { ApiProperty } from '@nestjs/swagger';

/** OpenAPI shapes of the SMART Health Link routes (the contracts are plain interfaces and DTOs). */
export class ShlManifestBodyDoc {
  @ApiProperty({ example: 'Dr Lee, City Clinic', description: 'Who is asking (shown in the patient’s history)' })
  recipient!: string;
  @ApiProperty({ required: false, example: 'blue-heron', description: 'Required when the SHL payload has flag P' })
  passcode?: string;
  @ApiProperty({
    required: false,
    example: 100000,
    description: 'Longest embedded file the client takes; longer ones come as a location',
  })
  embeddedLengthMax?: number;
}

export class ShlManifestFileDoc {
  @ApiProperty({ enum: ['application/fhir+json'] }) contentType!: string;
  @ApiProperty({ required: false, description: 'Compact JWE (alg dir, enc A256GCM)' }) embedded?: string;
  @ApiProperty({ required: false, description: 'URL of the compact JWE, valid for an hour' }) location?: string;
  @ApiProperty({ required: false, description: 'ISO 8601' }) lastUpdated?: string;
}

export class ShlManifestDoc {
  @ApiProperty({ enum: ['finalized', 'can-change', 'no-longer-valid'] }) status!: string;
  @ApiProperty({ type: [ShlManifestFileDoc] }) files!: ShlManifestFileDoc[];
}

export class ShlRemainingAttemptsDoc {
  @ApiProperty({ example: 4 }) remainingAttempts!: number;
  @ApiProperty({ example: 'Wrong passcode. 4 attempts left.' }) message!: string;
  @ApiProperty({ example: 'UNAUTHENTICATED' }) code!: string;
}
