import { randomUUID } from 'node:crypto';
import { chmod, link, mkdir, readFile, unlink, writeFile } from 'node:fs/promises';
import path from 'node:path';

/**
 * Reads a secret file, or creates it with `create()` if it does not exist, safely when several
 * processes start at once on one DATA_DIR: the content goes to a private temporary file that is
 * then hard-linked into place, which fails if another process got there first; that process's
 * complete file is then read. Files are readable by the owner only.
 */
export async function readOrCreateSecretFile(file: string, create: () => string | Promise<string>): Promise<string> {
  try {
    return await readFile(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw new Error(`Cannot read ${path.basename(file)}: ${(error as Error).message}`);
  }
  await mkdir(path.dirname(file), { recursive: true, mode: 0o700 });
  const temporary = `${file}.${randomUUID()}.tmp`;
  await writeFile(temporary, await create(), { mode: 0o600 });
  try {
    await chmod(temporary, 0o600);
    await link(temporary, file);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
  } finally {
    await unlink(temporary).catch(() => undefined);
  }
  return readFile(file, 'utf8');
}
