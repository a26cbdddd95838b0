/** The key of the download links the gateway serves (filesystem store, or S3 with S3_DOWNLOADS=gateway); null when links point at S3 itself. */
export const STORAGE_URL_SIGNING_KEY = Symbol('STORAGE_URL_SIGNING_KEY');
