import { FAMILY_MESSAGES } from '../family';
import {
  AssentDto,
  ClaimInviteBodyDto,
  ClaimRecordBodyDto,
  DOCUMENT_PRIVACY_SUBJECTS,
  DocumentPrivacyBodyDto,
  FAMILY_TEEN_MESSAGES,
  FAMILY_TEEN_SUBJECTS,
} from '../family-teens';
import { forward, ownRead } from './route';

const MEMBER_ID = { description: "A dependant's patient id from GET /api/family/members/", format: 'uuid', notFound: FAMILY_MESSAGES.notYourMember } as const;
const TOKEN = { description: "The claim link's secret (the last part of /family/claim/{token})" } as const;
const DOCUMENT_ID = { description: 'A document id from GET /api/upload/', format: 'uuid', notFound: 'Document not found.' } as const;

/** Family, second round: a dependant's own sign-in (claim), a teen's assent, private documents (docs/guide/family.md). */
export const FAMILY_TEEN_ROUTES = {
  familyClaimInvite: forward(FAMILY_TEEN_SUBJECTS.claimInvite, {
    method: 'POST', path: '/api/family/members/{memberId}/claim-invite/', tag: 'family', auth: 'bearer', rateLimit: 'mail',
    summary: "E-mail a dependant (13 or over) a link to their own sign-in: the account they create keeps their record's id",
    description:
      'Only a guardian. From the 13th birthday when FAMILY_TEEN_SIGN_IN is on, otherwise from the 18th; after the 18th birthday for FAMILY_CLAIM_GRACE_DAYS (90 by default). A new link replaces the pending one. The link is valid FAMILY_INVITE_DAYS.',
    params: { memberId: MEMBER_ID },
    paramNames: { memberId: 'member_id' },
    body: ClaimInviteBodyDto,
    reply: { status: 201, shape: 'FamilyClaimInvite' },
    errors: {
      400: 'Not a valid address, the dependant is too young, or turned 18 too long ago',
      403: FAMILY_TEEN_MESSAGES.notGuardian,
      404: FAMILY_MESSAGES.notYourMember,
      409: 'The dependant already has their own sign-in',
    },
  }),
  familyPreviewClaim: forward(FAMILY_TEEN_SUBJECTS.previewClaim, {
    method: 'GET', path: '/api/family/claims/{token}/', tag: 'family', auth: 'public', rateLimit: 'per-client',
    summary: 'What a claim link offers (whose record, who sent it, the address of the new account), for the claim page',
    params: { token: TOKEN },
    reply: { status: 200, shape: 'FamilyClaimPreview' },
    errors: { 404: FAMILY_TEEN_MESSAGES.claimInvalid },
  }),
  familyClaim: forward(FAMILY_TEEN_SUBJECTS.claim, {
    method: 'POST', path: '/api/family/claims/{token}/', tag: 'family', auth: 'public', rateLimit: 'per-client',
    summary: "Claim one's record: creates the account (the invited address, this password) with the record's id; then sign in",
    params: { token: TOKEN },
    body: ClaimRecordBodyDto,
    reply: { status: 201, shape: 'MessageReply' },
    errors: { 400: 'The password is too short or too long', 404: FAMILY_TEEN_MESSAGES.claimInvalid, 409: FAMILY_TEEN_MESSAGES.claimEmailTaken },
  }),
  familyAssent: ownRead(FAMILY_TEEN_SUBJECTS.assent, '/api/family/assent/', 'family',
    "Whether the signed-in teen has yet to say if their guardian(s) and caregivers keep access to their record, and who they are", 'FamilyAssent'),
  familyAnswerAssent: forward(FAMILY_TEEN_SUBJECTS.answerAssent, {
    method: 'POST', path: '/api/family/assent/', tag: 'family', auth: 'bearer', rateLimit: 'per-client',
    summary: "The teen's answer: keep_access true keeps their proxies' access until 18; false ends it at once (the guardian is told by e-mail)",
    body: AssentDto,
    reply: { status: 200, shape: 'FamilyAssent' },
    errors: { 400: FAMILY_TEEN_MESSAGES.notATeenRecord },
  }),
  documentsSetPrivate: forward(DOCUMENT_PRIVACY_SUBJECTS.setPrivate, {
    method: 'PATCH', path: '/api/documents/{documentId}/', tag: 'documents', auth: 'bearer', rateLimit: 'per-client',
    summary: 'Mark one of your documents private (hidden from the people with proxy access to your record) or not',
    description:
      'Only the person whose record it is, as themself (no X-Patient-Id). Proxies then neither list nor download it, and the summary and trends they read leave out what came only from private documents.',
    params: { documentId: DOCUMENT_ID },
    paramNames: { documentId: 'document_id' },
    body: DocumentPrivacyBodyDto,
    reply: { status: 200, shape: 'DocumentListItem' },
    errors: { 403: FAMILY_TEEN_MESSAGES.privateOwnerOnly, 404: 'No such document of yours' },
  }),
} as const;
