import { Body, Controller, Delete, Get, HttpCode, Inject, Param, ParseUUIDPipe, Post, Res, UseGuards } from '@nestjs/common';
import { AuthGuard } from '@nestjs/passport';
import {
  ApiBearerAuth,
  ApiBody,
  ApiConflictResponse,
  ApiForbiddenResponse,
  ApiNotFoundResponse,
  ApiOkResponse,
  ApiOperation,
  ApiParam,
  ApiProduces,
  ApiResponse,
  ApiServiceUnavailableResponse,
  ApiTags,
  ApiTooManyRequestsResponse,
  ApiUnauthorizedResponse,
} from '@nestjs/swagger';
import {
  DecideRequestBodyDto,
  DomainError,
  PROVIDER_MESSAGES,
  RequestAccessDto,
  VerifyLicenseDto,
  type CallerIdentity,
  type DisputeLicenseReply,
  type DocumentListItem,
  type DownloadLinkReply,
  type FhirBundle,
  type PatientAccessReply,
  type ProviderFacts,
  type ProviderPatientItem,
  type RequestAccessReply,
  type SummaryItem,
  type VerifyLicenseReply,
} from '@medfolio/contracts';
import { ProvidersRepository } from '../repositories/providers.repository';
import { CurrentCaller } from '../services/caller.decorator';
import { ProviderRateLimitGuard } from '../services/provider-rate-limit.guard';
import { DocumentItemDoc, DownloadLinkDoc } from './documents.openapi';
import { ErrorDoc } from './openapi.models';
import {
  DecideRequestBodyDoc,
  DisputeLicenseReplyDoc,
  PatientAccessReplyDoc,
  ProviderFactsDoc,
  ProviderPatientItemDoc,
  RequestAccessBodyDoc,
  RequestAccessReplyDoc,
  VerifyLicenseBodyDoc,
  VerifyLicenseReplyDoc,
} from './providers.openapi';
import { SummaryItemDoc } from './summary.openapi';

const TAG = 'Providers';
const uuid = (name: string) => new ParseUUIDPipe({ exceptionFactory: () => new DomainError('NOT_FOUND', name === 'patientId' ? PROVIDER_MESSAGES.patientNotFound : 'Not found.') });
const PATIENT_ID = { name: 'patientId', format: 'uuid', description: 'A patient id from GET /api/providers/patients/', example: '0b7e4c1e-5d1a-4c36-9a51-8f3f1f0c2a11' } as const;
const NOT_GRANTED = { type: ErrorDoc, description: 'No active grant from this patient (never granted, declined, revoked, expired, or not a verified provider): the same 404 as for any other user\'s data' };

/**
 * Licence verification: the /medical-license screen's Proceed. The number's check digit
 * is checked in identity before the registry is asked.
 */
@ApiTags(TAG)
@ApiBearerAuth()
@Controller('medical-license')
@UseGuards(AuthGuard('jwt'))
export class MedicalLicenseController {
  constructor(@Inject(ProvidersRepository) private readonly providers: ProvidersRepository) {}

  @Post()
  @HttpCode(200)
  @ApiOperation({
    summary: 'Verify a medical license against the NPPES NPI Registry; success gives the account the provider role (self-attested until an operator verifies it)',
    description:
      'The number is the 10-digit NPI. The registry must know it as an individual provider (NPI-1) whose name matches the account\'s ' +
      '(case, accents and middle names do not matter), and no other account may hold it. The role reaches the next access token: ' +
      'refresh the token (POST /api/token/refresh/) after a success. At most 10 attempts an hour per account; every attempt is ' +
      "recorded in the account's access history. A registry name match is a claim, not proof (the registry is public): the provider is " +
      "'self_attested' (may ask patients, who see \"claims to be Dr X (NPI ...); not verified\") until an operator verifies the claim " +
      "(provider.verification 'verified'). Changing the profile's first or last name drops the claim and the role.",
  })
  @ApiBody({ type: VerifyLicenseBodyDoc, examples: { npi: { value: { license_number: '1234567893' } } } })
  @ApiOkResponse({ type: VerifyLicenseReplyDoc })
  @ApiNotFoundResponse({ type: ErrorDoc, description: "'Medical License Number Not Found, Please Try Again' (unknown number, or a wrong check digit)" })
  @ApiResponse({ status: 400, type: ErrorDoc, description: 'An organisation\'s NPI, or the registry\'s name does not match the account\'s' })
  @ApiConflictResponse({ type: ErrorDoc, description: 'Another account claims the number: if it is yours, dispute it (POST /api/medical-license/dispute/)' })
  @ApiForbiddenResponse({ type: ErrorDoc, description: 'Your claim on this number was rejected after review' })
  @ApiTooManyRequestsResponse({ type: ErrorDoc, description: 'Too many attempts (Retry-After)' })
  @ApiServiceUnavailableResponse({ type: ErrorDoc, description: "'We cannot verify licenses right now. Please try again later.' (the registry is down, slow or failing)" })
  verify(@Body() dto: VerifyLicenseDto, @CurrentCaller() caller: CallerIdentity): Promise<VerifyLicenseReply> {
    return this.providers.call('verifyLicense', dto, caller);
  }

  @Post('dispute')
  @HttpCode(201)
  @ApiOperation({
    summary: "Dispute another account's claim on your NPI",
    description:
      'For the real holder of a number another account claims (409 on POST /api/medical-license/). The registry must know the number under your ' +
      "account's name (the same checks and hourly limit as a claim). The dispute goes to the operators' review queue; while it is open the other " +
      'account is not verified, so no share link lets it in without asking. Filing again answers the same dispute.',
  })
  @ApiBody({ type: VerifyLicenseBodyDoc, examples: { npi: { value: { license_number: '1234567893' } } } })
  @ApiResponse({ status: 201, type: DisputeLicenseReplyDoc })
  @ApiNotFoundResponse({ type: ErrorDoc, description: "'Medical License Number Not Found, Please Try Again'" })
  @ApiResponse({ status: 400, type: ErrorDoc, description: "An organisation's NPI, the registry's name does not match the account's, or no other account claims the number" })
  @ApiTooManyRequestsResponse({ type: ErrorDoc, description: 'Too many attempts (Retry-After)' })
  @ApiServiceUnavailableResponse({ type: ErrorDoc, description: 'The registry cannot be asked right now' })
  dispute(@Body() dto: VerifyLicenseDto, @CurrentCaller() caller: CallerIdentity): Promise<DisputeLicenseReply> {
    return this.providers.call('disputeLicense', dto, caller);
  }

  @Get()
  @ApiOperation({ summary: "The signed-in provider's facts, with their verification level ('self_attested' or 'verified')" })
  @ApiOkResponse({ type: ProviderFactsDoc })
  @ApiNotFoundResponse({ type: ErrorDoc, description: 'No licence claim on this account (or a rejected one)' })
  get(@CurrentCaller() caller: CallerIdentity): Promise<ProviderFacts> {
    return this.providers.call('getProvider', {}, caller);
  }
}

/**
 * Patient-granted access. The patient's side (requests, grants, decisions, revocation)
 * and the provider's (asking from a shared summary; then patients, summaries, documents and links),
 * which is also the API a provider's own system calls with the provider's token.
 */
@ApiTags(TAG)
@ApiBearerAuth()
@Controller('providers')
@UseGuards(AuthGuard('jwt'))
@ApiUnauthorizedResponse({ type: ErrorDoc, description: 'Not signed in' })
export class ProvidersController {
  constructor(@Inject(ProvidersRepository) private readonly providers: ProvidersRepository) {}

  @Post('access-requests')
  @HttpCode(200)
  @ApiOperation({
    summary: "A verified provider asks for the documents behind a shared summary ('View past medical history')",
    description:
      'The patient is e-mailed and sees the request in the app. If the link was made with "verified providers may see documents", ' +
      'access is granted at once (state `granted`), until the link is revoked or expires or the setting is turned off. ' +
      'A passcode link needs `view_token` (POST /api/summary/unlock/ with the passcode): without it nothing is asked or granted. ' +
      'Asking again while a request is pending changes nothing.',
  })
  @ApiBody({ type: RequestAccessBodyDoc })
  @ApiOkResponse({ type: RequestAccessReplyDoc })
  @ApiForbiddenResponse({ type: ErrorDoc, description: "Not a verified provider (verify at POST /api/medical-license/ first), or 'This link needs a passcode.' (a passcode link without a valid view_token)" })
  @ApiNotFoundResponse({ type: ErrorDoc, description: "'This link is not valid.' (revoked, expired, locked or unknown)" })
  @ApiConflictResponse({ type: ErrorDoc, description: 'The patient changed the link while access was being given (nothing was given; ask again)' })
  request(@Body() dto: RequestAccessDto, @CurrentCaller() caller: CallerIdentity): Promise<RequestAccessReply> {
    return this.providers.call('requestAccess', dto, caller);
  }

  @Get('access')
  @ApiOperation({ summary: "The patient: pending requests from providers, and every grant (with revoke)" })
  @ApiOkResponse({ type: PatientAccessReplyDoc })
  access(@CurrentCaller() caller: CallerIdentity): Promise<PatientAccessReply> {
    return this.providers.call('patientAccess', {}, caller);
  }

  @Post('access-requests/:requestId/decision')
  @HttpCode(200)
  @ApiOperation({ summary: 'The patient approves a request (for a day, a week or a month) or declines it' })
  @ApiParam({ name: 'requestId', format: 'uuid' })
  @ApiBody({ type: DecideRequestBodyDoc, examples: { approve: { value: { decision: 'approve', duration: 'week' } }, decline: { value: { decision: 'decline' } } } })
  @ApiOkResponse({ type: PatientAccessReplyDoc })
  @ApiNotFoundResponse({ type: ErrorDoc, description: 'No such pending request of yours' })
  decide(@Param('requestId', uuid('requestId')) requestId: string, @Body() body: DecideRequestBodyDto, @CurrentCaller() caller: CallerIdentity): Promise<PatientAccessReply> {
    return this.providers.call('decide', { request_id: requestId, decision: body.decision, ...(body.duration ? { duration: body.duration } : {}) }, caller);
  }

  @Delete('grants/:grantId')
  @ApiOperation({ summary: "The patient revokes a provider's access (at once)" })
  @ApiParam({ name: 'grantId', format: 'uuid' })
  @ApiOkResponse({ type: PatientAccessReplyDoc })
  @ApiNotFoundResponse({ type: ErrorDoc, description: 'No such grant of yours' })
  revoke(@Param('grantId', uuid('grantId')) grantId: string, @CurrentCaller() caller: CallerIdentity): Promise<PatientAccessReply> {
    return this.providers.call('revoke', { grant_id: grantId }, caller);
  }

  @Get('patients')
  @UseGuards(ProviderRateLimitGuard)
  @ApiOperation({ summary: 'The provider: patients who granted access now (rate limited per provider)' })
  @ApiOkResponse({ type: [ProviderPatientItemDoc] })
  @ApiForbiddenResponse({ type: ErrorDoc, description: 'Not a verified provider' })
  @ApiTooManyRequestsResponse({ type: ErrorDoc, description: 'PROVIDER_RATE_LIMIT_PER_MINUTE reached (Retry-After)' })
  patients(@CurrentCaller() caller: CallerIdentity): Promise<ProviderPatientItem[]> {
    return this.providers.call('patients', {}, caller);
  }

  @Get('patients/:patientId/summary')
  @UseGuards(ProviderRateLimitGuard)
  @ApiOperation({ summary: "The provider: the patient's summary as JSON (as the patient sees it, hidden facts left out)" })
  @ApiParam(PATIENT_ID)
  @ApiOkResponse({ type: SummaryItemDoc })
  @ApiNotFoundResponse(NOT_GRANTED)
  @ApiTooManyRequestsResponse({ type: ErrorDoc, description: 'PROVIDER_RATE_LIMIT_PER_MINUTE reached (Retry-After)' })
  summary(@Param('patientId', uuid('patientId')) patientId: string, @CurrentCaller() caller: CallerIdentity): Promise<SummaryItem> {
    return this.providers.call('patientSummary', { patient_id: patientId }, caller);
  }

  @Get('patients/:patientId/summary/fhir')
  @UseGuards(ProviderRateLimitGuard)
  @ApiOperation({
    summary: "The provider: the patient's summary as a FHIR R4 International Patient Summary (IPS) document Bundle",
    description: 'The same content as the JSON summary (the confirmed version, hidden facts left out), as `application/fhir+json`.',
  })
  @ApiParam(PATIENT_ID)
  @ApiProduces('application/fhir+json')
  @ApiOkResponse({ description: 'A FHIR R4 Bundle of type document (Composition first)', schema: { type: 'object', example: { resourceType: 'Bundle', type: 'document', entry: [{ resource: { resourceType: 'Composition', title: 'International Patient Summary' } }] } } })
  @ApiNotFoundResponse(NOT_GRANTED)
  @ApiTooManyRequestsResponse({ type: ErrorDoc, description: 'PROVIDER_RATE_LIMIT_PER_MINUTE reached (Retry-After)' })
  async ips(
    @Param('patientId', uuid('patientId')) patientId: string,
    @CurrentCaller() caller: CallerIdentity,
    @Res({ passthrough: true }) reply: { header(name: string, value: string): unknown },
  ): Promise<FhirBundle> {
    const bundle = await this.providers.call('patientIps', { patient_id: patientId }, caller);
    reply.header('content-type', 'application/fhir+json; charset=utf-8');
    return bundle;
  }

  @Get('patients/:patientId/documents')
  @UseGuards(ProviderRateLimitGuard)
  @ApiOperation({ summary: "The provider: the patient's documents (read-only; each listing is in the patient's access history)" })
  @ApiParam(PATIENT_ID)
  @ApiOkResponse({ type: [DocumentItemDoc] })
  @ApiNotFoundResponse(NOT_GRANTED)
  @ApiTooManyRequestsResponse({ type: ErrorDoc, description: 'PROVIDER_RATE_LIMIT_PER_MINUTE reached (Retry-After)' })
  documents(@Param('patientId', uuid('patientId')) patientId: string, @CurrentCaller() caller: CallerIdentity): Promise<DocumentListItem[]> {
    return this.providers.call('patientDocuments', { patient_id: patientId }, caller);
  }

  @Get('patients/:patientId/documents/:documentId/download-link')
  @UseGuards(ProviderRateLimitGuard)
  @ApiOperation({ summary: "The provider: a 5-minute download link to one of the patient's documents (in the patient's access history)" })
  @ApiParam(PATIENT_ID)
  @ApiParam({ name: 'documentId', format: 'uuid' })
  @ApiOkResponse({ type: DownloadLinkDoc })
  @ApiNotFoundResponse(NOT_GRANTED)
  @ApiTooManyRequestsResponse({ type: ErrorDoc, description: 'PROVIDER_RATE_LIMIT_PER_MINUTE reached (Retry-After)' })
  downloadLink(
    @Param('patientId', uuid('patientId')) patientId: string,
    @Param('documentId', uuid('documentId')) documentId: string,
    @CurrentCaller() caller: CallerIdentity,
  ): Promise<DownloadLinkReply> {
    return this.providers.call('patientDownloadLink', { patient_id: patientId, document_id: documentId }, caller);
  }
}
