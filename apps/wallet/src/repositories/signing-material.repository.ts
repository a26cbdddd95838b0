import { createHash, generateKeyPairSync, randomBytes } from 'node:crypto';
import { mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { Inject, Injectable, Logger } from '@nestjs/common';
import forge from 'node-forge';
import { WalletConfig } from '../config';

/** What a pass is signed with: the pass type certificate and key, and the WWDR certificate it chains to. */
export interface SigningMaterial {
  signerCert: string;
  signerKey: string;
  signerKeyPassphrase?: string;
  wwdr: string;
  /** 'configured' (WALLET_SIGNER_CERT...) or 'development' (the self-signed chain in DATA_DIR). */
  origin: 'configured' | 'development';
  /** SHA-256 of the signer certificate: part of the cached pass's digest, so a new certificate re-signs. */
  fingerprint: string;
}

const DEV_FILES = { ca: 'development-wwdr-ca.pem', cert: 'pass-certificate.pem', key: 'pass-key.pem' } as const;

/**
 * Reads the signing material from configuration, or, when none is configured, the self-signed
 * development chain kept in DATA_DIR/wallet (made on first use: a CA standing in for Apple's WWDR
 * and a pass type certificate it issued, with the pass type id as UID and the team id as OU, as
 * Apple's are). Wallet on an iPhone accepts only Apple-issued certificates; the development chain
 * makes real, verifiable signatures for everything else (tests, the preview, a Mac's Pass Viewer with
 * the CA trusted). Partly configured is an error, not a silent fallback.
 */
@Injectable()
export class SigningMaterialRepository {
  private readonly logger = new Logger('WalletSigning');
  private material?: Promise<SigningMaterial>;

  constructor(@Inject(WalletConfig) private readonly config: WalletConfig) {}

  get(): Promise<SigningMaterial> {
    this.material ??= this.load().catch((error: unknown) => {
      this.material = undefined;
      throw error;
    });
    return this.material;
  }

  private async load(): Promise<SigningMaterial> {
    const { signerCert, signerKey, wwdrCert } = this.config;
    const given = [signerCert, signerKey, wwdrCert].filter(Boolean).length;
    if (given === 3) {
      return {
        signerCert: signerCert!,
        signerKey: signerKey!,
        ...(this.config.signerKeyPassphrase ? { signerKeyPassphrase: this.config.signerKeyPassphrase } : {}),
        wwdr: wwdrCert!,
        origin: 'configured',
        fingerprint: fingerprint(signerCert!),
      };
    }
    if (given > 0) throw new Error('Set all of WALLET_SIGNER_CERT, WALLET_SIGNER_KEY and WALLET_WWDR_CERT, or none (a development chain is made then).');
    return this.development();
  }

  /** The development chain in DATA_DIR/wallet, made once. */
  private async development(): Promise<SigningMaterial> {
    const dir = path.join(this.config.dataDir, 'wallet');
    const files = { ca: path.join(dir, DEV_FILES.ca), cert: path.join(dir, DEV_FILES.cert), key: path.join(dir, DEV_FILES.key) };
    try {
      const [wwdr, signerCert, signerKey] = await Promise.all([readFile(files.ca, 'utf8'), readFile(files.cert, 'utf8'), readFile(files.key, 'utf8')]);
      if (subjectOf(signerCert).includes(this.config.passTypeIdentifier)) {
        return { wwdr, signerCert, signerKey, origin: 'development', fingerprint: fingerprint(signerCert) };
      }
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
    }
    const made = makeDevelopmentChain(this.config.passTypeIdentifier, this.config.teamIdentifier, this.config.organizationName);
    await mkdir(dir, { recursive: true, mode: 0o700 });
    // Each file appears whole or not at all (a crash mid-way leaves no half-written key).
    for (const [file, text, mode] of [
      [files.key, made.signerKey, 0o600],
      [files.cert, made.signerCert, 0o644],
      [files.ca, made.wwdr, 0o644],
    ] as const) {
      const temporary = `${file}.${randomBytes(4).toString('hex')}.tmp`;
      await writeFile(temporary, text, { mode });
      await rename(temporary, file);
    }
    this.logger.warn(`Made a self-signed development chain for Apple Wallet passes in ${dir}: iPhones accept only passes signed with an Apple-issued certificate (set WALLET_SIGNER_CERT, WALLET_SIGNER_KEY, WALLET_WWDR_CERT).`);
    return { ...made, origin: 'development', fingerprint: fingerprint(made.signerCert) };
  }
}

function fingerprint(pem: string): string {
  return createHash('sha256').update(pem.trim()).digest('hex');
}

function subjectOf(pem: string): string {
  return forge.pki
    .certificateFromPem(pem)
    .subject.attributes.map((a) => String(a.value))
    .join(',');
}

/** A CA (standing in for Apple's WWDR) and a pass type certificate it issued, RSA 2048, valid 5 years. */
export function makeDevelopmentChain(passTypeIdentifier: string, teamIdentifier: string, organizationName: string): { wwdr: string; signerCert: string; signerKey: string } {
  const keys = () => {
    const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
    const pem = privateKey.export({ type: 'pkcs1', format: 'pem' }).toString();
    const key = forge.pki.privateKeyFromPem(pem) as forge.pki.rsa.PrivateKey;
    return { pem, key, publicKey: forge.pki.setRsaPublicKey(key.n, key.e) };
  };
  const now = new Date();
  const until = new Date(now.getTime() + 5 * 365 * 24 * 3600 * 1000);
  const ca = keys();
  const caCert = forge.pki.createCertificate();
  caCert.publicKey = ca.publicKey;
  caCert.serialNumber = `01${randomBytes(8).toString('hex')}`;
  caCert.validity.notBefore = new Date(now.getTime() - 60_000);
  caCert.validity.notAfter = until;
  const caSubject = [
    { name: 'commonName', value: `${organizationName} Development Wallet CA (not Apple)` },
    { name: 'organizationName', value: organizationName },
  ];
  caCert.setSubject(caSubject);
  caCert.setIssuer(caSubject);
  caCert.setExtensions([
    { name: 'basicConstraints', cA: true, critical: true },
    { name: 'keyUsage', keyCertSign: true, cRLSign: true, critical: true },
    { name: 'subjectKeyIdentifier' },
  ]);
  caCert.sign(ca.key, forge.md.sha256.create());

  const signer = keys();
  const cert = forge.pki.createCertificate();
  cert.publicKey = signer.publicKey;
  cert.serialNumber = `02${randomBytes(8).toString('hex')}`;
  cert.validity.notBefore = new Date(now.getTime() - 60_000);
  cert.validity.notAfter = until;
  cert.setSubject([
    { type: '0.9.2342.19200300.100.1.1', value: passTypeIdentifier },
    { name: 'commonName', value: `Pass Type ID: ${passTypeIdentifier}` },
    { name: 'organizationalUnitName', value: teamIdentifier },
    { name: 'organizationName', value: organizationName },
  ]);
  cert.setIssuer(caSubject);
  cert.setExtensions([
    { name: 'basicConstraints', cA: false },
    { name: 'keyUsage', digitalSignature: true, critical: true },
    { name: 'extKeyUsage', emailProtection: true },
    { name: 'subjectKeyIdentifier' },
  ]);
  cert.sign(ca.key, forge.md.sha256.create());
  return { wwdr: forge.pki.certificateToPem(caCert), signerCert: forge.pki.certificateToPem(cert), signerKey: signer.pem };
}
