// The page's entry script: the stylesheet, then the app (src/main.tsx) as a separate chunk.
//
// A prerendered page (the gateway sent it already rendered, src/prerender.tsx) is painted first and
// only then taken over: after the browser's next frame, this script preloads the page's route chunks
// (named by the gateway in data-chunks) and loads the app, so no script download or start-up work
// competes with the first paint. Any other page starts the app at once (its chunks are preloaded by
// <link> tags in the HTML). A background tab paints no frames, so a timer starts it there too.
import './index.css';

const root = document.getElementById('root');
let started = false;

function start() {
  if (started) return;
  started = true;
  for (const file of root?.dataset.chunks?.split(' ') ?? []) {
    if (!/^assets\/[\w.-]+\.js$/.test(file)) continue;
    const link = document.createElement('link');
    link.rel = 'modulepreload';
    link.href = `/${file}`;
    document.head.append(link);
  }
  void import('./main');
}

if (root?.dataset.prerendered) {
  requestAnimationFrame(() => setTimeout(start, 0));
  setTimeout(start, 250);
} else {
  start();
}
