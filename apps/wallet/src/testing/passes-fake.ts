// An in-memory stand-in for PassesRepository (passes and device registrations), for unit tests of WalletService.
import type { DeviceRegistration, WalletPass } from '../entities';

type LinkFields = Pick<WalletPass, 'linkId' | 'linkVersion' | 'linkUrl' | 'linkState'>;

/** Rows in memory; each change takes the next update tag and a later Last-Modified, as the real one. */
export class FakePasses {
  readonly rows: WalletPass[] = [];
  readonly registrations: DeviceRegistration[] = [];
  private tag = 0;

  async byOwner(ownerId: string): Promise<WalletPass | null> {
    return this.copy(this.rows.find((p) => p.ownerId === ownerId && !p.retiredAt));
  }

  async lastRetired(ownerId: string): Promise<WalletPass | null> {
    const retired = this.rows.filter((p) => p.ownerId === ownerId && p.retiredAt).sort((a, b) => b.retiredAt!.getTime() - a.retiredAt!.getTime());
    return this.copy(retired[0]);
  }

  async bySerial(serialNumber: string): Promise<WalletPass | null> {
    return this.copy(this.rows.find((p) => p.serialNumber === serialNumber));
  }

  async createIfAbsent(pass: Pick<WalletPass, 'serialNumber' | 'ownerId' | 'authenticationToken'>): Promise<WalletPass> {
    if (!this.rows.some((p) => p.ownerId === pass.ownerId && !p.retiredAt)) {
      const now = new Date();
      this.rows.push({
        ...pass, showName: false, linkId: null, linkVersion: 0, linkUrl: null, linkState: 'none', retiredAt: null,
        updateTag: this.nextTag(), updatedAt: now, signedDigest: null, signedKey: null, createdAt: now,
      });
    }
    return (await this.byOwner(pass.ownerId))!;
  }

  async markChanged(serialNumber: string, fields: Partial<LinkFields & Pick<WalletPass, 'showName'>>): Promise<WalletPass> {
    const row = this.row(serialNumber);
    Object.assign(row, fields, { updateTag: this.nextTag(), updatedAt: new Date(row.updatedAt.getTime() + 1000) });
    return { ...row };
  }

  /** As the real statement: only the live pass carrying this link, only a newer version or a link no longer active; not active retires it. */
  async markLinkChanged(ownerId: string, linkId: string, version: number, state: string): Promise<WalletPass | null> {
    const row = this.rows.find((p) => p.ownerId === ownerId && p.linkId === linkId && !p.retiredAt && (p.linkVersion < version || state !== 'active'));
    if (!row) return null;
    Object.assign(row, {
      linkState: state, linkVersion: Math.max(row.linkVersion, version), retiredAt: state !== 'active' ? new Date() : null,
      updateTag: this.nextTag(), updatedAt: new Date(row.updatedAt.getTime() + 1000),
    });
    return { ...row };
  }

  async recordSigned(serialNumber: string, digest: string, key: string): Promise<void> {
    Object.assign(this.row(serialNumber), { signedDigest: digest, signedKey: key });
  }

  async pushTokensOf(serialNumber: string): Promise<DeviceRegistration[]> {
    return this.registrations.filter((r) => r.serialNumber === serialNumber);
  }

  async unregister(deviceLibraryIdentifier: string, serialNumber: string): Promise<void> {
    const at = this.registrations.findIndex((r) => r.deviceLibraryIdentifier === deviceLibraryIdentifier && r.serialNumber === serialNumber);
    if (at >= 0) this.registrations.splice(at, 1);
  }

  row(serialNumber: string): WalletPass {
    const row = this.rows.find((p) => p.serialNumber === serialNumber);
    if (!row) throw new Error(`no pass ${serialNumber}`);
    return row;
  }

  private nextTag(): string {
    this.tag += 1;
    return String(this.tag);
  }

  private copy(row: WalletPass | undefined): WalletPass | null {
    return row ? { ...row } : null;
  }
}
