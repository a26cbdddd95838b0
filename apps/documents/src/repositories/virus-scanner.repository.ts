import { Inject, Injectable } from '@nestjs/common';
import { ClamdStream, clamdAddress, describeClamdAddress, type ClamdAddress } from '@medfolio/security';
import { DocumentsConfig } from '../config';

/**
 * ClamAV's daemon (clamd), the only I/O of the antivirus check: one INSTREAM scan per uploaded
 * file, fed as the file streams to storage (CLAMD_URL or CLAMD_SOCKET; neither: not configured).
 * What to do when clamd fails (refuse or keep unscanned) is the upload service's decision.
 */
@Injectable()
export class VirusScannerRepository {
  private readonly address: ClamdAddress | null;

  constructor(@Inject(DocumentsConfig) private readonly config: DocumentsConfig) {
    this.address = clamdAddress(config.clamdUrl, config.clamdSocket);
  }

  get configured(): boolean {
    return this.address !== null;
  }

  /** Where clamd is, for logs. */
  get where(): string {
    return this.address ? describeClamdAddress(this.address) : 'not configured';
  }

  /** Starts a scan; rejects with ClamdUnavailableError when clamd cannot be reached. */
  open(): Promise<ClamdStream> {
    if (!this.address) throw new Error('clamd is not configured (CLAMD_URL or CLAMD_SOCKET)');
    return ClamdStream.open(this.address, { timeoutMs: this.config.clamdTimeoutMs });
  }
}
