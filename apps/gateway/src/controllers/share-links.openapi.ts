import { ApiProperty } from '@nestjs/swagger';
import { SHARE_LINK_PURPOSES } from '@medfolio/contracts';

/** OpenAPI shapes of the share-link routes (the contracts are plain interfaces and DTOs). */
export class ShareLinkItemDoc {
  @ApiProperty({ format: 'uuid', description: "The link's own id (for the owner's routes); not the secret" }) id!: string;
  @ApiProperty({ example: 'kq3C1uXW0pDq3b0F7nHqXg', description: 'The secret in the URL (128 random bits, base64url)' }) share_id!: string;
  @ApiProperty({ example: 'https://app.medfolio.example/summary/kq3C1uXW0pDq3b0F7nHqXg' }) url!: string;
  @ApiProperty({ example: 'For Dr Lee' }) label!: string;
  @ApiProperty({ enum: SHARE_LINK_PURPOSES, description: "'default': the dashboard's link; 'custom': made on the share panel; 'wallet': a pass's own link" })
  purpose!: string;
  @ApiProperty({ example: 1, description: 'Bumped on every change to the link' }) version!: number;
  @ApiProperty({ format: 'date-time' }) created_at!: string;
  @ApiProperty({ format: 'date-time', nullable: true, type: String }) expires_at!: string | null;
  @ApiProperty({ format: 'date-time', nullable: true, type: String }) revoked_at!: string | null;
  @ApiProperty() has_passcode!: boolean;
  @ApiProperty({ description: 'Too many wrong passcodes: it opens again once the owner sets a new passcode' }) locked!: boolean;
  @ApiProperty({ description: 'E-mail the owner when the link is opened (at most once per hour)' }) notify_on_view!: boolean;
  @ApiProperty({ description: 'Care providers who reach the patient through this link may ask to see documents' }) providers_may_see_documents!: boolean;
  @ApiProperty({ description: "The patient's name and date of birth on the page, PDF and IPS the link hands out (off: an anonymous summary)" }) show_patient_identity!: boolean;
  @ApiProperty({ example: 3 }) view_count!: number;
  @ApiProperty({ format: 'date-time', nullable: true, type: String }) last_viewed_at!: string | null;
  @ApiProperty({ nullable: true, type: String, description: 'The SMART Health Link (shlink:/...) when the link is also one' }) shl!: string | null;
  @ApiProperty({ description: "What the link's QR code encodes: `url`, with '#' and `shl` after it when the link is an SHL" }) qr_text!: string;
}

export class CreateShareLinkBodyDoc {
  @ApiProperty({ minLength: 1, maxLength: 60, example: 'For Dr Lee' }) label!: string;
  @ApiProperty({ required: false, nullable: true, type: String, format: 'date-time', description: 'A future time, at most a year ahead; absent or null: no expiry' })
  expires_at?: string | null;
  @ApiProperty({ required: false, nullable: true, type: String, minLength: 4, maxLength: 64, description: 'Asked before the summary shows; stored hashed' })
  passcode?: string | null;
  @ApiProperty({ required: false, default: false }) notify_on_view?: boolean;
  @ApiProperty({ required: false, default: false }) providers_may_see_documents?: boolean;
  @ApiProperty({ required: false, default: false, description: 'Also a SMART Health Link: a doctor’s app reads the summary as a FHIR IPS Bundle' }) shl?: boolean;
  @ApiProperty({ required: false, default: true, description: "Show the patient's name and date of birth (false: an anonymous summary)" }) show_patient_identity?: boolean;
}

export class UpdateShareLinkBodyDoc {
  @ApiProperty({ required: false, minLength: 1, maxLength: 60, example: 'For Dr Lee (cardiology)' }) label?: string;
  @ApiProperty({ required: false, nullable: true, type: String, format: 'date-time', description: 'null removes the expiry' }) expires_at?: string | null;
  @ApiProperty({ required: false, nullable: true, type: String, minLength: 4, maxLength: 64, description: 'A new passcode (also unlocks a locked link); null removes it' })
  passcode?: string | null;
  @ApiProperty({ required: false }) notify_on_view?: boolean;
  @ApiProperty({ required: false }) providers_may_see_documents?: boolean;
  @ApiProperty({ required: false, description: 'Turn the SMART Health Link on (a new key) or off' }) shl?: boolean;
  @ApiProperty({ required: false, description: "Show the patient's name and date of birth, or not" }) show_patient_identity?: boolean;
}

export class UnlockBodyDoc {
  @ApiProperty({ example: 'kq3C1uXW0pDq3b0F7nHqXg', description: 'The share id from the link' }) user!: string;
  @ApiProperty({ example: 'blue-heron' }) passcode!: string;
}

export class UnlockReplyDoc {
  @ApiProperty({ description: 'Send as view_token with GET /api/summary/?user={shareId}' }) view_token!: string;
  @ApiProperty({ format: 'date-time' }) expires_at!: string;
}
