/**
 * Saving files from the page. A link of this site is saved under `filename` (the `download`
 * attribute; the page stays as it is); a link of another origin (an S3 store), for which browsers
 * ignore `download`, opens in a new tab, where its Content-Disposition: attachment turns it into a
 * download.
 */
export function saveUrl(url: string, filename: string): void {
  const link = document.createElement('a');
  link.href = url;
  link.download = filename;
  if (new URL(link.href).origin !== window.location.origin) {
    link.target = '_blank';
    link.rel = 'noopener';
  }
  link.hidden = true;
  document.body.append(link);
  link.click();
  link.remove();
}

/** Saves a Blob made in the page (the QR image) as `filename`; its object URL is revoked afterwards. */
export function saveBlob(blob: Blob, filename: string): void {
  const url = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = url;
  link.download = filename;
  link.hidden = true;
  document.body.append(link);
  link.click();
  link.remove();
  // The download has started by now; a moment later the URL is no longer needed.
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}

/**
 * A PNG of the QR code of `value`, `size` x `size` pixels: the same modules uqr draws as the SVG on
 * screen, painted onto a canvas (dark on white, whole pixels so the edges stay sharp).
 */
export async function qrPng(value: string, size: number): Promise<Blob> {
  const { encode } = await import('uqr');
  const { data } = encode(value, { border: 1 });
  const modules = data.length;
  const canvas = document.createElement('canvas');
  canvas.width = size;
  canvas.height = size;
  const context = canvas.getContext('2d');
  if (!context) throw new Error('No 2D canvas in this browser.');
  context.fillStyle = '#ffffff';
  context.fillRect(0, 0, size, size);
  context.fillStyle = '#000000';
  const edge = (i: number) => Math.round((i * size) / modules);
  data.forEach((row, y) =>
    row.forEach((dark, x) => {
      if (dark) context.fillRect(edge(x), edge(y), edge(x + 1) - edge(x), edge(y + 1) - edge(y));
    }),
  );
  return new Promise((resolve, reject) => {
    canvas.toBlob((blob) => (blob ? resolve(blob) : reject(new Error('The QR image could not be made.'))), 'image/png');
  });
}
