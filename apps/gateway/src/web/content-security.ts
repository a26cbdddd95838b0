import type { BaseConfig, StorageSettings } from '@medfolio/config';
import { blobStorageConfigFor } from '@medfolio/runtime';
import { S3BlobStorage, type BlobStorage } from '@medfolio/storage';

type Directives = Record<string, string[]>;

/**
 * The gateway's Content-Security-Policy: everything from this origin only (no inline scripts or
 * styles anywhere in the app). `downloadOrigins` are other origins the store's download links
 * point at (presigned S3 URLs, S3_DOWNLOADS=presigned): thumbnails are images from there, and
 * previews fetch documents from there, so img-src and connect-src list them.
 */
export function contentSecurityDirectives(downloadOrigins: readonly string[] = [], options: { stripe?: boolean } = {}): Directives {
  // Card payments (only with a publishable key): Stripe.js from js.stripe.com, its card fields and
  // 3-D Secure in frames from js.stripe.com and hooks.stripe.com, its calls to api.stripe.com.
  const stripe = options.stripe ? STRIPE_ORIGINS : { script: [], frame: [], connect: [] };
  return {
    defaultSrc: ["'self'"],
    scriptSrc: ["'self'", ...stripe.script],
    styleSrc: ["'self'"],
    imgSrc: ["'self'", 'data:', 'blob:', ...downloadOrigins],
    connectSrc: ["'self'", ...downloadOrigins, ...stripe.connect],
    frameAncestors: ["'none'"],
    // PDF previews: the page fetches the document and shows it from a blob: URL it made itself.
    objectSrc: ['blob:'],
    frameSrc: ["'self'", 'blob:', ...stripe.frame], // Chromium's PDF viewer frames the blob it was given
    baseUri: ["'self'"],
    formAction: ["'self'"],
  };
}

/** Stripe.js's origins (Stripe's published CSP list for Elements and 3-D Secure). */
export const STRIPE_ORIGINS = {
  script: ['https://js.stripe.com', 'https://*.js.stripe.com'],
  frame: ['https://js.stripe.com', 'https://*.js.stripe.com', 'https://hooks.stripe.com'],
  connect: ['https://api.stripe.com'],
} as const;

/**
 * The origin the store's download links point at when it is not this one: [] for links the gateway
 * serves itself (filesystem store, S3 with gateway downloads), the S3 endpoint's origin for
 * presigned URLs. Found by making a link (presigning is local: nothing is sent), so it is exactly
 * the origin browsers will be sent to, path-style or virtual-hosted.
 */
export async function downloadOrigins(storage: BlobStorage): Promise<string[]> {
  const link = await storage.createDownloadUrl('csp/origin-probe', { expiresInSeconds: 60 });
  return /^https?:\/\//i.test(link) ? [new URL(link).origin] : [];
}

/**
 * {@link downloadOrigins} from configuration: the gateway holds no storage keys (the services serve
 * their own links), and presigning is local, so placeholder credentials make the probe link. Only
 * S3_DOWNLOADS=presigned points links elsewhere; for every other store the answer is [].
 */
export async function downloadOriginsFor(config: Pick<BaseConfig, 'dataDir' | 'mode'> & StorageSettings): Promise<string[]> {
  if (!config.s3Bucket || config.s3Downloads !== 'presigned') return [];
  const { s3 } = await blobStorageConfigFor(config);
  if (!s3) return [];
  const probe = new S3BlobStorage({ ...s3, accessKeyId: 'csp-probe', secretAccessKey: 'csp-probe' });
  try {
    return await downloadOrigins(probe);
  } finally {
    probe.destroy();
  }
}
