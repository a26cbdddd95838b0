import { IsOptional, Matches } from 'class-validator';
import { CommonConfig, Env } from '@medfolio/config';

export class AuditConfig extends CommonConfig {
  /**
   * The Postgres role the service writes the log with (granted INSERT and SELECT only, by the
   * migration). Unset: the connecting user; the table's triggers still refuse UPDATE and DELETE.
   */
  @Env('AUDIT_DB_ROLE')
  @IsOptional()
  @Matches(/^[a-z_][a-z0-9_]{0,62}$/, { message: 'must be a plain Postgres role name' })
  dbRole?: string;
}
