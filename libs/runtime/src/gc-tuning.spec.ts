import { execFileSync } from 'node:child_process';
import { tuneGarbageCollector } from './gc-tuning';

describe('tuneGarbageCollector', () => {
  it('sets both incremental-marking triggers from "soft,hard"', () => {
    const set: string[] = [];
    tuneGarbageCollector('80,95', (flags) => set.push(flags));
    expect(set).toEqual(['--incremental-marking-soft-trigger=80', '--incremental-marking-hard-trigger=95']);
  });

  it('leaves V8 alone for "v8"', () => {
    const set: string[] = [];
    tuneGarbageCollector('v8', (flags) => set.push(flags));
    expect(set).toEqual([]);
  });

  it('refuses anything else with a message naming the variable', () => {
    expect(() => tuneGarbageCollector('80', () => undefined)).toThrow(/GC_MARKING_TRIGGERS/);
    expect(() => tuneGarbageCollector('80,95 --expose-gc', () => undefined)).toThrow(/GC_MARKING_TRIGGERS/);
  });

  it('is accepted by this Node at run time (the flags exist and the process keeps running)', () => {
    const script =
      "const v8 = require('node:v8');" +
      "v8.setFlagsFromString('--incremental-marking-soft-trigger=80');" +
      "v8.setFlagsFromString('--incremental-marking-hard-trigger=95');" +
      'const kept = []; for (let i = 0; i < 2e5; i += 1) kept.push({ i }); process.stdout.write(String(kept.length));';
    // --v8-options lists the flags this V8 knows: a renamed flag would be silently ignored otherwise.
    const options = execFileSync(process.execPath, ['--v8-options'], { encoding: 'utf8' });
    expect(options).toContain('--incremental-marking-soft-trigger');
    expect(options).toContain('--incremental-marking-hard-trigger');
    expect(execFileSync(process.execPath, ['-e', script], { encoding: 'utf8' })).toBe('200000');
  });
});
