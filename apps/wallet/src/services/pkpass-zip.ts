// A .pkpass is a plain zip. yazl (already the workspace's zip writer) writes it; entries carry a
// fixed date, so the same files give the same bytes.
import { ZipFile } from 'yazl';

const FIXED_DATE = new Date(1980, 0, 1);

/** The files as a zip archive (in the order given). */
export async function zipFiles(files: ReadonlyArray<readonly [string, Buffer]>): Promise<Buffer> {
  const zip = new ZipFile();
  for (const [name, data] of files) zip.addBuffer(data, name, { mtime: FIXED_DATE, compress: true });
  zip.end();
  const chunks: Buffer[] = [];
  for await (const chunk of zip.outputStream) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}
