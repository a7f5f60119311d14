// Times every view on jsdom (the `attn render` path) for 64, 256 and 1024 tokens:
//   node --import tsx scripts/bench-views.ts [--sizes 64,256,1024] [--runs 3]
// Prints one line per view and size: the median draw+serialise time and the SVG's size.
import { analyze } from '../src/core/index.js';
import { renderSvg } from '../src/cli/render.js';
import type { AnyView } from '../webview/views.js';

const arg = (name: string, dflt: string) => {
  const i = process.argv.indexOf(name);
  return i >= 0 && process.argv[i + 1] ? process.argv[i + 1] : dflt;
};
const sizes = arg('--sizes', '64,256,1024').split(',').map(Number);
const runs = Number(arg('--runs', '3'));
const views: AnyView[] = ['arcs', 'matrix', 'steps', 'quadrant', 'projection', 'compare', 'summary'];

function spec(n: number) {
  const d = 16;
  const features = Array.from({ length: d }, (_, i) => `f${i}`);
  const vocab = Array.from({ length: Math.min(n, 200) }, (_, i) => `w${i}`);
  let seed = 1;
  const rnd = () => ((seed = (seed * 16807) % 2147483647) / 2147483647) * 2 - 1;
  const embeddings = Object.fromEntries(vocab.map((w) => [w, features.map(() => Number(rnd().toFixed(3)))]));
  const w = (r: number, c: number) => Array.from({ length: r }, () => Array.from({ length: c }, () => Number((rnd() * 0.5).toFixed(3))));
  const heads = [0, 1].map((h) => ({ name: `head ${h + 1}`, wq: w(d, 4), wk: w(d, 4), wv: w(d, 4) }));
  const tokens = Array.from({ length: n }, (_, i) => vocab[(i * 7) % vocab.length]);
  return JSON.stringify({
    features, embeddings, heads, mask: 'causal', scale: 'sqrt_dk',
    inputs: [{ name: `${n} tokens`, tokens }, { name: 'second', tokens: tokens.slice().reverse() }],
  });
}

console.log('view        tokens   median ms   SVG kB');
for (const n of sizes) {
  const t0 = performance.now();
  const a = analyze(spec(n));
  if (!a.json) throw new Error(a.problems.map((p) => p.message).join('; '));
  const analyzeMs = performance.now() - t0;
  console.log(`(analyze)   ${String(n).padStart(6)}   ${analyzeMs.toFixed(1).padStart(9)}`);
  for (const view of views) {
    const times: number[] = [];
    let size = 0;
    for (let r = 0; r < runs; r++) {
      const s = performance.now();
      const svg = renderSvg(a.json, view, { head: view === 'arcs' || view === 'matrix' ? 'all' : 0, token: n - 1 });
      times.push(performance.now() - s);
      size = svg.length;
    }
    times.sort((x, y) => x - y);
    console.log(`${view.padEnd(11)} ${String(n).padStart(6)}   ${times[Math.floor(times.length / 2)].toFixed(1).padStart(9)}   ${(size / 1024).toFixed(0).padStart(6)}`);
  }
}
