// The pass signature checked by parsers this project did not write: OpenSSL's CMS verifier, and
// @peculiar/asn1-cms (asn1js underneath) for the DER encoding of the signed attributes.
import { execFile } from 'node:child_process';
import { createHash, createPrivateKey, verify, X509Certificate } from 'node:crypto';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { ContentInfo, id_signedData, SignedData } from '@peculiar/asn1-cms';
import { AsnConvert } from '@peculiar/asn1-schema';
import { manifestProblems, readPkpass } from '@medfolio/testing';
import { makeDevelopmentChain } from '../repositories/signing-material.repository';
import { passDesign } from './pass-design';
import { signManifest } from './pass-signature';
import { signPass } from './pass-signer';

const SHA256 = '2.16.840.1.101.3.4.2.1';
const SHA1 = '1.3.14.3.2.26';
const chain = makeDevelopmentChain('pass.test.medfolio', 'TEAM123456', 'Medfolio');
const run = promisify(execFile);
// Key generation, the images (sharp) and RSA in node-forge (the control) take seconds on a loaded machine.
jest.setTimeout(30_000);

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'pass-signature-'));
});
afterAll(() => rm(dir, { recursive: true, force: true }));

/** `openssl cms -verify` of the detached signature over the manifest; its stderr, or a rejection. */
async function opensslCmsVerify(signature: Buffer, manifest: Buffer, ...trust: string[]): Promise<string> {
  await writeFile(path.join(dir, 'signature'), signature);
  await writeFile(path.join(dir, 'manifest.json'), manifest);
  await writeFile(path.join(dir, 'ca.pem'), chain.wwdr);
  const args = ['cms', '-verify', '-binary', '-inform', 'DER', '-in', 'signature', '-content', 'manifest.json', '-out', '/dev/null', ...trust];
  const { stderr } = await run('openssl', args, { cwd: dir });
  return stderr;
}

/** What a strict reader finds wrong with the signature (empty: SHA-256, canonical DER, the signature verifies). */
function strictProblems(signature: Buffer, manifest: Buffer): string[] {
  const problems: string[] = [];
  const info = AsnConvert.parse(signature, ContentInfo);
  if (info.contentType !== id_signedData) return [`content type ${info.contentType}`];
  // DER has one encoding per value: parsing and writing back must give the same bytes.
  if (!Buffer.from(AsnConvert.serialize(info)).equals(signature)) problems.push('ContentInfo is not canonical DER');
  const signed = AsnConvert.parse(info.content, SignedData);
  if (signed.encapContentInfo.eContent) problems.push('not detached');
  const digests = signed.digestAlgorithms.map((a) => a.algorithm);
  if (digests.join() !== SHA256) problems.push(`digestAlgorithms ${digests.join()}`);
  const [signer] = signed.signerInfos;
  if (!signer || signed.signerInfos.length !== 1) return [...problems, `${signed.signerInfos.length} signers`];
  if (signer.digestAlgorithm.algorithm !== SHA256) problems.push(`signer digest ${signer.digestAlgorithm.algorithm}`);
  const attrs = signer.signedAttrs ?? [];
  const encoded = attrs.map((a) => Buffer.from(AsnConvert.serialize(a)));
  const sorted = [...encoded].sort(Buffer.compare);
  if (!encoded.every((e, i) => e.equals(sorted[i] as Buffer))) problems.push('signed attributes not in DER SET OF order');
  const types = attrs.map((a) => a.attrType).sort();
  if (types.join() !== ['1.2.840.113549.1.9.3', '1.2.840.113549.1.9.4', '1.2.840.113549.1.9.5'].join())
    problems.push(`signed attribute types ${types.join()}`);
  const certificates = (signed.certificates ?? []).map((c) => new X509Certificate(Buffer.from(AsnConvert.serialize(c.certificate!))));
  const signerCert = certificates.find((c) => c.checkIssued(new X509Certificate(chain.wwdr)) && c.subject.includes('Pass Type ID'));
  if (!signerCert) return [...problems, 'no signer certificate'];
  if (!certificates.some((c) => c.subject === new X509Certificate(chain.wwdr).subject)) problems.push('WWDR certificate missing');
  // The signature covers the attributes as a DER SET OF (tag 0x31), as re-encoded here by the reader.
  const set = Buffer.concat(encoded);
  const header = set.length < 0x80 ? Buffer.from([0x31, set.length]) : Buffer.from([0x31, 0x82, set.length >> 8, set.length & 0xff]);
  const digest = signer.digestAlgorithm.algorithm === SHA1 ? 'sha1' : 'sha256';
  if (!verify(digest, Buffer.concat([header, set]), signerCert.publicKey, Buffer.from(signer.signature.buffer)))
    problems.push('signature does not verify over the DER-encoded signed attributes');
  const messageDigest = attrs.find((a) => a.attrType === '1.2.840.113549.1.9.4')?.attrValues[0];
  if (!messageDigest || !Buffer.from(messageDigest).subarray(2).equals(createHash(digest).update(manifest).digest()))
    problems.push('message digest is not the manifest');
  return problems;
}

const view = passDesign({
  serialNumber: '6f1c1c9e-0d7b-4c1e-9d3a-1f2e3d4c5b6a',
  organizationName: 'Medfolio',
  holderName: 'Ada',
  showName: true,
  qrUrl: 'https://medfolio.test/summary/AbCdEfGhIjKlMnOpQrStUv',
  publicBaseUrl: 'https://medfolio.test/',
  updatedAt: new Date('2026-01-02T03:04:05Z'),
});
const input = {
  view,
  passTypeIdentifier: 'pass.test.medfolio',
  teamIdentifier: 'TEAM123456',
  authenticationToken: 'a'.repeat(32),
  webServiceUrl: 'https://medfolio.test/api/passkit',
  material: { ...chain, origin: 'development' as const, fingerprint: 'f' },
};

describe('pass signature', () => {
  it('signs manifest.json with SHA-256 and DER-ordered attributes; OpenSSL CMS and asn1-cms accept it', async () => {
    const pkpass = await signPass(input);
    const files = await readPkpass(pkpass);
    expect([...files.keys()].sort()).toEqual(['icon.png', 'icon@2x.png', 'icon@3x.png', 'logo.png', 'logo@2x.png', 'logo@3x.png', 'manifest.json', 'pass.json', 'signature']);
    expect(manifestProblems(files)).toEqual([]);
    const manifest = files.get('manifest.json') as Buffer;
    const signature = files.get('signature') as Buffer;
    expect(strictProblems(signature, manifest)).toEqual([]);
    await expect(opensslCmsVerify(signature, manifest, '-noverify')).resolves.toContain('Verification successful');
    // The chain too: the signer certificate issued by the (development) WWDR, both in the signature.
    await expect(opensslCmsVerify(signature, manifest, '-CAfile', 'ca.pem', '-purpose', 'any')).resolves.toContain('Verification successful');
    const printed = (await run('openssl', ['cms', '-cmsout', '-print', '-inform', 'DER', '-in', path.join(dir, 'signature')])).stdout;
    expect(printed).toContain('algorithm: sha256');
    expect(printed).not.toMatch(/algorithm: sha1\b/);
    expect(printed).toContain('signingTime');
    // Another manifest (a file changed after signing) does not verify.
    const tampered = Buffer.from(manifest.toString('utf8').replace(/"pass\.json":"[0-9a-f]/, '"pass.json":"_'));
    await expect(opensslCmsVerify(signature, tampered, '-noverify')).rejects.toThrow();
    expect(strictProblems(signature, tampered)).toEqual(['message digest is not the manifest']);
    expect(JSON.parse(files.get('pass.json')!.toString('utf8'))).toMatchObject({ webServiceURL: input.webServiceUrl, serialNumber: view.serial_number });
  });

  it('the checker fails the signature passkit-generator makes by itself (SHA-1, attributes in the given order)', async () => {
    const { PKPass } = await import('passkit-generator');
    const { wwdr, signerCert, signerKey } = chain;
    const pass = new PKPass({ 'icon.png': Buffer.from('not shown'), 'pass.json': Buffer.from(JSON.stringify({ formatVersion: 1, passTypeIdentifier: 'pass.test.medfolio', teamIdentifier: 'TEAM123456', organizationName: 'M', description: 'd', serialNumber: 's', generic: {} })) }, { wwdr, signerCert, signerKey });
    const raw = pass.getAsRaw();
    const problems = strictProblems(raw['signature'] as Buffer, raw['manifest.json'] as Buffer);
    expect(problems).toEqual(expect.arrayContaining([`digestAlgorithms ${SHA1}`, `signer digest ${SHA1}`, 'signed attributes not in DER SET OF order']));
  });

  it('takes an encrypted key with its passphrase, and refuses a key that is not the certificate’s', async () => {
    const manifest = Buffer.from('{"pass.json":"0000000000000000000000000000000000000000"}');
    const encrypted = createPrivateKey(chain.signerKey).export({ type: 'pkcs8', format: 'pem', cipher: 'aes-256-cbc', passphrase: 'secret words' }).toString();
    const signature = signManifest({ manifest, signerCert: chain.signerCert, signerKey: encrypted, signerKeyPassphrase: 'secret words', wwdr: chain.wwdr, signingTime: new Date('2051-01-01T00:00:00Z') });
    expect(strictProblems(signature, manifest)).toEqual([]);
    await expect(opensslCmsVerify(signature, manifest, '-noverify')).resolves.toContain('Verification successful');
    const other = makeDevelopmentChain('pass.test.medfolio', 'TEAM123456', 'Medfolio');
    expect(() => signManifest({ manifest, signerCert: chain.signerCert, signerKey: other.signerKey, wwdr: chain.wwdr })).toThrow('does not belong');
  });
});
