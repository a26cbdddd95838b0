import { createHash } from 'node:crypto';
import type { PassField, PassView } from '@medfolio/contracts';
import type { SigningMaterial } from '../repositories/signing-material.repository';
import { signManifest } from './pass-signature';
import { zipFiles } from './pkpass-zip';

/** The icon and logo, drawn from one mark at each scale Wallet asks for (1x, 2x, 3x). */
const MARK = (width: number, height: number, withName: boolean) => `
<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${withName ? 160 : 29} ${withName ? 50 : 29}">
  ${
    withName
      ? `<rect x="2" y="10" width="30" height="30" rx="7" fill="#ffffff"/>
         <path d="M14 16h6v6h6v6h-6v6h-6v-6H8v-6h6z" fill="#0f766e"/>
         <text x="40" y="33" font-family="Helvetica, Arial, sans-serif" font-size="20" font-weight="700" fill="#ffffff">Medfolio</text>`
      : `<rect width="29" height="29" rx="6" fill="#0f766e"/>
         <path d="M11.5 5.5h6v6h6v6h-6v6h-6v-6h-6v-6h6z" fill="#ffffff"/>`
  }
</svg>`;

const IMAGE_SIZES = [
  ['icon', 29, 29, false],
  ['logo', 160, 50, true],
] as const;

let images: Promise<Record<string, Buffer>> | undefined;

/** icon.png, icon@2x.png, icon@3x.png, logo.png, logo@2x.png, logo@3x.png (made once per process). */
export function passImages(): Promise<Record<string, Buffer>> {
  images ??= (async () => {
    // Loaded on first use, not at start-up (the one-process mode starts every service).
    const { default: sharp } = await import('sharp');
    const files: Record<string, Buffer> = {};
    for (const [name, width, height, withName] of IMAGE_SIZES) {
      for (const scale of [1, 2, 3]) {
        const svg = Buffer.from(MARK(width * scale, height * scale, withName));
        files[`${name}${scale === 1 ? '' : `@${scale}x`}.png`] = await sharp(svg).png().toBuffer();
      }
    }
    return files;
  })();
  return images;
}

export interface SignPassInput {
  view: PassView;
  passTypeIdentifier: string;
  teamIdentifier: string;
  authenticationToken: string;
  webServiceUrl: string;
  material: SigningMaterial;
}

const toFields = (fields: PassField[]) => fields.map(({ key, label, value }) => ({ key, label, value }));

/**
 * The signed .pkpass (a zip: pass.json, the images, manifest.json with each file's SHA-1, as Apple's
 * format defines it, and the detached PKCS#7 signature of the manifest: pass-signature.ts, SHA-256
 * with DER-ordered signed attributes). Assembled here: passkit-generator, used before, signs with
 * SHA-1 in node-forge (about 100 ms of pure-JS RSA per pass) and cannot be told otherwise.
 */
export async function signPass(input: SignPassInput, signingTime = new Date()): Promise<Buffer> {
  const { view } = input;
  const generic = {
    headerFields: toFields(view.header_fields),
    primaryFields: toFields(view.primary_fields),
    secondaryFields: toFields(view.secondary_fields),
    auxiliaryFields: [],
    backFields: toFields(view.back_fields),
  };
  // Wallet refuses a pass whose field keys repeat.
  const keys = Object.values(generic).flatMap((fields: { key: string }[]) => fields.map((f) => f.key));
  const repeated = keys.find((key, index) => keys.indexOf(key) !== index);
  if (repeated) throw new Error(`pass field key "${repeated}" is used twice`);
  const passJson = {
    formatVersion: 1,
    passTypeIdentifier: input.passTypeIdentifier,
    teamIdentifier: input.teamIdentifier,
    organizationName: view.brand,
    description: view.description,
    serialNumber: view.serial_number,
    logoText: view.brand,
    backgroundColor: view.background_color,
    foregroundColor: view.foreground_color,
    labelColor: view.label_color,
    sharingProhibited: true,
    webServiceURL: input.webServiceUrl,
    authenticationToken: input.authenticationToken,
    barcodes: [{ format: 'PKBarcodeFormatQR', message: view.qr_url, messageEncoding: 'iso-8859-1', altText: 'Scan to view my summary' }],
    generic,
  };
  const files: [string, Buffer][] = [['pass.json', Buffer.from(JSON.stringify(passJson))], ...Object.entries(await passImages())];
  const manifest = Buffer.from(JSON.stringify(Object.fromEntries(files.map(([name, bytes]) => [name, createHash('sha1').update(bytes).digest('hex')]))));
  const { signerCert, signerKey, signerKeyPassphrase, wwdr } = input.material;
  const signature = signManifest({ manifest, signerCert, signerKey, wwdr, signingTime, ...(signerKeyPassphrase ? { signerKeyPassphrase } : {}) });
  return zipFiles([...files, ['manifest.json', manifest], ['signature', signature]]);
}
