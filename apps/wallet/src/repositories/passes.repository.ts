import { Inject, Injectable } from '@nestjs/common';
import { DataSource, IsNull, Not } from 'typeorm';
import { DeviceRegistration, WalletPass } from '../entities';

/**
 * The new Last-Modified of a changed pass. HTTP dates have whole seconds, so a pass changed in the
 * same second a device last fetched it would still compare "not modified" and the device would keep
 * the old pass (a revoked link on the phone). The new time is therefore at least one whole second
 * after the previous one: now(), or the previous second + 1 s when now() is still inside it.
 */
const NEXT_LAST_MODIFIED = `GREATEST(now(), date_trunc('second', updated_at) + interval '1 second')`;

type LinkFields = Pick<WalletPass, 'linkId' | 'linkVersion' | 'linkUrl' | 'linkState'>;

/** The only database I/O of the service: passes and device registrations. */
@Injectable()
export class PassesRepository {
  constructor(@Inject(DataSource) private readonly dataSource: DataSource) {}

  private get schema(): string {
    return (this.dataSource.options as { schema?: string }).schema ?? 'wallet';
  }

  /** The owner's live pass (not retired), if any. */
  byOwner(ownerId: string): Promise<WalletPass | null> {
    return this.dataSource.getRepository(WalletPass).findOneBy({ ownerId, retiredAt: IsNull() });
  }

  /** The owner's most recently retired pass, if any. */
  lastRetired(ownerId: string): Promise<WalletPass | null> {
    return this.dataSource.getRepository(WalletPass).findOne({ where: { ownerId, retiredAt: Not(IsNull()) }, order: { retiredAt: 'DESC' } });
  }

  bySerial(serialNumber: string): Promise<WalletPass | null> {
    return this.dataSource.getRepository(WalletPass).findOneBy({ serialNumber });
  }

  /** The owner's live pass, made now if there is none (two first calls at once make one). */
  async createIfAbsent(pass: Pick<WalletPass, 'serialNumber' | 'ownerId' | 'authenticationToken'>): Promise<WalletPass> {
    await this.dataSource.query(
      `INSERT INTO "${this.schema}".passes (serial_number, owner_id, authentication_token, update_tag, updated_at, created_at)
       VALUES ($1, $2, $3, nextval('"${this.schema}".pass_update_tags'), now(), now())
       ON CONFLICT (owner_id) WHERE retired_at IS NULL DO NOTHING`,
      [pass.serialNumber, pass.ownerId, pass.authenticationToken],
    );
    return (await this.byOwner(pass.ownerId))!;
  }

  /** Records a change of what the pass shows: a new update tag and Last-Modified. */
  async markChanged(serialNumber: string, fields: Partial<LinkFields & Pick<WalletPass, 'showName'>>): Promise<WalletPass> {
    const sets: string[] = [`update_tag = nextval('"${this.schema}".pass_update_tags')`, `updated_at = ${NEXT_LAST_MODIFIED}`];
    const params: unknown[] = [serialNumber];
    const columns: Record<string, string> = { linkId: 'link_id', linkVersion: 'link_version', linkUrl: 'link_url', linkState: 'link_state', showName: 'show_name' };
    for (const [name, value] of Object.entries(fields)) {
      params.push(value);
      sets.push(`${columns[name]} = $${params.length}`);
    }
    await this.dataSource.query(`UPDATE "${this.schema}".passes SET ${sets.join(', ')} WHERE serial_number = $1`, params);
    return (await this.bySerial(serialNumber))!;
  }

  /**
   * The change event for the pass's link: marks the live pass changed only if the event names the link
   * it carries and is newer; a link no longer active (revoked, replaced, expired) retires the pass.
   */
  async markLinkChanged(ownerId: string, linkId: string, version: number, state: string): Promise<WalletPass | null> {
    const rows: Array<{ serial_number: string }> = await this.dataSource.query(
      `UPDATE "${this.schema}".passes
          SET link_state = $4, link_version = GREATEST(link_version, $3),
              retired_at = CASE WHEN $4 <> 'active' THEN now() ELSE retired_at END,
              update_tag = nextval('"${this.schema}".pass_update_tags'), updated_at = ${NEXT_LAST_MODIFIED}
        WHERE owner_id = $1 AND link_id = $2 AND retired_at IS NULL AND (link_version < $3 OR $4 <> 'active')
        RETURNING serial_number`,
      [ownerId, linkId, version, state],
    );
    const first = Array.isArray(rows[0]) ? (rows[0] as Array<{ serial_number: string }>)[0] : rows[0];
    return first ? this.bySerial(first.serial_number) : null;
  }

  async recordSigned(serialNumber: string, digest: string, key: string): Promise<void> {
    await this.dataSource.getRepository(WalletPass).update({ serialNumber }, { signedDigest: digest, signedKey: key });
  }

  /** true: newly registered; false: it already was (the push token is refreshed). */
  async register(deviceLibraryIdentifier: string, serialNumber: string, pushToken: string): Promise<boolean> {
    const rows: Array<{ inserted: boolean }> = await this.dataSource.query(
      `INSERT INTO "${this.schema}".registrations (device_library_identifier, serial_number, push_token, created_at)
       VALUES ($1, $2, $3, now())
       ON CONFLICT (device_library_identifier, serial_number) DO UPDATE SET push_token = EXCLUDED.push_token
       RETURNING (xmax = 0) AS inserted`,
      [deviceLibraryIdentifier, serialNumber, pushToken],
    );
    return rows[0]?.inserted === true;
  }

  async unregister(deviceLibraryIdentifier: string, serialNumber: string): Promise<void> {
    await this.dataSource.getRepository(DeviceRegistration).delete({ deviceLibraryIdentifier, serialNumber });
  }

  /** Every pass of the owner's, live and retired (an erasure). */
  passesOf(ownerId: string): Promise<WalletPass[]> {
    return this.dataSource.getRepository(WalletPass).findBy({ ownerId });
  }

  /**
   * An erased record's passes, as a revoked link retires a pass (devices are then told, and the pass
   * answers 401 when they ask), with nothing left to show: no link, no name, no signed pass.
   */
  async retireErased(ownerId: string): Promise<void> {
    await this.dataSource.query(
      `UPDATE "${this.schema}".passes
          SET link_state = 'erased', link_url = NULL, show_name = false, signed_digest = NULL, signed_key = NULL,
              retired_at = COALESCE(retired_at, now()),
              update_tag = nextval('"${this.schema}".pass_update_tags'), updated_at = ${NEXT_LAST_MODIFIED}
        WHERE owner_id = $1 AND link_state <> 'erased'`,
      [ownerId],
    );
  }

  /** Deletes every pass of the owner's, with its device registrations (ON DELETE CASCADE); how many. */
  async deleteAllOf(ownerId: string): Promise<number> {
    return (await this.dataSource.getRepository(WalletPass).delete({ ownerId })).affected ?? 0;
  }

  /** The serial numbers a device registered whose tag is above `since` (all when absent), and the highest tag. */
  async updatedFor(deviceLibraryIdentifier: string, since: string | undefined): Promise<{ serials: string[]; lastTag: string | null }> {
    const rows: Array<{ serial_number: string; update_tag: string }> = await this.dataSource.query(
      `SELECT p.serial_number, p.update_tag::text AS update_tag
         FROM "${this.schema}".registrations r JOIN "${this.schema}".passes p ON p.serial_number = r.serial_number
        WHERE r.device_library_identifier = $1 AND ($2::bigint IS NULL OR p.update_tag > $2::bigint)
        ORDER BY p.update_tag`,
      [deviceLibraryIdentifier, since ?? null],
    );
    return { serials: rows.map((r) => r.serial_number), lastTag: rows.at(-1)?.update_tag ?? null };
  }

  pushTokensOf(serialNumber: string): Promise<DeviceRegistration[]> {
    return this.dataSource.getRepository(DeviceRegistration).findBy({ serialNumber });
  }
}
