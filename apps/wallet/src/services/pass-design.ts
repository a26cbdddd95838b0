import type { PassField, PassView } from '@medfolio/contracts';

/**
 * What the pass shows, as data: the same object makes pass.json (services/pass-signer.ts), the
 * Google Wallet object (services/google-wallet.ts) and the /wallet-preview front (PassView). Brand,
 * the holder's first name only when the patient allows it, the QR of the pass's own share link, and
 * back fields saying what the card does and what revoking does, and promising nothing more: the QR
 * works while its link is active; revoking it retires the card for good, and a new
 * card is issued from the dashboard. Never health data: nothing here reads the summary.
 */
export const PASS_DESIGN_VERSION = 2;

/** The label of the pass's link on the share panel (asked for with it: repositories/sharing.repository.ts). */
export const WALLET_LINK_LABEL = 'Wallet card';

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
      field(
        'about',
        'About this card',
        `Scanning the QR code opens the summary you confirmed in ${input.organizationName}, for as long as this card's link is active. The card itself holds no medical information.`,
      ),
      field(
        'revoke',
        'How to revoke',
        `Sign in at ${site}, open Share links and revoke the link named '${WALLET_LINK_LABEL}'. Its QR code stops working at once, also on any copy of this card, and this card is retired for good: it no longer updates. To carry a card again, issue a new one from your dashboard.`,
      ),
      field(
        'remove',
        'Remove the card',
        "Delete the card from Wallet at any time. Deleting it does not stop its link: anyone who kept a copy or a picture of the QR code can use it until you revoke the link.",
      ),
      field('site', 'Website', site),
    ],
    background_color: PASS_COLORS.background,
    foreground_color: PASS_COLORS.foreground,
    label_color: PASS_COLORS.label,
    updated_at: input.updatedAt.toISOString(),
  };
}
