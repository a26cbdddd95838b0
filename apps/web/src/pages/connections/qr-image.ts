/*
 * Reads the text of a QR code in a picture (a photo of the clinic's QR code, or a screenshot), in the
 * browser: the picture never leaves the device, only the link it holds is sent. Uses ZXing's QR reader
 * (@zxing/library, loaded only when a picture is chosen) on the picture's luminance, trying harder and
 * at a smaller size when the first pass finds nothing.
 */

/** Largest side the picture is drawn at (phone photos are reduced: faster, and the binarizer copes better). */
const MAX_SIDE = 1600;

/** The QR code's text, or null when the picture holds none that can be read. Throws when the file is not a picture the browser can open. */
export async function readQrImage(file: Blob): Promise<string | null> {
  const bitmap = await createImageBitmap(file);
  try {
    for (const side of [MAX_SIDE, 800]) {
      const text = await decodeAt(bitmap, side);
      if (text) return text;
    }
    return null;
  } finally {
    bitmap.close();
  }
}

async function decodeAt(bitmap: ImageBitmap, maxSide: number): Promise<string | null> {
  const scale = Math.min(1, maxSide / Math.max(bitmap.width, bitmap.height));
  const width = Math.max(1, Math.round(bitmap.width * scale));
  const height = Math.max(1, Math.round(bitmap.height * scale));
  const canvas = document.createElement('canvas');
  canvas.width = width;
  canvas.height = height;
  const context = canvas.getContext('2d', { willReadFrequently: true });
  if (!context) return null;
  // A white background: a transparent PNG's code is read as dark on light.
  context.fillStyle = '#fff';
  context.fillRect(0, 0, width, height);
  context.drawImage(bitmap, 0, 0, width, height);
  const { data } = context.getImageData(0, 0, width, height);
  const luminance = new Uint8ClampedArray(width * height);
  for (let i = 0, p = 0; i < luminance.length; i += 1, p += 4) luminance[i] = ((data[p] ?? 255) * 299 + (data[p + 1] ?? 255) * 587 + (data[p + 2] ?? 255) * 114) / 1000;
  // Only ZXing's QR pieces (the package's barrel would bring every format: ~450 KB instead of these).
  const [{ default: BinaryBitmap }, { default: DecodeHintType }, { default: HybridBinarizer }, { default: QRCodeReader }, { default: RGBLuminanceSource }] = await Promise.all([
    import('@zxing/library/esm/core/BinaryBitmap'),
    import('@zxing/library/esm/core/DecodeHintType'),
    import('@zxing/library/esm/core/common/HybridBinarizer'),
    import('@zxing/library/esm/core/qrcode/QRCodeReader'),
    import('@zxing/library/esm/core/RGBLuminanceSource'),
  ]);
  const hints = new Map<number, unknown>([[DecodeHintType.TRY_HARDER, true]]);
  try {
    return new QRCodeReader().decode(new BinaryBitmap(new HybridBinarizer(new RGBLuminanceSource(luminance, width, height))), hints as never).getText();
  } catch {
    return null;
  }
}
