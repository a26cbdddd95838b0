import { randomUUID } from 'node:crypto';
import { readdir } from 'node:fs/promises';
import path from 'node:path';
import { ERASURE_SUBJECTS, RECORD_ERASED_ACTION, STREAMS, WALLET_SUBJECTS } from '@medfolio/contracts';
import { readPkpass, refusal } from '@medfolio/testing';
import { ApnsStandIn } from './testing/apns-stand-in';
import { WalletHarness } from './testing/wallet-harness';

/**
 * Erasing a record (identity.user.record-erased.v1) on real PostgreSQL, NATS JetStream and a local
 * APNs: the patient's pass is retired and its devices pushed (as a revoked link does), then the pass,
 * its registrations and its signed copies are deleted; another patient's pass stays; a second
 * delivery is harmless.
 */
jest.setTimeout(90_000);

const h = new WalletHarness();
const apns = new ApnsStandIn();

beforeAll(async () => {
  const apnsHost = await apns.start();
  await h.start({ APNS_KEY_ID: apns.keyId, APNS_TEAM_ID: apns.teamId, APNS_KEY: apns.privateKeyPem, APNS_HOST: apnsHost, APNS_CA: apns.caPem });
  await h.bus.ensureStream({ ...STREAMS.IDENTITY, subjects: [...STREAMS.IDENTITY.subjects] });
}, 60_000);
afterAll(async () => {
  await h.stop();
  await apns.stop();
});

/** A patient with an issued pass registered on one device. */
async function patientWithPass(device: string): Promise<{ id: string; serial: string; token: string }> {
  const id = randomUUID();
  const { url } = await h.rpc.send(WALLET_SUBJECTS.passUrl, {}, h.owner(id));
  const files = await readPkpass(Buffer.from(await (await h.download(url)).arrayBuffer()));
  const pass = JSON.parse(files.get('pass.json')!.toString('utf8')) as { serialNumber: string; authenticationToken: string };
  await h.rpc.send(
    WALLET_SUBJECTS.passkitRegister,
    { device_library_identifier: device, pass_type_identifier: h.config.passTypeIdentifier, serial_number: pass.serialNumber, authentication_token: pass.authenticationToken, push_token: `push-${device}` },
    h.device(),
  );
  return { id, serial: pass.serialNumber, token: pass.authenticationToken };
}

async function storedFiles(): Promise<string[]> {
  const found: string[] = [];
  const walk = async (dir: string): Promise<void> => {
    for (const entry of await readdir(dir, { withFileTypes: true }).catch(() => [])) {
      if (entry.isDirectory()) await walk(path.join(dir, entry.name));
      else found.push(path.join(dir, entry.name));
    }
  };
  await walk(h.dataDir);
  return found;
}

const rowsOf = async (ownerId: string) => ({
  passes: (await h.sql(`SELECT 1 FROM wallet.passes WHERE owner_id = $1`, [ownerId])).length,
  registrations: (await h.sql(`SELECT 1 FROM wallet.registrations r JOIN wallet.passes p USING (serial_number) WHERE p.owner_id = $1`, [ownerId])).length,
});

it("retires and deletes the patient's pass, pushes its devices, and keeps another patient's; a second delivery is harmless", async () => {
  const child = await patientWithPass('device-child');
  const other = await patientWithPass('device-other');
  expect(await rowsOf(child.id)).toEqual({ passes: 1, registrations: 1 });
  const signedKeys = async (serial: string) => (await h.sql<{ signed_key: string | null }>(`SELECT signed_key FROM wallet.passes WHERE serial_number = $1`, [serial]))[0]?.signed_key ?? null;
  const childKey = await signedKeys(child.serial);
  expect(childKey).not.toBeNull();
  const filesBefore = await storedFiles();
  apns.pushes.length = 0;

  const erased = { patient_id: child.id, erased_at: new Date().toISOString(), erased_by: randomUUID() };
  await h.bus.publish(ERASURE_SUBJECTS.erased, erased, { msgId: randomUUID() });
  await h.eventually('the erasure', async () => ((await rowsOf(child.id)).passes === 0 ? true : undefined));
  expect(await rowsOf(child.id)).toEqual({ passes: 0, registrations: 0 });
  expect(apns.pushes.map((p) => p.deviceToken)).toEqual(['push-device-child']);
  const request = { pass_type_identifier: h.config.passTypeIdentifier, serial_number: child.serial, authentication_token: child.token };
  expect(await refusal(h.rpc.send(WALLET_SUBJECTS.passkitPass, request, h.device()))).toMatchObject({ code: 'NOT_FOUND' });
  await expect(h.rpc.send(WALLET_SUBJECTS.passkitUpdated, { device_library_identifier: 'device-child', pass_type_identifier: h.config.passTypeIdentifier }, h.device())).resolves.toBeNull();
  // The signed pass file is gone (it carried the link and the name); the other patient's stays.
  const filesAfter = await storedFiles();
  expect(filesAfter.length).toBe(filesBefore.length - 1);
  const audit = await h.eventually('the audit record', async () => h.audit.find((e) => e.action === RECORD_ERASED_ACTION && e.patientId === child.id));
  expect(audit).toMatchObject({ service: 'wallet', actor: erased.erased_by, outcome: 'success', policy: 'proxy:guardian' });

  // The other patient's pass is untouched and still served to its device.
  expect(await rowsOf(other.id)).toEqual({ passes: 1, registrations: 1 });
  const otherRequest = { pass_type_identifier: h.config.passTypeIdentifier, serial_number: other.serial, authentication_token: other.token };
  await expect(h.rpc.send(WALLET_SUBJECTS.passkitPass, otherRequest, h.device())).resolves.toMatchObject({ not_modified: false });

  // Again, as a new message: nothing fails, no device is pushed, nothing else goes.
  apns.pushes.length = 0;
  await h.bus.publish(ERASURE_SUBJECTS.erased, erased, { msgId: randomUUID() });
  await h.eventually('the second audit record', async () => (h.audit.filter((e) => e.action === RECORD_ERASED_ACTION && e.patientId === child.id).length === 2 ? true : undefined));
  expect(apns.pushes).toEqual([]);
  expect(await rowsOf(other.id)).toEqual({ passes: 1, registrations: 1 });
});
