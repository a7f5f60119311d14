// npm run bench:linalg: the third seed's linear algebra at the sizes a user meets:
// reading the seeds' 512 → 64 spec (generating 3 × 32,768 weights), attn analyze on it and on the
// seeds' 8-head layer with W_O, one head's
// Spectrum numbers, feature statistics at 512 features (few tokens: the Gram route; many: the
// d × d route), the init lab's default stacks, and Var(q·k) for five d_k. Median ms of several runs.
// Figures, not assertions: timing belongs here, not in tests.
import { medianMs as median } from './median-time.js';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { readSpec } from '../src/core/spec/read.js';
import { analyzeSpec } from '../src/core/linalg/analyze.js';
import { headSpectrum } from '../src/core/linalg/spectrum-data.js';
import { featureStats } from '../src/core/linalg/covariance.js';
import { compareRules, scoreScaling, weightSpectrum } from '../src/core/linalg/init-lab.js';
import { createRandom, fillGaussian } from '../src/core/linalg/random.js';


const rows: [string, number][] = [];
const bench = (what: string, fn: () => void) => rows.push([what, median(fn)]);

const text = readFileSync(join(__dirname, '..', 'examples', 'seed-projection-512-64.attn.json'), 'utf8');
const spec = readSpec(text).spec!;
const gaussians = new Float64Array(1_000_000);
bench('1,000,000 seeded Gaussians (xoshiro128** + Box–Muller)', () => fillGaussian(gaussians, createRandom(1), 1));
bench('read the 512 → 64 spec (3 × 32,768 generated weights)', () => readSpec(text));
bench('attn analyze of it (contract + extras, 1 head, d_model 512)', () => analyzeSpec(spec));
bench('Spectrum numbers of its head (circuits not formed past 256)', () => headSpectrum(spec, 0));
// The seeds' full layer: 8 heads of 512 × 64 and W_O 512 × 512, all generated.
const layer = JSON.parse(text);
const xavier = (shape: number[], seed: number) => ({ init: 'xavier', shape, seed });
layer.heads = Array.from({ length: 8 }, (_, h) => ({ name: `head ${h + 1}`, wq: xavier([512, 64], 10 * h + 1), wk: xavier([512, 64], 10 * h + 2), wv: xavier([512, 64], 10 * h + 3) }));
layer.wo = xavier([512, 512], 99);
const layerSpec = readSpec(JSON.stringify(layer)).spec!;
rows.push(['attn analyze of 8 heads of 512 × 64 with W_O 512 × 512 (one run)', median(() => analyzeSpec(layerSpec), 0, 1)]);
const random = createRandom(2);
const data = (n: number, d: number) => ({ rows: n, cols: d, data: Float64Array.from({ length: n * d }, () => random.gaussian()) });
const few = data(16, 512), many = data(600, 512);
bench('feature statistics, 16 tokens × 512 features (Gram route)', () => featureStats(few));
bench('feature statistics, 600 tokens × 512 features (d × d route)', () => featureStats(many));
bench('init lab: 3 rules × 20 layers of 256 × 256, 64 samples, ReLU', () => compareRules({ width: 256, layers: 20, activation: 'relu', seed: 1 }));
bench('init lab: singular values of one 256 × 256 W', () => weightSpectrum('lecun', 256, 256, 1));
bench('init lab: Var(q·k) for d_k 1…256, 1,000 queries × 16 keys', () => scoreScaling({ dks: [1, 4, 16, 64, 256], seed: 1 }));

const width = rows.reduce((m, [w]) => Math.max(m, w.length), 0);
for (const [what, ms] of rows) console.log(`${what.padEnd(width)}  ${ms.toFixed(1).padStart(8)} ms`);
