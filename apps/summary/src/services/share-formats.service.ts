import { Inject, Injectable } from '@nestjs/common';
import {
  checkShlFileToken,
  encryptShlFile,
  type IpsPatient,
  safeEqual,
  shlFileToken,
  shlManifestTag,
  SHL_FHIR_CONTENT_TYPE,
  SHL_LOCATION_TTL_SECONDS,
  summaryPdfFilename,
  summaryToIpsBundle,
  summaryToPdf,
} from '@medfolio/clinical';
import {
  DomainError,
  SHARING_MESSAGES,
  type CallerIdentity,
  type FhirBundle,
  type ShlFileDto,
  type ShlFileReply,
  type ShlManifestDto,
  type ShlManifestReply,
  type SummaryItem,
  type SummaryPdfQueryDto,
  type SummaryPdfReply,
  type SummaryQueryDto,
} from '@medfolio/contracts';
import { SummaryConfig } from '../config';
import type { ShareLink } from '../entities';
import { ShareLinksRepository } from '../repositories/share-links.repository';
import { shareHash } from './share-link-keys';
import { SharingService } from './sharing.service';
import { qrTextOf, SHL_FILE_PATH } from './shl-links';
import { SummaryAudit } from './summary-audit';
import { SummaryService } from './summary.service';
import { TrendsService } from './trends.service';

const notValid = (): DomainError => new DomainError('NOT_FOUND', SHARING_MESSAGES.notValid);

/**
 * The IPS Patient of a summary: its name and birth date when the read names the patient
 * (`item.patient`), marked anonymous when the link hides them, and the Medfolio id only for the
 * owner's and a provider's own copies (never in a share).
 */
export function ipsPatient(item: Pick<SummaryItem, 'patient' | 'shared'>, id: string | null): IpsPatient {
  const patient = item.patient;
  // A link made anonymous says so in the Bundle (the IPS's anonymous name, birth date masked).
  if (item.shared?.show_patient_identity === false) return { id: null, anonymous: true };
  return { id, given: patient?.given || null, family: patient?.family || null, birthDate: patient?.birth_date ?? null };
}

/** What a format is made from: the summary, whose it is (owner only), and the link it was read through. */
interface Read {
  item: SummaryItem;
  ownerId: string | null;
  qr: { text: string; label: string; expiresAt: Date | null } | null;
}

/**
 * The summary in other formats: the FHIR IPS Bundle, the printable PDF, and SMART Health
 * Links' manifest and file. Access is the summary's own: the owner's id gives the owner their latest
 * summary (SummaryService.get); a share id gives the shared, confirmed summary (SharingService.view:
 * passcode respected, audited, counted as a view). SHL manifests check the passcode themselves
 * (attempts limited per link, as unlock does) since SHL clients send it in the request. Whatever
 * hands the summary out counts one view: the page, FHIR, PDF, a manifest with the file embedded,
 * each fetch of a file location.
 */
@Injectable()
export class ShareFormatsService {
  constructor(
    @Inject(SummaryService) private readonly summaries: SummaryService,
    @Inject(SharingService) private readonly sharing: SharingService,
    @Inject(ShareLinksRepository) private readonly links: ShareLinksRepository,
    @Inject(SummaryAudit) private readonly audit: SummaryAudit,
    @Inject(SummaryConfig) private readonly config: SummaryConfig,
    @Inject(TrendsService) private readonly trends: TrendsService,
  ) {}

  async fhir(caller: CallerIdentity, query: SummaryQueryDto): Promise<FhirBundle> {
    const { item, ownerId } = await this.read(caller, query, false);
    // The owner's own IPS carries the latest value of every series in Results (Vital signs for
    // vitals); a share carries those of the trends the link shares (already on the item).
    if (ownerId) {
      const series = await this.trends.seriesFor(caller, ownerId);
      if (series.length) item.trends = series;
    }
    return this.bundle(item, ownerId) as FhirBundle;
  }

  async pdf(caller: CallerIdentity, query: SummaryPdfQueryDto): Promise<SummaryPdfReply> {
    const { item, qr } = await this.read(caller, query, true);
    const size = query.size ?? 'a4';
    const now = new Date();
    const pdf = await summaryToPdf(item, {
      size,
      qrText: qr?.text ?? null,
      link: qr ? { label: qr.label, expiresAt: qr.expiresAt } : null,
      // Whose it is, unless the link hides it (then `patient` is null).
      patientName: item.patient?.name || null,
      patientBirthDate: item.patient?.birth_date ?? null,
      now,
    });
    return { filename: summaryPdfFilename(size, now), content_base64: pdf.toString('base64') };
  }

  /**
   * POST to an SHL's manifest URL: the link must be usable and an SHL, with the URL's tag made with
   * its key; a passcode link takes the passcode (a wrong one: 401 with the attempts left; at the
   * limit the link locks and answers 404). The IPS Bundle comes embedded, or at a short-lived
   * location when it is longer than the receiver's embeddedLengthMax.
   */
  async manifest(caller: CallerIdentity, dto: ShlManifestDto): Promise<ShlManifestReply> {
    const shl = await this.shlLink(caller, dto.user, dto.tag);
    let viewToken: string | undefined;
    if (shl.passcodeHash) {
      // The same per-link attempt counter as the page's passcode form (a missing passcode is a wrong one).
      viewToken = (await this.sharing.unlock(caller, { user: dto.user, passcode: dto.passcode ?? '' })).view_token;
    }
    const link = await this.sharing.opened(caller, { user: dto.user, view_token: viewToken });
    if (!link.shlKey || link.shlKey !== shl.shlKey) throw notValid();
    const item = await this.sharing.sharedItem(link, caller);
    const jwe = await encryptShlFile(JSON.stringify(this.bundle(item, null)), link.shlKey, SHL_FHIR_CONTENT_TYPE);
    const file: ShlManifestReply['files'][number] = {
      contentType: SHL_FHIR_CONTENT_TYPE,
      lastUpdated: item.updated_at,
    };
    if (dto.embeddedLengthMax === undefined || jwe.length <= dto.embeddedLengthMax) {
      // The summary is handed out here: a view. (A location is counted when it is fetched.)
      await this.sharing.recordView(caller, link);
      file.embedded = jwe;
    } else {
      const expires = Math.floor(Date.now() / 1000) + SHL_LOCATION_TTL_SECONDS;
      const query = new URLSearchParams({
        user: dto.user,
        tag: dto.tag,
        token: shlFileToken(link.shlKey, this.fileBinding(dto.user, link), expires),
      });
      file.location = `${this.config.publicBaseUrl.replace(/\/$/, '')}${SHL_FILE_PATH}?${query.toString()}`;
    }
    return { status: 'can-change', files: [file] };
  }

  /**
   * GET of a manifest's file location: valid at most SHL_LOCATION_TTL_SECONDS ahead (a token made to
   * last longer is refused, whoever made it: the token's key is the SHL key its holder has), and only
   * while the link and its passcode stay as they were. Each fetch is a view, as the page's are.
   */
  async file(caller: CallerIdentity, dto: ShlFileDto): Promise<ShlFileReply> {
    const link = await this.shlLink(caller, dto.user, dto.tag);
    if (!link.shlKey || !checkShlFileToken(link.shlKey, this.fileBinding(dto.user, link), dto.token)) {
      await this.audit.recordShareQuietly(caller, 'summary.shared-view', 'denied', link);
      throw notValid();
    }
    const [item] = await Promise.all([this.sharing.sharedItem(link, caller), this.sharing.recordView(caller, link)]);
    return { jwe: await encryptShlFile(JSON.stringify(this.bundle(item, null)), link.shlKey, SHL_FHIR_CONTENT_TYPE) };
  }

  private bundle(item: SummaryItem, ownerId: string | null): ReturnType<typeof summaryToIpsBundle> {
    const base = this.config.publicBaseUrl.replace(/\/$/, '');
    return summaryToIpsBundle(item, ipsPatient(item, ownerId), { identifierSystem: `${base}/patients` });
  }

  /** A usable link that is an SHL whose manifest tag matches; anything else is the same 404. */
  private async shlLink(caller: CallerIdentity, shareId: string, tag: string): Promise<ShareLink> {
    const link = await this.sharing.usable(shareId);
    if (!link?.shlKey || !safeEqual(shlManifestTag(link.shlKey, shareId), tag)) {
      if (link) await this.audit.recordShareQuietly(caller, 'summary.shared-view', 'denied', link);
      throw notValid();
    }
    return link;
  }

  /** File tokens stop working when the passcode changes. */
  private fileBinding(shareId: string, link: ShareLink): string {
    return `${shareId}:${link.passcodeHash ?? ''}`;
  }

  /** The summary as the caller may read it, and for the PDF the link whose QR it carries. */
  private async read(caller: CallerIdentity, query: SummaryQueryDto, withLink: boolean): Promise<Read> {
    if (caller.userId && caller.userId === query.user) {
      const [item] = await this.summaries.get(caller, query);
      if (!item) throw notValid();
      if (!withLink) return { item, ownerId: caller.userId, qr: null };
      // The owner prints with their default link's QR (made on first use, as the dashboard does).
      const link = await this.sharing.ensure(caller, { purpose: 'default' });
      return {
        item,
        ownerId: caller.userId,
        qr: { text: link.qr_text, label: link.label, expiresAt: link.expires_at ? new Date(link.expires_at) : null },
      };
    }
    const [item] = await this.sharing.view(caller, query);
    if (!item) throw notValid();
    if (!withLink) return { item, ownerId: null, qr: null };
    const link = await this.links.byHash(shareHash(query.user));
    if (!link) throw notValid();
    return {
      item,
      ownerId: null,
      qr: { text: qrTextOf(link, query.user, this.config.publicBaseUrl), label: link.label, expiresAt: link.expiresAt },
    };
  }
}
