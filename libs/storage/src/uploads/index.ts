export { fileParts, MULTIPART_MESSAGES, tooManyFiles } from './file-parts';
export type { FilePart, FilePartsLimits } from './file-parts';
export { discardRestOfBody, FORWARD_MESSAGES, forwardUpload, UPLOAD_DRAIN_LIMITS } from './forward-upload';
export type { ForwardedUpload } from './forward-upload';
