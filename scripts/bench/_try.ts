import { readFileSync, writeFileSync } from 'node:fs';
import { tokenizerFrom } from '../../src/core/tokenizer/index.js';
const [dir, n, out] = process.argv.slice(2);
const ids = tokenizerFrom({ tokenizerJson: readFileSync(`${dir}/tokenizer.json`, 'utf8') }).encode(readFileSync('/tmp/bm-text.txt', 'utf8'), Number(n)).ids.slice(0, Number(n));
writeFileSync(out, JSON.stringify({ dir, ids, matrices: [{ k: 768, m: 2304, count: 12 }], attention: [{ label: 'f64', file: '/tmp/bm-g.safetensors' }] }));
console.log(ids.slice(0, 5));
