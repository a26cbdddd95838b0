export { detectImageType } from './image-signature';
export type { ImageType } from './image-signature';
export {
  DEFAULT_MAX_INPUT_PIXELS,
  NOT_AN_IMAGE_MESSAGE,
  PROFILE_PICTURE_SIZE,
  ProfilePictureProcessor,
} from './profile-picture-processor';
export type {
  ProcessedProfilePicture,
  ProfilePictureLimits,
  ProfilePictureProcessorOptions,
} from './profile-picture-processor';
export { isProfilePictureKey, PROFILE_PICTURE_KEY_PREFIX } from './profile-picture-key';
export { PICTURE_UPLOAD_MESSAGES, readPictureUpload } from './picture-upload';
export { formatMegabytes, readAtMost } from './read-bounded';
