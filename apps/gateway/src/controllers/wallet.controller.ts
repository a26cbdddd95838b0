import { Body, Controller, Get, Inject, Put, UseGuards } from '@nestjs/common';
import { AuthGuard } from '@nestjs/passport';
import { ApiBearerAuth, ApiBody, ApiOkResponse, ApiOperation, ApiServiceUnavailableResponse, ApiTags, ApiUnauthorizedResponse } from '@nestjs/swagger';
import { PassSettingsDto, type CallerIdentity, type PassStatus, type PassUrlReply, type PassView } from '@medfolio/contracts';
import { WalletRepository } from '../repositories/wallet.repository';
import { CurrentCaller } from '../services/caller.decorator';
import { ErrorDoc } from './openapi.models';
import { PassSettingsBodyDoc, PassStatusDoc, PassUrlDoc, PassViewDoc } from './wallet.openapi';

/**
 * The patient's wallet pass: the signed Apple Wallet pass's download link (spec: GET
 * /api/get-pass-url/ → {url}), what the pass shows (/wallet-preview), the name setting, and the
 * Google Wallet Save link. Thin: one call to the wallet service each.
 */
@ApiTags('wallet')
@ApiBearerAuth()
@Controller()
@UseGuards(AuthGuard('jwt'))
export class WalletController {
  constructor(@Inject(WalletRepository) private readonly wallet: WalletRepository) {}

  @Get('get-pass-url')
  @ApiOperation({
    summary: "A short-lived download link of the caller's signed Apple Wallet pass",
    description:
      'The pass carries a share link of its own and no health data. Made and signed on first use; signed again only when it changes. Revoking its link retires the pass for good (its token then answers 401); the next call here issues a new pass (a new serial number, token and link).',
  })
  @ApiOkResponse({ type: PassUrlDoc })
  @ApiUnauthorizedResponse({ type: ErrorDoc })
  @ApiServiceUnavailableResponse({ type: ErrorDoc, description: 'The pass could not be made right now' })
  passUrl(@CurrentCaller() caller: CallerIdentity): Promise<PassUrlReply> {
    return this.wallet.passUrl(caller);
  }

  @Get('wallet/status')
  @ApiOperation({ summary: "Whether the caller has a wallet pass, and whether the last one was retired (its link revoked). Makes nothing." })
  @ApiOkResponse({ type: PassStatusDoc })
  @ApiUnauthorizedResponse({ type: ErrorDoc })
  passStatus(@CurrentCaller() caller: CallerIdentity): Promise<PassStatus> {
    return this.wallet.passStatus(caller);
  }

  @Get('wallet/pass')
  @ApiOperation({ summary: "What the caller's pass shows: the same fields the signed pass carries" })
  @ApiOkResponse({ type: PassViewDoc })
  @ApiUnauthorizedResponse({ type: ErrorDoc })
  passView(@CurrentCaller() caller: CallerIdentity): Promise<PassView> {
    return this.wallet.passView(caller);
  }

  @Put('wallet/settings')
  @ApiOperation({ summary: "Show or hide the holder's first name on the pass (devices holding it are told)" })
  @ApiBody({ type: PassSettingsBodyDoc })
  @ApiOkResponse({ type: PassViewDoc })
  settings(@Body() body: PassSettingsDto, @CurrentCaller() caller: CallerIdentity): Promise<PassView> {
    return this.wallet.updateSettings({ show_name: body.show_name }, caller);
  }

  @Get('wallet/google')
  @ApiOperation({ summary: "A 'Save to Google Wallet' link (https://pay.google.com/gp/v/save/{jwt}) carrying the same QR link" })
  @ApiOkResponse({ type: PassUrlDoc })
  @ApiServiceUnavailableResponse({ type: ErrorDoc, description: 'Google Wallet is not configured' })
  google(@CurrentCaller() caller: CallerIdentity): Promise<PassUrlReply> {
    return this.wallet.googleSaveUrl(caller);
  }
}
