/**
 * The building blocks of every e-mail's HTML part. Mail clients ignore <style> sheets and
 * classes unevenly, so the look is inline CSS on a table layout. Every value that reaches HTML
 * goes through `escapeHtml` (text) or `safeHref` (links); the blocks below take plain text only.
 */

export const PRODUCT_NAME = 'Medfolio';

const BRAND = '#1f5fbf';
const INK = '#1d2939';
const MUTED = '#667085';
const FONT = "-apple-system, 'Segoe UI', Roboto, Helvetica, Arial, sans-serif";

const ENTITIES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

/** Text to HTML text or attribute value: the five characters that can change the markup. */
export function escapeHtml(value: string): string {
  return value.replace(/[&<>"']/g, (c) => ENTITIES[c] ?? c);
}

/** Only http(s) links go into an href (never `javascript:` or `data:`); escaped for the attribute. */
export function safeHref(url: string): string {
  if (!isHttpUrl(url)) throw new Error('Only http(s) links are allowed in e-mails');
  return escapeHtml(url);
}

export function isHttpUrl(value: string): boolean {
  try {
    const url = new URL(value);
    return (url.protocol === 'http:' || url.protocol === 'https:') && !/\s/.test(value);
  } catch {
    return false;
  }
}

export function paragraph(text: string): string {
  return `<p style="margin:0 0 16px 0;">${escapeHtml(text)}</p>`;
}

/** A one-time code, large and spaced so it is easy to read and type. */
export function codeBox(code: string): string {
  return (
    `<p style="margin:8px 0 24px 0;text-align:center;">` +
    `<span style="display:inline-block;padding:12px 24px;border-radius:8px;background:#eef3fb;border:1px solid #c9d8f0;` +
    `font-family:Menlo,Consolas,monospace;font-size:30px;font-weight:700;letter-spacing:8px;color:${INK};">` +
    `${escapeHtml(code)}</span></p>`
  );
}

export function button(url: string, label: string): string {
  return (
    `<p style="margin:8px 0 24px 0;text-align:center;">` +
    `<a href="${safeHref(url)}" style="display:inline-block;padding:12px 28px;border-radius:8px;background:${BRAND};` +
    `color:#ffffff;font-weight:600;text-decoration:none;">${escapeHtml(label)}</a></p>`
  );
}

/** A link written out in full, for clients that block buttons. */
export function plainLink(url: string): string {
  return `<p style="margin:0 0 16px 0;font-size:13px;color:${MUTED};word-break:break-all;"><a href="${safeHref(url)}" style="color:${BRAND};">${escapeHtml(url)}</a></p>`;
}

/** Text someone typed (a contact message): kept as written, line breaks included. */
export function quote(text: string): string {
  return (
    `<div style="margin:0 0 16px 0;padding:12px 16px;border-left:4px solid ${BRAND};background:#f8fafc;` +
    `white-space:pre-wrap;word-break:break-word;">${escapeHtml(text)}</div>`
  );
}

/** The branded frame: product name bar, the body blocks, a footer line. `body` is HTML from the blocks above. */
export function layout(subject: string, body: string, footer: string): string {
  return [
    '<!doctype html>',
    '<html lang="en"><head><meta charset="utf-8">',
    '<meta name="viewport" content="width=device-width, initial-scale=1">',
    `<title>${escapeHtml(subject)}</title></head>`,
    `<body style="margin:0;padding:0;background:#f3f6fb;font-family:${FONT};">`,
    '<table role="presentation" width="100%" cellpadding="0" cellspacing="0" style="background:#f3f6fb;padding:24px 12px;"><tr><td align="center">',
    '<table role="presentation" width="560" cellpadding="0" cellspacing="0" style="max-width:560px;width:100%;background:#ffffff;border:1px solid #e3e8f0;border-radius:12px;">',
    `<tr><td style="background:${BRAND};border-radius:12px 12px 0 0;padding:20px 32px;color:#ffffff;font-size:22px;font-weight:700;letter-spacing:0.3px;">${PRODUCT_NAME}</td></tr>`,
    `<tr><td style="padding:32px;color:${INK};font-size:16px;line-height:1.5;">${body}</td></tr>`,
    `<tr><td style="padding:16px 32px;border-top:1px solid #e3e8f0;color:${MUTED};font-size:12px;line-height:1.5;">${escapeHtml(footer)}</td></tr>`,
    '</table></td></tr></table></body></html>',
  ].join('\n');
}
