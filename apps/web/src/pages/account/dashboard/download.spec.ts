import { saveBlob, saveUrl } from './download';

let clicks: { href: string; download: string; target: string; rel: string; attached: boolean }[];
beforeEach(() => {
  clicks = [];
  jest.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
    clicks.push({ href: this.href, download: this.download, target: this.target, rel: this.rel, attached: this.isConnected });
  });
});
afterEach(() => {
  jest.restoreAllMocks();
  jest.useRealTimers();
});

describe('saveUrl', () => {
  it('saves a link of this site under the file name, in the same tab', () => {
    saveUrl('/api/files/documents/abc?sig=s', 'Blood test.pdf');
    expect(clicks).toEqual([{ href: 'https://localhost/api/files/documents/abc?sig=s', download: 'Blood test.pdf', target: '', rel: '', attached: true }]);
    expect(document.querySelectorAll('a')).toHaveLength(0);
  });

  it('opens a link of another origin (an S3 store) in a new tab, without access to this page', () => {
    saveUrl('https://storage.example.com/bucket/key?X-Amz-Signature=s', 'scan.png');
    expect(clicks).toEqual([{ href: 'https://storage.example.com/bucket/key?X-Amz-Signature=s', download: 'scan.png', target: '_blank', rel: 'noopener', attached: true }]);
  });
});

describe('saveBlob', () => {
  it('saves a Blob through an object URL and revokes it afterwards', () => {
    jest.useFakeTimers();
    URL.createObjectURL = jest.fn(() => 'blob:https://localhost/1');
    URL.revokeObjectURL = jest.fn();
    saveBlob(new Blob(['png'], { type: 'image/png' }), 'medfolio_u1_qr.png');
    expect(clicks).toEqual([{ href: 'blob:https://localhost/1', download: 'medfolio_u1_qr.png', target: '', rel: '', attached: true }]);
    expect(URL.revokeObjectURL).not.toHaveBeenCalled();
    jest.advanceTimersByTime(1000);
    expect(URL.revokeObjectURL).toHaveBeenCalledWith('blob:https://localhost/1');
  });
});
