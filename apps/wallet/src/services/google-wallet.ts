import { importPKCS8, SignJWT } from 'jose';
import type { PassView } from '@medfolio/contracts';

/** The parts of a service account's JSON key the Save link needs. */
export interface GoogleServiceAccount {
  client_email: string;
  private_key: string;
}

export function parseServiceAccount(json: string): GoogleServiceAccount {
  let parsed: Partial<GoogleServiceAccount>;
  try {
    parsed = JSON.parse(json) as Partial<GoogleServiceAccount>;
  } catch {
    throw new Error('GOOGLE_WALLET_SERVICE_ACCOUNT is not valid JSON.');
  }
  if (typeof parsed.client_email !== 'string' || typeof parsed.private_key !== 'string') {
    throw new Error('GOOGLE_WALLET_SERVICE_ACCOUNT needs client_email and private_key.');
  }
  return { client_email: parsed.client_email, private_key: parsed.private_key };
}

const localized = (value: string) => ({ defaultValue: { language: 'en-US', value } });

/** The class every pass of this issuer shares (Google's generic pass: a GenericClass with an id). */
export function genericClassId(issuerId: string): string {
  return `${issuerId}.medfolio_health_card`;
}

/**
 * A GenericObject (Google Wallet API, generic pass) from the same view the Apple pass is made from:
 * the brand, the holder's first name only when allowed, the QR of the pass's own share link, and
 * text modules saying how to revoke. Object ids are `<issuer id>.<identifier>` (letters, digits, '.', '_', '-').
 */
export function genericObject(issuerId: string, view: PassView, logoUri: string) {
  return {
    id: `${issuerId}.${view.serial_number.replace(/[^A-Za-z0-9._-]/g, '_')}`,
    classId: genericClassId(issuerId),
    state: 'ACTIVE',
    cardTitle: localized(view.brand),
    header: localized(view.holder_name ?? 'Health card'),
    subheader: localized(view.holder_name ? 'Card holder' : view.description),
    logo: { sourceUri: { uri: logoUri }, contentDescription: localized(`${view.brand} logo`) },
    hexBackgroundColor: '#0f766e',
    barcode: { type: 'QR_CODE', value: view.qr_url, alternateText: 'Scan to view my summary' },
    textModulesData: view.back_fields.map((f) => ({ id: f.key, header: f.label, body: f.value })),
  };
}

/**
 * The 'Save to Google Wallet' link: https://pay.google.com/gp/v/save/<JWT>, the JWT signed RS256
 * with the service account's key (iss = its e-mail, aud 'google', typ 'savetowallet', origins =
 * this site), carrying the class and the object.
 */
export async function googleSaveUrl(input: { issuerId: string; account: GoogleServiceAccount; view: PassView; publicBaseUrl: string }): Promise<string> {
  const site = input.publicBaseUrl.replace(/\/+$/, '');
  const key = await importPKCS8(input.account.private_key, 'RS256');
  const jwt = await new SignJWT({
    typ: 'savetowallet',
    origins: [site],
    payload: {
      genericClasses: [{ id: genericClassId(input.issuerId) }],
      genericObjects: [genericObject(input.issuerId, input.view, `${site}/wallet-logo.png`)],
    },
  })
    .setProtectedHeader({ alg: 'RS256', typ: 'JWT' })
    .setIssuer(input.account.client_email)
    .setAudience('google')
    .setIssuedAt()
    .sign(key);
  return `https://pay.google.com/gp/v/save/${jwt}`;
}
