/**
 * The embedded database (PGlite, '@medfolio/persistence/embedded') of a process started without
 * DATABASE_URL: `npm start`, or one service run alone for development. Loaded on first use only, so
 * that a process with DATABASE_URL never loads PGlite, and the service images (which always have
 * DATABASE_URL) leave it out: libs/tooling/containers/app-deps.mjs does not follow this import
 * (embedded-only.json).
 */
type EmbeddedModule = typeof import('@medfolio/persistence/embedded');

let loaded: EmbeddedModule | undefined;

async function embedded(): Promise<EmbeddedModule> {
  if (loaded) return loaded;
  try {
    loaded = await import('@medfolio/persistence/embedded');
  } catch (error) {
    // (The package is not named in a string here: the image's dependency trace would take it in.)
    if ((error as { code?: string }).code === 'MODULE_NOT_FOUND' && /\bpglite\b/.test(String((error as Error).message))) {
      throw new Error(
        'DATABASE_URL is not set and this installation has no embedded database (PGlite is not installed, as in the service images): set DATABASE_URL to a postgres:// URL',
      );
    }
    throw error;
  }
  return loaded;
}

/** The URL of the process's embedded PGlite server, started in `<dataDir>/pglite` on first use. */
export async function embeddedDatabaseUrl(dataDir: string): Promise<string> {
  return (await (await embedded()).EmbeddedPostgres.get(dataDir)).url;
}

/** Stops the embedded server if this process started one (never loads PGlite to find out). */
export async function stopEmbeddedDatabase(): Promise<void> {
  if (loaded) await loaded.EmbeddedPostgres.stop();
}
