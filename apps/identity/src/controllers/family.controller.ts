import { Inject } from '@nestjs/common';
import { Payload } from '@nestjs/microservices';
import {
  AddDependantDto,
  CreateFamilyInviteDto,
  FAMILY_SERVICE_SUBJECTS,
  FAMILY_SUBJECTS,
  FamilyAccessDto,
  FamilyInviteIdDto,
  FamilyInviteTokenDto,
  FamilyNamesDto,
  RemoveFamilyMemberDto,
  UpdateFamilyMemberDto,
  type CallerIdentity,
  type FamilyAccessReply,
  type FamilyInvite,
  type FamilyInvitePreview,
  type FamilyMember,
  type FamilyNamesReply,
  type FamilyOverview,
  type FamilyRecord,
  type FamilyRemovalReply,
} from '@medfolio/contracts';
import { Caller, Handles, RpcController } from '@medfolio/messaging';
import { FamilyService } from '../family/family.service';

/** Households: dependants, caregivers, invitations; and the gateway's access check (docs/guide/family.md). */
@RpcController()
export class FamilyController {
  constructor(@Inject(FamilyService) private readonly family: FamilyService) {}

  @Handles(FAMILY_SUBJECTS.overview)
  overview(@Caller() caller: CallerIdentity): Promise<FamilyOverview> {
    return this.family.overview(caller);
  }

  @Handles(FAMILY_SUBJECTS.addDependant)
  addDependant(@Payload() dto: AddDependantDto, @Caller() caller: CallerIdentity): Promise<FamilyRecord> {
    return this.family.addDependant(caller, dto);
  }

  @Handles(FAMILY_SUBJECTS.updateMember)
  updateMember(@Payload() dto: UpdateFamilyMemberDto, @Caller() caller: CallerIdentity): Promise<FamilyMember> {
    return this.family.updateMember(caller, dto);
  }

  @Handles(FAMILY_SUBJECTS.removeMember)
  removeMember(@Payload() dto: RemoveFamilyMemberDto, @Caller() caller: CallerIdentity): Promise<FamilyRemovalReply> {
    return this.family.removeMember(caller, dto);
  }

  @Handles(FAMILY_SUBJECTS.invite)
  invite(@Payload() dto: CreateFamilyInviteDto, @Caller() caller: CallerIdentity): Promise<FamilyInvite> {
    return this.family.invite(caller, dto);
  }

  @Handles(FAMILY_SUBJECTS.withdrawInvite)
  withdrawInvite(@Payload() dto: FamilyInviteIdDto, @Caller() caller: CallerIdentity): Promise<FamilyInvite> {
    return this.family.withdrawInvite(caller, dto);
  }

  @Handles(FAMILY_SUBJECTS.previewInvite)
  previewInvite(@Payload() dto: FamilyInviteTokenDto): Promise<FamilyInvitePreview> {
    return this.family.previewInvite(dto);
  }

  @Handles(FAMILY_SUBJECTS.acceptInvite)
  acceptInvite(@Payload() dto: FamilyInviteTokenDto, @Caller() caller: CallerIdentity): Promise<FamilyRecord> {
    return this.family.acceptInvite(caller, dto);
  }

  /** The gateway, at every request that names another person's record. */
  @Handles(FAMILY_SERVICE_SUBJECTS.access)
  access(@Payload() dto: FamilyAccessDto, @Caller() caller: CallerIdentity): Promise<FamilyAccessReply> {
    return this.family.access(caller, dto);
  }

  /** audit, naming the people in a record's history. */
  @Handles(FAMILY_SERVICE_SUBJECTS.names)
  names(@Payload() dto: FamilyNamesDto): Promise<FamilyNamesReply> {
    return this.family.names(dto);
  }
}
