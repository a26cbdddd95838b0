import { ApiProperty } from '@nestjs/swagger';
import { GRANT_DURATIONS, PROVIDER_VERIFICATIONS } from '@medfolio/contracts';

/** OpenAPI shapes of the provider routes; the contracts are plain interfaces and DTOs. */
export class VerifyLicenseBodyDoc {
  @ApiProperty({ example: '1234567893', description: 'The licence number: for the NPPES NPI Registry, the 10-digit NPI (spaces and dashes ignored)' })
  license_number!: string;
}

export class ProviderFactsDoc {
  @ApiProperty({ example: '1234567893' }) npi!: string;
  @ApiProperty({ example: 'nppes', description: 'The registry that confirmed it' }) registry!: string;
  @ApiProperty({ example: 'ANA' }) first_name!: string;
  @ApiProperty({ example: 'RUIZ' }) last_name!: string;
  @ApiProperty({ example: 'M.D.' }) credential!: string;
  @ApiProperty({ example: 'Internal Medicine', description: "The registry's primary taxonomy" }) specialty!: string;
  @ApiProperty({ example: 'CA', description: "The primary taxonomy's licence state" }) state!: string;
  @ApiProperty({ format: 'date-time' }) verified_at!: string;
  @ApiProperty({ example: 'Dr Ana Ruiz (NPI 1234567893)', description: 'How patients see the provider' }) display_name!: string;
  @ApiProperty({
    enum: PROVIDER_VERIFICATIONS,
    example: 'self_attested',
    description:
      "'self_attested': the registry knows the NPI under the account's name (a claim: patients see \"claims to be Dr X (NPI ...); not verified\", and links never let you in without asking). " +
      "'verified': an operator confirmed your identity (and no dispute of the number is open).",
  })
  verification!: string;
  @ApiProperty({ enum: ['pending', 'verified', 'disputed'], description: "Where the claim stands in the operators' review" }) review!: string;
  @ApiProperty({ nullable: true, type: String, format: 'date-time', description: 'When an operator verified the claim' }) reviewed_at!: string | null;
}

export class DisputeLicenseReplyDoc {
  @ApiProperty({ example: 'Your dispute was filed. An operator will review both claims and contact you at your account e-mail address.' }) message!: string;
  @ApiProperty({ format: 'uuid' }) dispute_id!: string;
}

export class VerifyLicenseReplyDoc {
  @ApiProperty({ example: 'License verified successfully!' }) message!: string;
  @ApiProperty({ type: ProviderFactsDoc }) provider!: ProviderFactsDoc;
}

export class RequestAccessBodyDoc {
  @ApiProperty({ example: 'q3Zk1mV0b8xR2nT5yW7aCd', description: 'The share id of the summary page (/summary/{shareId})' }) share_id!: string;
  @ApiProperty({
    required: false,
    example: '1798300000.q0yH8bTQ2m0rXlE8vXb1p5n4cW9dYk3sJ7uA2fG6hL0',
    description: "A passcode link's view token (POST /api/summary/unlock/, as the page got it): required for a passcode link, which answers 403 without it",
  })
  view_token?: string;
}

export class RequestAccessReplyDoc {
  @ApiProperty({ example: 'Your request was sent to the patient. You will see their documents once they approve it.' }) message!: string;
  @ApiProperty({ enum: ['pending', 'granted'] }) state!: string;
  @ApiProperty({ nullable: true, type: String, format: 'uuid', description: "The patient's id once access is granted" }) patient_id!: string | null;
}

export class ProviderSummaryDoc {
  @ApiProperty({ format: 'uuid' }) user_id!: string;
  @ApiProperty({ example: 'Dr Ana Ruiz (NPI 1234567893)' }) display_name!: string;
  @ApiProperty({
    enum: PROVIDER_VERIFICATIONS,
    description: "'verified' (an operator confirmed who they are) or 'self_attested' (the registry's name matches the account's, which anyone can claim): show \"claims to be <display_name>; not verified\"",
  })
  verification!: string;
  @ApiProperty({ example: '1234567893' }) npi!: string;
  @ApiProperty({ example: 'M.D.' }) credential!: string;
  @ApiProperty({ example: 'Internal Medicine' }) specialty!: string;
  @ApiProperty({ example: 'CA' }) state!: string;
}

export class AccessRequestItemDoc {
  @ApiProperty({ format: 'uuid' }) id!: string;
  @ApiProperty({ type: ProviderSummaryDoc }) provider!: ProviderSummaryDoc;
  @ApiProperty({ example: 'Default', description: 'The label of the share link the provider came through' }) link_label!: string;
  @ApiProperty({ enum: ['pending', 'approved', 'declined'] }) state!: string;
  @ApiProperty({ format: 'date-time' }) created_at!: string;
}

export class GrantItemDoc {
  @ApiProperty({ format: 'uuid' }) id!: string;
  @ApiProperty({ type: ProviderSummaryDoc }) provider!: ProviderSummaryDoc;
  @ApiProperty({ enum: ['approved', 'share-link'] }) source!: string;
  @ApiProperty({ format: 'date-time' }) granted_at!: string;
  @ApiProperty({ format: 'date-time' }) expires_at!: string;
  @ApiProperty({ nullable: true, type: String, format: 'date-time' }) revoked_at!: string | null;
  @ApiProperty({ description: 'Neither revoked nor expired' }) active!: boolean;
}

export class PatientAccessReplyDoc {
  @ApiProperty({ type: [AccessRequestItemDoc], description: 'Pending requests' }) requests!: AccessRequestItemDoc[];
  @ApiProperty({ type: [GrantItemDoc], description: 'Every grant, active or not (newest first)' }) grants!: GrantItemDoc[];
}

export class DecideRequestBodyDoc {
  @ApiProperty({ enum: ['approve', 'decline'] }) decision!: string;
  @ApiProperty({ enum: GRANT_DURATIONS, required: false, description: 'Required to approve: how long the provider may see the documents' }) duration?: string;
}

export class ProviderPatientItemDoc {
  @ApiProperty({ format: 'uuid' }) patient_id!: string;
  @ApiProperty({ example: 'Pat' }) first_name!: string;
  @ApiProperty({ format: 'uuid' }) grant_id!: string;
  @ApiProperty({ format: 'date-time' }) expires_at!: string;
}
