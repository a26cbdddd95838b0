import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { GENDERS } from '@medfolio/contracts';

/** OpenAPI descriptions of request bodies (the validating DTOs live in libs/contracts). */
export class RegisterBodyDoc {
  @ApiProperty({ maxLength: 100 }) first_name!: string;
  @ApiPropertyOptional({ maxLength: 100 }) last_name?: string;
  @ApiProperty({ maxLength: 100 }) phone!: string;
  @ApiProperty({ maxLength: 100, format: 'email' }) email!: string;
  @ApiProperty({ minLength: 8, maxLength: 100 }) password!: string;
  @ApiProperty({ example: '1990-04-01', description: 'YYYY-MM-DD, a real date, not in the future' }) date_of_birth!: string;
  @ApiPropertyOptional({ maxLength: 32, example: 'K7M2QX9A', description: 'The referral code of the sign-up link (/sign-up?ref=CODE)' }) ref?: string;
}

export class LoginBodyDoc {
  @ApiProperty({ maxLength: 100 }) email!: string;
  @ApiProperty({ maxLength: 100 }) password!: string;
}

export class EmailBodyDoc {
  @ApiProperty({ maxLength: 100 }) email!: string;
}

export class VerifyOtpBodyDoc extends EmailBodyDoc {
  @ApiProperty({ example: '0417', description: 'The 4-digit code from the e-mail' }) otp!: string;
}

export class RefreshBodyDoc {
  @ApiProperty() refresh!: string;
}

export class LogoutBodyDoc {
  @ApiPropertyOptional({ description: 'The refresh token of the sign-in to end (else the one of the access token)' }) refresh?: string;
}

export class ResetPasswordBodyDoc extends EmailBodyDoc {
  @ApiProperty({ minLength: 8, maxLength: 100 }) password!: string;
  @ApiProperty({ description: 'The token from the e-mailed /reset-password/{email}/{token} link' }) token!: string;
}

export class GoogleLoginBodyDoc {
  @ApiProperty({ description: 'A Google ID token (credential) or OAuth access token' }) token!: string;
}

export class OidcLoginBodyDoc {
  @ApiProperty({ maxLength: 2048, description: 'The authorization code from the redirect back to /auth/oidc/{provider}/callback' }) code!: string;
  @ApiProperty({ minLength: 43, maxLength: 128, description: 'The PKCE code verifier (RFC 7636) whose S256 challenge was in the authorization request' }) code_verifier!: string;
  @ApiProperty({ minLength: 16, maxLength: 128, description: 'The nonce of the authorization request; the ID token must carry it' }) nonce!: string;
  @ApiProperty({ maxLength: 512, description: 'The redirect URI of the authorization request: <origin>/auth/oidc/{provider}/callback' }) redirect_uri!: string;
}

export class UpdateProfileBodyDoc {
  @ApiProperty({ maxLength: 100 }) first_name!: string;
  @ApiPropertyOptional({ maxLength: 100 }) last_name?: string;
  @ApiProperty({ maxLength: 100 }) phone!: string;
  @ApiPropertyOptional({ enum: [...GENDERS, ''], description: "Absent: unchanged; '' clears it" }) gender?: string;
  @ApiPropertyOptional({ example: '1990-04-01', description: 'Absent: unchanged. YYYY-MM-DD, a real date, not in the future' }) date_of_birth?: string;
}

export class ChangePasswordBodyDoc {
  @ApiProperty({ maxLength: 100 }) old_password!: string;
  @ApiProperty({ minLength: 8, maxLength: 100 }) new_password!: string;
}
