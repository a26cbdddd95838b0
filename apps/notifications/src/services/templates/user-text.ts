/**
 * What people type (a first name, an inviter's name, a link's label, a provider's
 * name) goes into mail the product sends, so it must not turn the product's mail into someone
 * else's message. Every such value is made one line, stripped of invisible and control characters,
 * rid of anything a mail client would make a link (URLs, www. names, domain names, e-mail and IP
 * addresses), and cut to a length, before it reaches a subject or body.
 */

/** Longest name in a subject or greeting (characters); longer ones end with an ellipsis. */
export const MAX_NAME_LENGTH = 40;
/** Longest label (a share link's) in a subject or body. */
export const MAX_LABEL_LENGTH = 60;
/** Longest provider description ("Dr Ana Ruiz (NPI 1234567893)"). */
export const MAX_PROVIDER_LENGTH = 100;

/** Dots that mail clients or people read as one: full stop, fullwidth, ideographic, halfwidth ideographic, one-dot leader. */
const DOTS = /[\u3002\uFF0E\uFF61\u2024]/g;
/** Invisible formatting (zero-width, bidi overrides): removed, so "evil\u200b.example" is seen as one word. */
const INVISIBLE = /\p{Cf}/gu;
/** Control characters (line breaks, tabs, NUL...): a space. */
const CONTROL = /\p{Cc}/gu;

const SCHEME = /(?:[a-z][a-z0-9+.-]*:\/\/|\/\/|\b(?:mailto|javascript|data|file|tel|sms|callto|skype|bitcoin):)/i;
const WWW = /(?:^|[^a-z0-9])www\d?\./i;
const EMAIL = /[^\s@]+@[^\s@]+\.[^\s@]+/;
const IPV4 = /\b\d{1,3}(?:\.\d{1,3}){3}\b/;
/** label.tld (tld 2+ letters), optionally followed by a port, path, query or fragment. */
const DOMAIN = /[\p{L}\p{N}-]\.[\p{L}][\p{L}\p{N}-]{1,62}(?:$|[/:?#\]),;!'"])/iu;

/** True for a word a mail client could turn into a link. */
export function isUrlLike(word: string): boolean {
  const w = word.replace(DOTS, '.');
  return SCHEME.test(w) || WWW.test(w) || EMAIL.test(w) || IPV4.test(w) || DOMAIN.test(w);
}

/** Cuts to `max` characters (code points, never half a surrogate pair), ending with "…" when cut. */
function bounded(value: string, max: number): string {
  const chars = Array.from(value);
  return chars.length <= max ? value : `${chars.slice(0, max - 1).join('').trimEnd()}…`;
}

/** One line, no invisible characters, normalised (NFKC: fullwidth letters and dots as plain ones). */
function clean(value: string): string {
  return value.normalize('NFKC').replace(INVISIBLE, '').replace(CONTROL, ' ').replace(/\s+/g, ' ').trim();
}

/**
 * A person's or a link's name as it may appear in mail: one line, without URL-like words (dropped),
 * at most `max` characters. May be empty (the template then says "Hello," or "A friend").
 */
export function userText(value: string, max = MAX_NAME_LENGTH): string {
  const words = clean(value)
    .split(' ')
    .filter((word) => word !== '' && !isUrlLike(word));
  return bounded(words.join(' '), max);
}

/**
 * Free text someone wrote (the contact form's message, sent to the support inbox): kept readable,
 * line breaks included, but no word stays a link: "://" becomes "[:]//" and the dots of URL-like
 * words "[.]", so a mail client shows them as text. At most `max` characters.
 */
export function userMessage(value: string, max = 2000): string {
  const lines = value
    .normalize('NFKC')
    .replace(/\r\n?/g, '\n')
    .replace(INVISIBLE, '')
    .replace(CONTROL, (c) => (c === '\n' ? c : ' '))
    .split('\n')
    .map((line) =>
      line
        .split(/(\s+)/)
        .map((word) => (isUrlLike(word) ? word.replace(DOTS, '.').replace(/:\/\//g, '[:]//').replace(/\./g, '[.]').replace(/@/g, '[at]') : word))
        .join(''),
    );
  return bounded(lines.join('\n'), max);
}
