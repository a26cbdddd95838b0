import { Transform } from 'class-transformer';
import { IsNotEmpty, IsString, MaxLength } from 'class-validator';
import type { NoPayload, RpcShape } from './rpc-map';

/** The summary service's calls. Request/reply subjects: `summary.<entity>.<verb>`; events: `summary.<entity>.<past-verb>.v1`. */
export const SUMMARY_SUBJECTS = {
  /** Request/reply: CreateSummaryItemDto, reply SummaryItemView. */
  createItem: 'summary.item.create',
  /** Request/reply: no payload, reply SummaryItemView[] (the caller's, newest first). */
  listItems: 'summary.item.list',
} as const;

const trim = ({ value }: { value: unknown }) => (typeof value === 'string' ? value.trim() : value);

export class CreateSummaryItemDto {
  @MaxLength(200, { message: 'Limit exceeded' })
  @IsNotEmpty({ message: 'Label is required' })
  @IsString({ message: 'Label is required' })
  @Transform(trim)
  label!: string;
}

export interface SummaryItemView {
  id: string;
  label: string;
  /** ISO 8601. */
  created_at: string;
}

/** This service's part of the request/reply map (libs/contracts rpc-map.ts `RpcMap` extends it). */
export interface SummaryRpc {
  [SUMMARY_SUBJECTS.createItem]: RpcShape<CreateSummaryItemDto, SummaryItemView>;
  [SUMMARY_SUBJECTS.listItems]: RpcShape<NoPayload, SummaryItemView[]>;
}
