export { fileParts, MULTIPART_MESSAGES, tooManyFiles } from './file-parts';
export type { FilePart, FilePartsLimits } from './file-parts';
export { forwardDownload } from './forward-download';
export type { ForwardedDownload } from './forward-download';
export { discardRestOfBody, FORWARD_MESSAGES, forwardUpload, UPLOAD_DRAIN_LIMITS } from './forward-upload';
export type { ForwardedUpload } from './forward-upload';
export { INTERNAL_FILES_PATH, openSignedDownload } from './signed-download';
export type { OpenSignedDownloadOptions, SignedDownload } from './signed-download';
