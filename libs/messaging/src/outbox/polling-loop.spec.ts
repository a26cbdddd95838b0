import { PollingLoop } from './polling-loop';

const tick = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('PollingLoop', () => {
  it('runs at once, then every interval, never two passes at a time, and stops cleanly', async () => {
    let running = 0;
    let maxRunning = 0;
    let passes = 0;
    const loop = new PollingLoop(async () => {
      running += 1;
      maxRunning = Math.max(maxRunning, running);
      await tick(15);
      passes += 1;
      running -= 1;
    }, 20);
    loop.start();
    loop.kick();
    loop.kick();
    // Until three passes ran (a busy machine may take longer than 120 ms), but no longer than 5 s.
    for (let waited = 0; (waited < 120 || passes < 3) && waited < 5000; waited += 20) await tick(20);
    await loop.stop();
    const after = passes;
    await tick(60);
    expect(maxRunning).toBe(1);
    expect(passes).toBeGreaterThanOrEqual(3);
    expect(passes).toBe(after);
    expect(loop.isRunning).toBe(false);
  });

  it('runs again right after the current pass when kicked during it', async () => {
    const starts: number[] = [];
    const t0 = Date.now();
    const loop = new PollingLoop(async () => {
      starts.push(Date.now() - t0);
      await tick(20);
    }, 10_000);
    loop.start();
    await tick(5);
    loop.kick();
    await tick(80);
    await loop.stop();
    expect(starts).toHaveLength(2);
    expect(starts[1]!).toBeLessThan(200);
  });
});
