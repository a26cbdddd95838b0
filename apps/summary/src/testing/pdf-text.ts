/** A PDF's text, read with pdf.js (the text pdfkit writes is hex-encoded, so the bytes cannot be searched). */
export async function pdfText(base64: string): Promise<string> {
  const { getDocument } = await import('pdfjs-dist/legacy/build/pdf.mjs');
  const task = getDocument({ data: new Uint8Array(Buffer.from(base64, 'base64')), verbosity: 0 });
  const pdf = await task.promise;
  const pages: string[] = [];
  for (let n = 1; n <= pdf.numPages; n++) {
    const content = await (await pdf.getPage(n)).getTextContent();
    pages.push(content.items.map((item) => ('str' in item ? item.str : '')).join(' '));
  }
  await task.destroy();
  return pages.join(' ').replace(/\s+/g, ' ');
}
