import { IsBoolean, IsIn, IsOptional, IsString, Matches } from 'class-validator';
import { CommonConfig } from './common.config';
import { Env } from './env.decorator';

/**
 * Settings of apps that keep or serve files. S3 when S3_BUCKET is set; otherwise an encrypted
 * directory (STORAGE_DIR, default DATA_DIR/files) whose keys are generated once into DATA_DIR
 * when STORAGE_ENCRYPTION_KEYS / STORAGE_URL_SIGNING_KEY are unset (embedded mode).
 */
export class StorageAwareConfig extends CommonConfig {
  @Env('S3_ENDPOINT')
  @IsOptional()
  @Matches(/^https?:\/\/\S+$/, { message: 'must be an http(s) URL' })
  s3Endpoint?: string;

  @Env('S3_REGION')
  @IsString()
  s3Region = 'us-east-1';

  @Env('S3_BUCKET')
  @IsOptional()
  @Matches(/^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/, { message: 'must be a valid bucket name' })
  s3Bucket?: string;

  @Env('S3_ACCESS_KEY_ID', { sensitive: true })
  @IsOptional()
  @IsString()
  s3AccessKeyId?: string;

  @Env('S3_SECRET_ACCESS_KEY', { sensitive: true })
  @IsOptional()
  @IsString()
  s3SecretAccessKey?: string;

  @Env('S3_FORCE_PATH_STYLE')
  @IsBoolean({ message: 'must be true or false' })
  s3ForcePathStyle = true;

  /** Server-side encryption: AES256 (default), aws:kms, or none for servers that reject the header. */
  @Env('S3_SSE')
  @IsIn(['AES256', 'aws:kms', 'none'], { message: 'must be one of: AES256, aws:kms, none' })
  s3Sse = 'AES256';

  /**
   * Sign upload bodies with SHA-256 as well as their CRC32 checksum. Default false: parts are sent
   * as SigV4 "UNSIGNED-PAYLOAD" with the checksum the server verifies, which spares hashing every
   * byte twice; true for a server that refuses unsigned payloads.
   */
  @Env('S3_SIGN_PAYLOAD')
  @IsBoolean({ message: 'must be true or false' })
  s3SignPayload = false;

  /**
   * How an S3 store's documents are downloaded: "gateway" (default) as links the gateway signs and
   * serves from S3, same origin and with nosniff (needs STORAGE_URL_SIGNING_KEY, the same in every
   * service, in service mode); "presigned" as presigned S3 URLs (the browser then fetches from the S3
   * origin, which the gateway adds to its CSP; nosniff is not sent).
   */
  @Env('S3_DOWNLOADS')
  @IsIn(['gateway', 'presigned'], { message: 'must be one of: gateway, presigned' })
  s3Downloads = 'gateway';

  @Env('STORAGE_DIR')
  @IsOptional()
  @IsString()
  storageDir?: string;

  /** "keyId:base64,keyId2:base64": 32-byte AES keys, the first encrypts, all decrypt. */
  @Env('STORAGE_ENCRYPTION_KEYS', { sensitive: true })
  @IsOptional()
  @IsString()
  storageEncryptionKeys?: string;

  @Env('STORAGE_URL_SIGNING_KEY', { sensitive: true })
  @IsOptional()
  @Matches(/^.{32,}$/, { message: 'must be at least 32 characters' })
  storageUrlSigningKey?: string;
}

/**
 * Settings the gateway and identity share: the internal HTTP token (uploads stream between them,
 * never over NATS) and the access tokens' issuer and audience (identity signs, the gateway checks).
 */
export class InternalHttpConfig extends StorageAwareConfig {
  @Env('JWT_ISSUER')
  @IsString()
  jwtIssuer = 'medfolio-identity';

  @Env('JWT_AUDIENCE')
  @IsString()
  jwtAudience = 'medfolio-api';

  /** The shared secret on internal HTTP calls between the gateway and services. */
  @Env('INTERNAL_API_TOKEN', { sensitive: true })
  @IsOptional()
  @Matches(/^.{32,}$/, { message: 'must be at least 32 characters' })
  internalApiToken?: string;
}
