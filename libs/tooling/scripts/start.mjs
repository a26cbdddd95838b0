// `npm start`: compile (SWC, ~1 s) and run the whole product in one process on embedded defaults.
import { spawn } from 'node:child_process';
import path from 'node:path';
import { build } from '../build.mjs';

const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), '../../..');
const count = await build();
console.log(`compiled ${count} files`);
const child = spawn(process.execPath, [path.join(root, 'dist/apps/medfolio/src/main.js')], { stdio: 'inherit', cwd: root });
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => child.kill(signal));
child.on('exit', (code, signal) => process.exit(code ?? (signal ? 0 : 1)));
