import type { PassField, PassView } from '@medfolio/contracts';

/**
 * What the pass shows, as data: the same object makes pass.json (services/pass-signer.ts), the
 * Google Wallet object (services/google-wallet.ts) and the /wallet-preview front (PassView). Brand,
 * the holder's first name only when the patient allows it, the QR of the pass's own share link, and
 * back fields saying how to revoke. Never health data: nothing here reads the summary.
 */
export const PASS_DESIGN_VERSION = 1;

export const PASS_COLORS = { background: 'rgb(15, 118, 110)', foreground: 'rgb(255, 255, 255)', label: 'rgb(204, 251, 241)' } as const;

export interface PassDesignInput {
  serialNumber: string;
  organizationName: string;
  /** The holder's first name, or null when kept off the pass. */
  holderName: string | null;
  showName: boolean;
  qrUrl: string;
  publicBaseUrl: string;
  updatedAt: Date;
}

export function passDesign(input: PassDesignInput): PassView {
  const site = input.publicBaseUrl.replace(/\/+$/, '');
  const field = (key: string, label: string, value: string): PassField => ({ key, label, value });
  return {
    serial_number: input.serialNumber,
    brand: input.organizationName,
    description: `${input.organizationName} health card`,
    holder_name: input.holderName,
    show_name: input.showName,
    qr_url: input.qrUrl,
    header_fields: [field('card', 'CARD', 'Health card')],
    primary_fields: [field('holder', input.holderName ? 'CARD HOLDER' : 'SCAN TO VIEW', input.holderName ?? 'My health summary')],
    secondary_fields: [field('use', 'SHARE', 'Show the QR code to your care team')],
    back_fields: [
      field('about', 'About this card', `Scanning the QR code opens the summary you share from ${input.organizationName}. The card itself holds no medical information.`),
      field(
        'revoke',
        'How to revoke',
        `Sign in at ${site}, open the share panel and revoke the wallet card's link. The QR code stops working at once and this card updates with a new link the next time your phone checks.`,
      ),
      field('remove', 'Remove the card', 'Delete the card from Wallet at any time; revoking its link also cuts off a copy someone else kept.'),
      field('site', 'Website', site),
    ],
    background_color: PASS_COLORS.background,
    foreground_color: PASS_COLORS.foreground,
    label_color: PASS_COLORS.label,
    updated_at: input.updatedAt.toISOString(),
  };
}
