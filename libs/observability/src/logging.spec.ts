import { createHash } from 'node:crypto';
import { pathOf } from './logging';

describe('pathOf (what request logs show of a URL)', () => {
  it('drops the query string', () => {
    expect(pathOf('/api/summary/?user=kq3C1uXW0pDq3b0F7nHqXg&view_token=1.abc')).toBe('/api/summary/');
  });

  it('replaces a share id in the public page address by the start of its SHA-256', () => {
    const shareId = 'kq3C1uXW0pDq3b0F7nHqXg';
    const logged = pathOf(`/summary/${shareId}?x=1`);
    expect(logged).not.toContain(shareId);
    expect(logged).toBe(`/summary/sha256:${createHash('sha256').update(shareId).digest('hex').slice(0, 16)}`);
  });

  it('leaves other paths as they are', () => {
    expect(pathOf('/api/history/')).toBe('/api/history/');
    expect(pathOf('/summary')).toBe('/summary');
  });
});
