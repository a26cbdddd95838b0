import type { Logger } from '@nestjs/common';
import { DomainError } from '@medfolio/contracts';
import type { ClamdStream } from '@medfolio/security';
import { quoted, type StreamScan } from '../content';

export const ANTIVIRUS_MESSAGES = {
  /** The signature as people know it: clamd marks those of a local database '.UNOFFICIAL'. */
  infected: (filename: string, signature: string) =>
    `${quoted(filename)} contains a virus or malware (${signature.replace(/\.UNOFFICIAL$/, '')}) and was not uploaded.`,
  unavailable: (filename: string) =>
    `${quoted(filename)} could not be checked for viruses right now, so it was not uploaded. Please try again later.`,
} as const;

/** The antivirus found malware: a 415 naming the file and the signature; audited as denied. */
export class MalwareFoundError extends DomainError {
  constructor(
    filename: string,
    readonly signature: string,
  ) {
    super('UNSUPPORTED_MEDIA_TYPE', ANTIVIRUS_MESSAGES.infected(filename, signature));
  }
}

/**
 * One file's antivirus scan, with the policy for a scanner that fails: closed (a 503, nothing kept)
 * unless CLAMD_FAIL_OPEN, when the file goes on unscanned and a warning is logged (no filename: it
 * may say something about the person's health).
 */
export class FileVirusScan implements StreamScan {
  constructor(
    private stream: ClamdStream | null,
    private readonly filename: string,
    private readonly failOpen: boolean,
    private readonly logger: Logger,
  ) {}

  async write(chunk: Buffer): Promise<void> {
    if (!this.stream || chunk.length === 0) return;
    try {
      await this.stream.write(chunk);
    } catch (error) {
      this.scannerFailed(error);
    }
  }

  async finish(): Promise<void> {
    if (!this.stream) return;
    let verdict;
    try {
      verdict = await this.stream.finish();
    } catch (error) {
      this.scannerFailed(error);
      return;
    }
    if (verdict.infected) {
      this.logger.warn({ signature: verdict.signature }, 'an upload carried malware and was refused');
      throw new MalwareFoundError(this.filename, verdict.signature);
    }
  }

  abort(): void {
    this.stream?.abort();
  }

  /** Throws the 503 (fail closed), or goes on without the scanner (fail open). */
  scannerFailed(error: unknown): void {
    this.stream?.abort();
    this.stream = null;
    if (!this.failOpen) {
      this.logger.error({ err: String(error) }, 'the antivirus scanner failed: upload refused (CLAMD_FAIL_OPEN is off)');
      throw new DomainError('UNAVAILABLE', ANTIVIRUS_MESSAGES.unavailable(this.filename));
    }
    this.logger.warn({ err: String(error) }, 'the antivirus scanner failed: upload kept unscanned (CLAMD_FAIL_OPEN)');
  }
}
