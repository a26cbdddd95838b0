import type {
  AddDependantDto,
  CreateFamilyInviteDto,
  FamilyInvite,
  FamilyInvitePreview,
  FamilyMember,
  FamilyOverview,
  FamilyRecord,
  UpdateFamilyMemberBodyDto,
} from '@medfolio/contracts';
import { api } from './api';

/*
 * Family and caregivers (issue 30): the records the user may open (the header's "Viewing" menu),
 * and on /family the people around them. Until the generated client has the family routes, the
 * endpoints are declared here with the generated names and arguments.
 * TEMPORARY: replaced by the generated endpoints (familyOverview, ...) once they land.
 */

export type { FamilyInvite, FamilyInvitePreview, FamilyMember, FamilyOverview, FamilyRecord };

const familyApi = api.enhanceEndpoints({ addTagTypes: ['family'] }).injectEndpoints({
  endpoints: (build) => ({
    familyOverview: build.query<FamilyOverview, void>({ query: () => ({ url: '/api/family/members/' }), providesTags: ['family'] }),
    familyAddDependant: build.mutation<FamilyRecord, { body: AddDependantDto }>({
      query: (arg) => ({ url: '/api/family/members/', method: 'POST', body: arg.body }),
      invalidatesTags: ['family', 'history'],
    }),
    familyUpdateMember: build.mutation<FamilyMember, { memberId: string; body: UpdateFamilyMemberBodyDto }>({
      query: (arg) => ({ url: `/api/family/members/${encodeURIComponent(arg.memberId)}/`, method: 'PATCH', body: arg.body }),
      invalidatesTags: ['family', 'history'],
    }),
    familyRemoveMember: build.mutation<{ message: string }, { memberId: string }>({
      query: (arg) => ({ url: `/api/family/members/${encodeURIComponent(arg.memberId)}/`, method: 'DELETE' }),
      invalidatesTags: ['family', 'history'],
    }),
    familyInvite: build.mutation<FamilyInvite, { body: CreateFamilyInviteDto }>({
      query: (arg) => ({ url: '/api/family/invites/', method: 'POST', body: arg.body }),
      invalidatesTags: ['family', 'history'],
    }),
    familyWithdrawInvite: build.mutation<FamilyInvite, { inviteId: string }>({
      query: (arg) => ({ url: `/api/family/invites/${encodeURIComponent(arg.inviteId)}/`, method: 'DELETE' }),
      invalidatesTags: ['family', 'history'],
    }),
    familyPreviewInvite: build.query<FamilyInvitePreview, { token: string }>({
      query: (arg) => ({ url: `/api/family/invites/${encodeURIComponent(arg.token)}/` }),
      keepUnusedDataFor: 0,
    }),
    familyAcceptInvite: build.mutation<FamilyRecord, { token: string }>({
      query: (arg) => ({ url: `/api/family/invites/${encodeURIComponent(arg.token)}/accept/`, method: 'POST' }),
      invalidatesTags: ['family', 'history'],
    }),
  }),
});

export const familyUtil = familyApi.util;

export const {
  useFamilyOverviewQuery,
  useFamilyAddDependantMutation,
  useFamilyUpdateMemberMutation,
  useFamilyRemoveMemberMutation,
  useFamilyInviteMutation,
  useFamilyWithdrawInviteMutation,
  useFamilyPreviewInviteQuery,
  useFamilyAcceptInviteMutation,
} = familyApi;
