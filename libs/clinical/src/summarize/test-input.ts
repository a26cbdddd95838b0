// Test helper: an EngineInput from page texts, as extraction hands them over.
import type { EngineInput } from '../model';

export function textInput(
  pages: string | string[],
  options: { documentId?: string; filename?: string; uploadedAt?: string; documentDate?: string } = {},
): EngineInput {
  const filename = options.filename ?? 'note.pdf';
  const list = typeof pages === 'string' ? [pages] : pages;
  return {
    documentId: options.documentId ?? 'doc-1',
    filename,
    texts: list.map((text, i) => ({ filename, page: i + 1, text, ocr: false })),
    facts: [],
    noneKnown: [],
    problems: [],
    uploadedAt: options.uploadedAt ?? '2025-01-01T00:00:00.000Z',
    ...(options.documentDate ? { documentDate: options.documentDate } : {}),
  };
}
