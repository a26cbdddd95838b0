// The summary image keeps only the tesseract.js cores that Node loads (prune.json removes the -lstm
// ones). This runs tesseract.js's own Node core loader with what its createWorker passes it for the
// OEM the product uses (LSTM only) and checks that the core it loads is one the image keeps: an
// upgrade that changes the choice fails here, not in a container.
import { createRequire } from 'node:module';
import path from 'node:path';
import prune from './prune.json';

const requireHere = createRequire(__filename);

describe('the tesseract.js cores in the images', () => {
  it('keeps the core tesseract.js loads on Node for LSTM-only OCR', async () => {
    const getCorePath = requireHere.resolve('tesseract.js/src/worker-script/node/getCore.js');
    const coreDir = path.dirname(requireHere.resolve('tesseract.js-core/package.json'));
    const before = new Set(Object.keys(requireHere.cache));
    const getCore = requireHere(getCorePath) as (lstmOnly: boolean, corePath: undefined, res: { progress(): void }) => Promise<unknown>;
    // createWorker (src/createWorker.js) sends { lstmOnly: true } for OEM.LSTM_ONLY.
    await getCore(true, undefined, { progress: () => undefined });
    const loaded = Object.keys(requireHere.cache)
      .filter((file) => !before.has(file) && file.startsWith(`${coreDir}${path.sep}`))
      .map((file) => path.basename(file));
    expect(loaded).toHaveLength(1);
    const removed = new Set(prune['tesseract.js-core'].remove);
    expect(removed.has(loaded[0])).toBe(false);
    expect(removed.has(loaded[0].replace(/\.js$/, '.wasm'))).toBe(false);
  });
});
