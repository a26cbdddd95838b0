import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { FilesystemBlobStorage, S3BlobStorage } from '@medfolio/storage';
import { loadConfig } from '@medfolio/config';
import { GatewayConfig } from '../config';
import { contentSecurityDirectives, downloadOrigins, downloadOriginsFor } from './content-security';

const urlSigningKey = 'a-url-signing-key-of-at-least-32-characters';
const s3 = {
  endpoint: 'https://s3.files.example.com:9000',
  region: 'eu-central-1',
  bucket: 'records',
  accessKeyId: 'AKIDEXAMPLE',
  secretAccessKey: 'wJalrXUtnFEMI/K7MDENG+bPxRfiCYEXAMPLEKEY',
  forcePathStyle: true,
};

describe('the download origins in the Content-Security-Policy', () => {
  it('lists the S3 origin for presigned downloads, in images and fetches only', async () => {
    const storage = new S3BlobStorage(s3);
    const origins = await downloadOrigins(storage);
    storage.destroy();
    expect(origins).toEqual(['https://s3.files.example.com:9000']);
    const directives = contentSecurityDirectives(origins);
    expect(directives['imgSrc']).toContain('https://s3.files.example.com:9000');
    expect(directives['connectSrc']).toContain('https://s3.files.example.com:9000');
    expect(directives['scriptSrc']).toEqual(["'self'"]);
    expect(directives['defaultSrc']).toEqual(["'self'"]);
  });

  it('finds the virtual-hosted origin AWS uses without an endpoint', async () => {
    const storage = new S3BlobStorage({ ...s3, endpoint: undefined, forcePathStyle: false });
    expect(await downloadOrigins(storage)).toEqual(['https://records.s3.eu-central-1.amazonaws.com']);
    storage.destroy();
  });

  it('adds nothing when the gateway serves the links (S3 gateway downloads, filesystem store)', async () => {
    const viaGateway = new S3BlobStorage({ ...s3, gatewayDownloads: { urlSigningKey } });
    expect(await downloadOrigins(viaGateway)).toEqual([]);
    viaGateway.destroy();
    const directory = await mkdtemp(path.join(tmpdir(), 'csp-'));
    try {
      const files = new FilesystemBlobStorage({ directory, encryptionKeys: [{ id: 'k', key: Buffer.alloc(32, 1) }], urlSigningKey });
      expect(await downloadOrigins(files)).toEqual([]);
    } finally {
      await rm(directory, { recursive: true, force: true });
    }
    expect(contentSecurityDirectives()['imgSrc']).toEqual(["'self'", 'data:', 'blob:']);
    expect(contentSecurityDirectives()['connectSrc']).toEqual(["'self'"]);
  });

  it('finds the presigned origin from configuration alone: the gateway holds no S3 credentials', async () => {
    const env = { S3_ENDPOINT: 'https://s3.files.example.com:9000', S3_BUCKET: 'records', S3_REGION: 'eu-central-1', S3_FORCE_PATH_STYLE: 'true' };
    expect(await downloadOriginsFor(loadConfig(GatewayConfig, { ...env, S3_DOWNLOADS: 'presigned' }))).toEqual(['https://s3.files.example.com:9000']);
    expect(await downloadOriginsFor(loadConfig(GatewayConfig, { ...env, S3_DOWNLOADS: 'gateway' }))).toEqual([]);
    expect(await downloadOriginsFor(loadConfig(GatewayConfig, {}))).toEqual([]);
  });

  it('names Stripe.js origins only when a publishable key is configured', () => {
    const without = contentSecurityDirectives();
    for (const list of Object.values(without)) expect(list.join(' ')).not.toContain('stripe');
    const withStripe = contentSecurityDirectives([], { stripe: true });
    expect(withStripe['scriptSrc']).toEqual(["'self'", 'https://js.stripe.com', 'https://*.js.stripe.com']);
    expect(withStripe['frameSrc']).toContain('https://hooks.stripe.com');
    expect(withStripe['connectSrc']).toEqual(["'self'", 'https://api.stripe.com']);
    expect(withStripe['styleSrc']).toEqual(["'self'"]);
  });
});
