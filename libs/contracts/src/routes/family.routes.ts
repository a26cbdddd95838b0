import {
  AddDependantDto,
  CreateFamilyInviteDto,
  FAMILY_MESSAGES,
  FAMILY_SUBJECTS,
  RemoveFamilyMemberBodyDto,
  UpdateFamilyMemberBodyDto,
} from '../family';
import { forward, ownRead } from './route';

const MEMBER_ID = { description: "A member id from GET /api/family/members/ (a dependant's patient id, or a caregiver's grant id)", format: 'uuid', notFound: FAMILY_MESSAGES.notYourMember } as const;
const INVITE_ID = { description: 'An invitation id from GET /api/family/members/', format: 'uuid', notFound: FAMILY_MESSAGES.notYourInvite } as const;
const TOKEN = { description: "The invitation link's secret (the last part of /family/invite/{token})" } as const;

/** Family and caregivers: dependants, caregivers' access to a record, invitations (docs/guide/family.md). */
export const FAMILY_ROUTES = {
  familyOverview: ownRead(FAMILY_SUBJECTS.overview, '/api/family/members/', 'family',
    'The records the caller may open (their own, their dependants, those shared with them), the people around the records they administer, and pending invitations', 'FamilyOverview'),
  familyAddDependant: forward(FAMILY_SUBJECTS.addDependant, {
    method: 'POST', path: '/api/family/members/', tag: 'family', auth: 'bearer', rateLimit: 'per-client',
    summary: 'Add a family member without a sign-in of their own (a child under 18): a separate record the caller manages as guardian',
    description: 'Needs the Family plan. The new record is acted on with the X-Patient-Id header set to its patient_id.',
    body: AddDependantDto,
    reply: { status: 201, shape: 'FamilyRecord' },
    errors: {
      400: 'A name is missing, or the date of birth is not a real date, in the future, or 18 or more years ago',
      402: FAMILY_MESSAGES.familyPlanNeeded,
    },
  }),
  familyUpdateMember: forward(FAMILY_SUBJECTS.updateMember, {
    method: 'PATCH', path: '/api/family/members/{memberId}/', tag: 'family', auth: 'bearer', rateLimit: 'per-client',
    summary: "Change a caregiver's role (view or manage) or renew their access for another period; effective at the next request",
    params: { memberId: MEMBER_ID },
    paramNames: { memberId: 'member_id' },
    body: UpdateFamilyMemberBodyDto,
    reply: { status: 200, shape: 'FamilyMember' },
    errors: {
      400: 'Neither role nor renew, a guardian, or a renewal the age rules do not allow',
      403: FAMILY_MESSAGES.notAdmin,
      404: FAMILY_MESSAGES.notYourMember,
    },
  }),
  familyRemoveMember: forward(FAMILY_SUBJECTS.removeMember, {
    method: 'DELETE', path: '/api/family/members/{memberId}/', tag: 'family', auth: 'bearer', rateLimit: 'per-client',
    summary: "Revoke a caregiver's access at once, or (the guardian only) remove a dependant and erase their record",
    description:
      "A caregiver's grant: revoked at once (200; a caregiver may also remove their own access). A dependant: only their guardian, with `confirm_name` " +
      "(the first name, compared ignoring case and spaces); the record stops being listed and every grant and invitation on it ends at once, " +
      "and each service deletes its data on the event identity.user.record-erased.v1 (202). The access history is kept but can no longer be read.",
    params: { memberId: MEMBER_ID },
    paramNames: { memberId: 'member_id' },
    body: RemoveFamilyMemberBodyDto,
    bodyOptional: true,
    reply: { status: 200, shape: 'FamilyRemovalReply', description: "A caregiver's access was revoked", accepted: "A dependant was removed and their record is being erased" },
    errors: { 400: 'A dependant without confirm_name, or with a name that does not match', 403: FAMILY_MESSAGES.notAdmin, 404: FAMILY_MESSAGES.notYourMember },
  }),
  familyInvite: forward(FAMILY_SUBJECTS.invite, {
    method: 'POST', path: '/api/family/invites/', tag: 'family', auth: 'bearer', rateLimit: 'mail',
    summary: 'Invite someone by e-mail to a record the caller administers, as a caregiver with role view or manage',
    description: 'The e-mail carries a link to /family/invite/{token}, valid FAMILY_INVITE_DAYS (7 by default). The token is kept only as its hash.',
    body: CreateFamilyInviteDto,
    reply: { status: 201, shape: 'FamilyInvite' },
    errors: { 400: 'A field is not valid, or the address is your own', 403: FAMILY_MESSAGES.notAdmin, 409: 'This address already has a pending invitation to this record' },
  }),
  familyWithdrawInvite: forward(FAMILY_SUBJECTS.withdrawInvite, {
    method: 'DELETE', path: '/api/family/invites/{inviteId}/', tag: 'family', auth: 'bearer', rateLimit: 'per-client',
    summary: 'Withdraw a pending invitation: its link stops working at once',
    params: { inviteId: INVITE_ID },
    paramNames: { inviteId: 'invite_id' },
    reply: { status: 200, shape: 'FamilyInvite' },
    errors: { 404: FAMILY_MESSAGES.notYourInvite },
  }),
  familyPreviewInvite: forward(FAMILY_SUBJECTS.previewInvite, {
    method: 'GET', path: '/api/family/invites/{token}/accept/', tag: 'family', auth: 'public', rateLimit: 'per-client',
    summary: "What an invitation link offers (who invites, to whose record, which role, until when), for the invitation page",
    params: { token: TOKEN },
    reply: { status: 200, shape: 'FamilyInvitePreview' },
    errors: { 404: FAMILY_MESSAGES.inviteInvalid },
  }),
  familyAcceptInvite: forward(FAMILY_SUBJECTS.acceptInvite, {
    method: 'POST', path: '/api/family/invites/{token}/accept/', tag: 'family', auth: 'bearer', rateLimit: 'per-client',
    summary: 'Accept an invitation as the signed-in account: the record joins the records the caller may open',
    description: 'The signed-in address need not be the invited one: the link is the secret (see docs/guide/family.md). The record owner sees who accepted.',
    params: { token: TOKEN },
    reply: { status: 200, shape: 'FamilyRecord' },
    errors: { 400: FAMILY_MESSAGES.inviteSelf, 404: FAMILY_MESSAGES.inviteInvalid, 409: FAMILY_MESSAGES.alreadyHasAccess },
  }),
} as const;
