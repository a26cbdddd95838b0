import type { FamilyAssent, FamilyClaimPreview, FamilyInvite, FamilyInvitePreview, FamilyMember, FamilyOverview, FamilyRecord } from '@medfolio/contracts';
import { api } from './api';

/*
 * Family and caregivers (issue 30) on the generated endpoints: the records the user may open (the
 * header's "Viewing" menu) and, on /family, the people around them. Every change is in the
 * record's access history; an invitation's preview is read once, when its page opens.
 */

export type { FamilyAssent, FamilyClaimPreview, FamilyInvite, FamilyInvitePreview, FamilyMember, FamilyOverview, FamilyRecord };

const familyApi = api.enhanceEndpoints({
  endpoints: {
    familyOverview: { providesTags: ['family'] },
    familyAddDependant: { invalidatesTags: ['family', 'history'] },
    familyUpdateMember: { invalidatesTags: ['family', 'history'] },
    familyRemoveMember: { invalidatesTags: ['family', 'history'] },
    familyInvite: { invalidatesTags: ['family', 'history'] },
    familyWithdrawInvite: { invalidatesTags: ['family', 'history'] },
    familyPreviewInvite: { providesTags: [], keepUnusedDataFor: 0 },
    familyAcceptInvite: { invalidatesTags: ['family', 'history'] },
    familyClaimInvite: { invalidatesTags: ['family', 'history'] },
    familyPreviewClaim: { providesTags: [], keepUnusedDataFor: 0 },
    familyClaim: { invalidatesTags: [] },
    familyAssent: { providesTags: ['family'], keepUnusedDataFor: 0 },
    familyAnswerAssent: { invalidatesTags: ['family', 'history'] },
    documentsSetPrivate: { invalidatesTags: ['documents', 'history'] },
  },
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
  useFamilyClaimInviteMutation,
  useFamilyPreviewClaimQuery,
  useFamilyClaimMutation,
  useFamilyAssentQuery,
  useFamilyAnswerAssentMutation,
  useDocumentsSetPrivateMutation,
} = familyApi;
