/** The filesystem store's URL signing key, or null when files live in S3 (links point at S3). */
export const STORAGE_URL_SIGNING_KEY = Symbol('STORAGE_URL_SIGNING_KEY');
