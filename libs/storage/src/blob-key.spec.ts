import { assertSafeBlobKey } from './blob-key';
import { InvalidBlobKeyError } from './errors';

describe('assertSafeBlobKey', () => {
  it.each(['a', 'documents/2025/3f2a-11.pdf', 'p_1/x.tar.gz', 'A-Z/0-9/_-.'])('accepts %j', (key) => {
    expect(() => assertSafeBlobKey(key)).not.toThrow();
  });

  it.each([
    ['..', '".."'],
    ['a/../b', '".."'],
    ['/abs/path', 'relative'],
    ['\\\\server\\share', 'relative'],
    ['C:/windows', 'relative'],
    ['a\0b', 'NUL'],
    ['', '1 to 512'],
    ['x'.repeat(513), '1 to 512'],
    ['.env', 'safe key pattern'],
    ['a/./b', 'safe key pattern'],
    ['a//b', 'safe key pattern'],
    ['trailing/', 'safe key pattern'],
    ['new\nline', 'safe key pattern'],
    ['ünïcode', 'safe key pattern'],
    [`${'s'.repeat(256)}/x`, 'safe key pattern'],
  ])('refuses %j (%s)', (key, message) => {
    expect(() => assertSafeBlobKey(key)).toThrow(InvalidBlobKeyError);
    expect(() => assertSafeBlobKey(key)).toThrow(message);
  });
});
