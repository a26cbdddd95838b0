import { Inject } from '@nestjs/common';
import { Payload } from '@nestjs/microservices';
import {
  AssentDto,
  ClaimInviteDto,
  ClaimRecordDto,
  FAMILY_TEEN_SUBJECTS,
  FamilyClaimTokenDto,
  type CallerIdentity,
  type FamilyAssent,
  type FamilyClaimInvite,
  type FamilyClaimPreview,
  type MessageReply,
} from '@medfolio/contracts';
import { Caller, Handles, RpcController } from '@medfolio/messaging';
import { FamilyClaimsService } from '../family/family-claims.service';

/** A dependant's own sign-in (claim links, the claim) and a teen's assent (docs/guide/family.md). */
@RpcController()
export class FamilyClaimsController {
  constructor(@Inject(FamilyClaimsService) private readonly claims: FamilyClaimsService) {}

  @Handles(FAMILY_TEEN_SUBJECTS.claimInvite)
  invite(@Payload() dto: ClaimInviteDto, @Caller() caller: CallerIdentity): Promise<FamilyClaimInvite> {
    return this.claims.invite(caller, dto);
  }

  @Handles(FAMILY_TEEN_SUBJECTS.previewClaim)
  preview(@Payload() dto: FamilyClaimTokenDto): Promise<FamilyClaimPreview> {
    return this.claims.preview(dto);
  }

  @Handles(FAMILY_TEEN_SUBJECTS.claim)
  claim(@Payload() dto: ClaimRecordDto, @Caller() caller: CallerIdentity): Promise<MessageReply> {
    return this.claims.claim(caller, dto);
  }

  @Handles(FAMILY_TEEN_SUBJECTS.assent)
  assent(@Caller() caller: CallerIdentity): Promise<FamilyAssent> {
    return this.claims.assent(caller);
  }

  @Handles(FAMILY_TEEN_SUBJECTS.answerAssent)
  answer(@Payload() dto: AssentDto, @Caller() caller: CallerIdentity): Promise<FamilyAssent> {
    return this.claims.answer(caller, dto);
  }
}
