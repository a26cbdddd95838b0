import { ProviderFactsDoc } from './providers.openapi';
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
  @ApiProperty({ example: 'document', description: "What was touched: 'document', 'session', 'user', ..." }) entity_type!: string;
  @ApiProperty({ nullable: true, type: String, description: 'Its id; for a document, the patient finds its name in GET /api/upload/' }) entity_id!: string | null;
  @ApiProperty({ nullable: true, type: String, example: 'Wrong e-mail address or password.', description: 'Why a failure or refusal happened; null on success' }) reason!: string | null;
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

export class MessageDoc {
  @ApiProperty({ example: 'Your e-mail address is verified. You can sign in now.' }) message!: string;
}

export class TokenPairDoc {
  @ApiProperty({ description: 'ES256 JWT, valid 15 minutes; send as `Authorization: Bearer <access>`' }) access!: string;
  @ApiProperty({ description: 'Opaque, single use: exchange at POST /api/token/refresh/ for a new pair' }) refresh!: string;
}

export class OidcProviderDoc {
  @ApiProperty({ description: 'Name used in the routes and the callback path', example: 'microsoft' }) name!: string;
  @ApiProperty({ description: 'Shown on the button: "Continue with <label>"', example: 'Microsoft' }) label!: string;
  @ApiProperty({ description: "The provider's authorization endpoint (from its discovery document)" }) authorization_url!: string;
  @ApiProperty({ description: 'Our OAuth client id at the provider' }) client_id!: string;
  @ApiProperty({ example: 'openid email profile' }) scope!: string;
}

export class OidcProvidersDoc {
  @ApiProperty({ type: [OidcProviderDoc], description: 'The configured providers that answer; empty when none is configured' }) providers!: OidcProviderDoc[];
}

export class VerifyOtpDoc extends MessageDoc {
  @ApiProperty({ required: false, description: 'Present when this call verified the address: the new sign-in (as POST /api/login/ answers)' }) access?: string;
  @ApiProperty({ required: false }) refresh?: string;
}

export class ForgotPasswordDoc extends MessageDoc {
  @ApiProperty({ nullable: true, type: String, example: null, description: 'Always null: the reset secret is only ever e-mailed' }) token!: null;
}

export class ChangePasswordReplyDoc extends MessageDoc {
  @ApiProperty({ example: 'Password updated successfully' }) detail!: string;
}

export class ProfileDoc {
  @ApiProperty({ format: 'uuid' }) id!: string;
  @ApiProperty() first_name!: string;
  @ApiProperty() last_name!: string;
  @ApiProperty() email!: string;
  @ApiProperty() phone!: string;
  @ApiProperty({ nullable: true, type: String, description: 'URL of the 400x400 picture, or null' }) profile_picture!: string | null;
  @ApiProperty({ nullable: true, type: String, example: '1990-04-01' }) date_of_birth!: string | null;
  @ApiProperty({ nullable: true, type: String, enum: ['female', 'male', 'other', 'undisclosed'] }) gender!: string | null;
  @ApiProperty() email_verified!: boolean;
  @ApiProperty({ type: [String], example: ['patient', 'provider'], description: "'provider' while the account holds a medical license claim (POST /api/medical-license/; self-attested or verified: see provider.verification)" }) roles!: string[];
  @ApiProperty({ nullable: true, type: () => ProviderFactsDoc, description: "The registry's facts and the claim's verification level while the account holds a license claim" }) provider!: ProviderFactsDoc | null;
}

export class ClientConfigDoc {
  @ApiProperty({ nullable: true, type: String, description: 'OAuth client id for Google sign-in; null when it is not configured' }) google_client_id!: string | null;
  @ApiProperty({ example: 'https://accounts.google.com/o/oauth2/v2/auth' }) google_authorization_url!: string;
  @ApiProperty({ description: "Google Wallet is configured: the dashboard shows 'Save to Google Wallet'" }) google_wallet!: boolean;
  @ApiProperty({ nullable: true, type: String, description: "Stripe.js's publishable key; null when card payments are not set up (no Stripe.js is loaded)" })
  stripe_publishable_key!: string | null;
}
