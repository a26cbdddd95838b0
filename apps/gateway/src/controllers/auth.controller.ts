import { Body, Controller, Get, HttpCode, Inject, Param, Post, UseGuards } from '@nestjs/common';
import { ApiBearerAuth, ApiBody, ApiCreatedResponse, ApiOkResponse, ApiOperation, ApiParam, ApiTags } from '@nestjs/swagger';
import { Throttle } from '@nestjs/throttler';
import {
  EmailDto,
  GoogleLoginDto,
  OidcCodeDto,
  LoginDto,
  LogoutDto,
  RefreshDto,
  RegisterDto,
  ResetPasswordDto,
  VerifyOtpDto,
  type CallerIdentity,
  type ForgotPasswordReply,
  type MessageReply,
  type OidcProvidersReply,
  type TokenPair,
  type VerifyOtpReply,
} from '@medfolio/contracts';
import { IdentityRepository } from '../repositories/identity.repository';
import { RevokedSessionsRepository } from '../repositories/revoked-sessions.repository';
import { CurrentCaller } from '../services/caller.decorator';
import { OptionalJwtGuard } from '../services/optional-jwt.guard';
import { ForgotPasswordDoc, MessageDoc, OidcProvidersDoc, TokenPairDoc, VerifyOtpDoc } from './openapi.models';
import { EmailBodyDoc, GoogleLoginBodyDoc, LoginBodyDoc, OidcLoginBodyDoc, LogoutBodyDoc, RefreshBodyDoc, RegisterBodyDoc, ResetPasswordBodyDoc, VerifyOtpBodyDoc } from './openapi.bodies';

/** Sign-up, verification, sign-in (password or Google), tokens, sign-out and password reset. */
/**
 * Routes that make the product send an e-mail: at most 10 an hour per client address (429 whatever
 * the address asked for, so it tells nothing); identity also limits the mail per target address.
 */
export const MAIL_SENDING_PER_CLIENT = { 'per-client': { limit: 10, ttl: 3_600_000 } };

@ApiTags('accounts')
@Controller()
export class AuthController {
  constructor(
    @Inject(IdentityRepository) private readonly identity: IdentityRepository,
    @Inject(RevokedSessionsRepository) private readonly revoked: RevokedSessionsRepository,
  ) {}

  @Post('register')
  @ApiOperation({ summary: 'Create an account (unverified) and e-mail a 4-digit code. A taken address gets the same answer; its owner is e-mailed instead' })
  @ApiBody({ type: RegisterBodyDoc })
  @ApiCreatedResponse({ type: MessageDoc })
  register(@Body() dto: RegisterDto, @CurrentCaller() caller: CallerIdentity): Promise<MessageReply> {
    return this.identity.call('register', dto, caller);
  }

  @Post('verify-otp')
  @HttpCode(200)
  @ApiOperation({ summary: 'Verify the e-mail address with the 4-digit code, or finish a step-up sign-in with the e-mailed sign-in code (both answer with a session)' })
  @ApiBody({ type: VerifyOtpBodyDoc })
  @ApiOkResponse({ type: VerifyOtpDoc })
  verifyOtp(@Body() dto: VerifyOtpDto, @CurrentCaller() caller: CallerIdentity): Promise<VerifyOtpReply> {
    return this.identity.call('verifyOtp', dto, caller);
  }

  @Post('resend-otp')
  @HttpCode(200)
  @Throttle(MAIL_SENDING_PER_CLIENT)
  @ApiOperation({ summary: 'Send a new code (at most one per 30 s, five per hour)' })
  @ApiBody({ type: EmailBodyDoc })
  @ApiOkResponse({ type: MessageDoc })
  resendOtp(@Body() dto: EmailDto, @CurrentCaller() caller: CallerIdentity): Promise<MessageReply> {
    return this.identity.call('resendOtp', dto, caller);
  }

  @Post('login')
  @HttpCode(200)
  @ApiOperation({
    summary:
      'Sign in: 401 for wrong credentials, 403 for an unverified account; 403 STEP_UP_REQUIRED from a new device while the account sees many failed sign-ins (the same answer whatever the password; with the right one a sign-in code is e-mailed, for POST /api/verify-otp/)',
  })
  @ApiBody({ type: LoginBodyDoc })
  @ApiOkResponse({ type: TokenPairDoc })
  login(@Body() dto: LoginDto, @CurrentCaller() caller: CallerIdentity): Promise<TokenPair> {
    return this.identity.call('login', dto, caller);
  }

  @Post('login-with-google')
  @HttpCode(200)
  @ApiOperation({ summary: 'Sign in with a Google ID token or access token' })
  @ApiBody({ type: GoogleLoginBodyDoc })
  @ApiOkResponse({ type: TokenPairDoc })
  loginWithGoogle(@Body() dto: GoogleLoginDto, @CurrentCaller() caller: CallerIdentity): Promise<TokenPair> {
    return this.identity.call('loginWithGoogle', dto, caller);
  }

  @Get('login-with-oidc/providers')
  @ApiOperation({ summary: 'The OpenID Connect sign-in providers configured besides Google (Apple, Microsoft, ...), with what the web app needs to start the sign-in' })
  @ApiOkResponse({ type: OidcProvidersDoc })
  oidcProviders(@CurrentCaller() caller: CallerIdentity): Promise<OidcProvidersReply> {
    return this.identity.call('oidcProviders', {}, caller);
  }

  @Post('login-with-oidc/:provider')
  @HttpCode(200)
  @ApiOperation({ summary: 'Sign in with a configured OpenID Connect provider: identity exchanges the authorization code (with the PKCE verifier) and checks the ID token' })
  @ApiParam({ name: 'provider', description: 'A configured provider name (GET /api/login-with-oidc/providers/)', example: 'microsoft' })
  @ApiBody({ type: OidcLoginBodyDoc })
  @ApiOkResponse({ type: TokenPairDoc })
  loginWithOidc(@Param('provider') provider: string, @Body() dto: OidcCodeDto, @CurrentCaller() caller: CallerIdentity): Promise<TokenPair> {
    return this.identity.call('loginWithOidc', { ...dto, provider }, caller);
  }

  @Post('token/refresh')
  @HttpCode(200)
  @ApiOperation({ summary: 'Exchange a refresh token for a new pair (the old one is used up)' })
  @ApiBody({ type: RefreshBodyDoc })
  @ApiOkResponse({ type: TokenPairDoc })
  refresh(@Body() dto: RefreshDto, @CurrentCaller() caller: CallerIdentity): Promise<TokenPair> {
    return this.identity.call('refresh', dto, caller);
  }

  @Post('logout')
  @HttpCode(200)
  @UseGuards(OptionalJwtGuard)
  @ApiBearerAuth()
  @ApiOperation({ summary: 'Sign out: revokes this sign-in (by its refresh token, or the access token used); its access tokens are refused from the answer on' })
  @ApiBody({ type: LogoutBodyDoc, required: false })
  @ApiOkResponse({ type: MessageDoc })
  async logout(@Body() dto: LogoutDto, @CurrentCaller() caller: CallerIdentity): Promise<MessageReply> {
    // Effective before the 200, on this gateway; the others learn through identity's event.
    return this.revoked.revokeFrom(await this.identity.call('logout', dto, caller));
  }

  @Post('forgot-password')
  @HttpCode(200)
  @Throttle(MAIL_SENDING_PER_CLIENT)
  @ApiOperation({ summary: 'E-mail a password reset link. The same answer whether or not the account exists; `token` is always null' })
  @ApiBody({ type: EmailBodyDoc })
  @ApiOkResponse({ type: ForgotPasswordDoc })
  forgot(@Body() dto: EmailDto, @CurrentCaller() caller: CallerIdentity): Promise<ForgotPasswordReply> {
    return this.identity.call('forgotPassword', dto, caller);
  }

  @Post('reset-password')
  @HttpCode(200)
  @ApiOperation({ summary: 'Set a new password with the e-mailed link; signs out everywhere' })
  @ApiBody({ type: ResetPasswordBodyDoc })
  @ApiOkResponse({ type: MessageDoc })
  async reset(@Body() dto: ResetPasswordDto, @CurrentCaller() caller: CallerIdentity): Promise<MessageReply> {
    return this.revoked.revokeFrom(await this.identity.call('resetPassword', dto, caller));
  }
}
