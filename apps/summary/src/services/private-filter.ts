import type { EngineOutput } from './summary-model';

/**
 * What a proxy (a guardian or caregiver: caller.actor) may read of a record whose owner marked
 * documents private: facts and "none known" statements whose every source is a private document
 * are left out; facts with another source, or none (added by hand), stay.
 */
export function onlyPrivateSources(sources: { documentId: string }[], privateIds: Set<string>): boolean {
  return sources.length > 0 && sources.every((s) => privateIds.has(s.documentId));
}

export function withoutPrivate(output: EngineOutput, privateIds: Set<string>): EngineOutput {
  if (privateIds.size === 0) return output;
  return {
    ...output,
    facts: output.facts.filter((f) => !onlyPrivateSources(f.sources, privateIds)).map((f) => ({ ...f, sources: f.sources.filter((s) => !privateIds.has(s.documentId)) })),
    noneKnown: output.noneKnown.filter((n) => !onlyPrivateSources(n.sources, privateIds)).map((n) => ({ ...n, sources: n.sources.filter((s) => !privateIds.has(s.documentId)) })),
    changes: output.changes
      ?.filter((c) => !(c.sources.length > 0 && c.sources.every((s) => privateIds.has(s.document_id ?? ''))))
      .map((c) => ({ ...c, sources: c.sources.filter((s) => !privateIds.has(s.document_id ?? '')) })),
  };
}
