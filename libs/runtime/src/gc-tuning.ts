import { setFlagsFromString } from 'node:v8';

/**
 * Applies GC_MARKING_TRIGGERS (see CommonConfig.gcMarkingTriggers): "<soft>,<hard>" sets V8's
 * incremental-marking triggers to those percentages of the old generation's allocation limit; "v8"
 * leaves V8's own rule. These V8 flags are not accepted in NODE_OPTIONS, so every process sets them
 * itself at boot; V8 reads them each time it decides whether to start marking.
 *
 * Why: with V8's own rule, a service whose heap holds its framework (about 45 MB for a Nest app)
 * started a new full marking right after each mark-compact while an upload streamed through: about
 * 15 mark-compacts per 256 MB in the gateway and 35 in the documents service, 1 to 3 CPU-seconds
 * per upload. With 80,95 the same uploads run with 0 or 1 (bench/upload.mjs; docs/architecture.md).
 */
export function tuneGarbageCollector(triggers: string, setFlags: (flags: string) => void = setFlagsFromString): void {
  if (triggers === 'v8') return;
  const match = /^(\d{1,3}),(\d{1,3})$/.exec(triggers);
  if (!match) throw new TypeError('GC_MARKING_TRIGGERS must be "v8" or two percentages "soft,hard" such as 80,95');
  setFlags(`--incremental-marking-soft-trigger=${match[1]}`);
  setFlags(`--incremental-marking-hard-trigger=${match[2]}`);
}
