import { readFile } from 'node:fs/promises';
import { Inject, Injectable, type OnModuleInit } from '@nestjs/common';
import { ConnectionsConfig } from '../config';
import { type DirectoryEntry, DirectoryError, parseBrandsBundle } from '../directory/brands-directory';
import { SAMPLE_DIRECTORY } from '../directory/sample-directory';

/** Most bytes of a directory file (a national directory of every US brand is a few tens of MB). */
const MAX_FILE_BYTES = 64 * 1024 * 1024;

/** The endpoint directory: FHIR_ENDPOINTS_FILE, or the sample one, read once at start (a bad file stops the start, naming it). */
@Injectable()
export class EndpointDirectoryRepository implements OnModuleInit {
  private entries: DirectoryEntry[] = [];

  constructor(@Inject(ConnectionsConfig) private readonly config: ConnectionsConfig) {}

  async onModuleInit(): Promise<void> {
    this.entries = this.config.endpointsFile ? await readDirectoryFile(this.config.endpointsFile) : parseBrandsBundle(SAMPLE_DIRECTORY);
  }

  all(): readonly DirectoryEntry[] {
    return this.entries;
  }

  find(id: string): DirectoryEntry | undefined {
    return this.entries.find((entry) => entry.id === id);
  }
}

async function readDirectoryFile(file: string): Promise<DirectoryEntry[]> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (error) {
    throw new DirectoryError(`FHIR_ENDPOINTS_FILE cannot be read (${(error as NodeJS.ErrnoException).code ?? 'error'})`);
  }
  if (text.length > MAX_FILE_BYTES) throw new DirectoryError('FHIR_ENDPOINTS_FILE is larger than 64 MB');
  let bundle: unknown;
  try {
    bundle = JSON.parse(text);
  } catch {
    throw new DirectoryError('FHIR_ENDPOINTS_FILE is not JSON');
  }
  try {
    return parseBrandsBundle(bundle);
  } catch (error) {
    throw new DirectoryError(`FHIR_ENDPOINTS_FILE: ${(error as Error).message}`);
  }
}
