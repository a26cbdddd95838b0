// The part of sodium-native 5 the secretstream reference uses. @types/sodium-native describes an older
// release (its TAG_* constants are Buffers; in version 5 they are numbers), so it is not used.
declare module 'sodium-native' {
  export const crypto_secretstream_xchacha20poly1305_ABYTES: number;
  export const crypto_secretstream_xchacha20poly1305_HEADERBYTES: number;
  export const crypto_secretstream_xchacha20poly1305_KEYBYTES: number;
  export const crypto_secretstream_xchacha20poly1305_STATEBYTES: number;
  export const crypto_secretstream_xchacha20poly1305_TAG_MESSAGE: number;
  export const crypto_secretstream_xchacha20poly1305_TAG_FINAL: number;
  /** Fills `header` with a random stream header and `state` with the push state. */
  export function crypto_secretstream_xchacha20poly1305_init_push(state: Buffer, header: Buffer, key: Buffer): void;
  /** Writes message.length + ABYTES bytes to `ciphertext`; returns that count. */
  export function crypto_secretstream_xchacha20poly1305_push(
    state: Buffer,
    ciphertext: Buffer,
    message: Buffer,
    additionalData: Buffer | null,
    tag: number,
  ): number;
  export function crypto_secretstream_xchacha20poly1305_init_pull(state: Buffer, header: Buffer, key: Buffer): void;
  /** Writes the message and its tag (one byte); throws if the message does not authenticate. */
  export function crypto_secretstream_xchacha20poly1305_pull(
    state: Buffer,
    message: Buffer,
    tag: Buffer,
    ciphertext: Buffer,
    additionalData: Buffer | null,
  ): number;
}
