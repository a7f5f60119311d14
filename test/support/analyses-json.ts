// Prints, as one JSON line, the analyses of the examples named on the command line (a SHA-256 of
// every number of their results, typed arrays by their bits, and the result's size) and whether the matrix kernel ran as
// WebAssembly: a child process of kernels' tests, run with and without WebAssembly allowed.
import { createHash } from 'node:crypto';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { ROOT } from './paths.js';
import { Analyst } from '../../src/host/analysis/analyst.js';
import { wasmKernelAvailable } from '../../src/core/kernels/gemm.js';

const examples = path.join(ROOT, 'examples');

/** Typed arrays as their bytes in hex (bit for bit: NaN payloads and −0 kept), buffers likewise. */
function bits(_key: string, value: unknown): unknown {
  if (ArrayBuffer.isView(value)) return Buffer.from(value.buffer, value.byteOffset, value.byteLength).toString('hex');
  if (value instanceof ArrayBuffer) return Buffer.from(value).toString('hex');
  return value;
}

const analyses: Record<string, string> = {};
for (const file of process.argv.slice(2)) {
  const text = fs.readFileSync(path.join(examples, file), 'utf8');
  const { ms: _ms, ...answer } = new Analyst().answer({ text, want: 'result' }) as { ms?: number };
  const json = JSON.stringify(answer, bits);
  analyses[file] = `${json.length} chars, sha256 ${createHash('sha256').update(json).digest('hex')}${json.includes('"wire"') ? ', drawn' : ''}`;
}
console.log(JSON.stringify({ wasm: wasmKernelAvailable(), analyses }));
