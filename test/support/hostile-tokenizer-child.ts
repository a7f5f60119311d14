// Run in a child Node with a capped heap by hostile-tokenizer.test.ts: builds each hostile case's
// tokenizer, encodes its text and decodes the ids, and prints one JSON line per case as it ends (so a
// hang or a crash shows which case it was): the verdict, the milliseconds and the resident memory.
import { tokenizerFrom } from '../../src/core/tokenizer/index.js';
import { TokenizerError } from '../../src/core/tokenizer/tokenizer.js';
import { decoderCases, type HostileCase, regexCases, sizeCases, vocabularyCase } from './hostile-tokenizers.js';

export interface Verdict { name: string; verdict: 'ok' | 'refused' | 'crash'; message?: string; ids?: number; ms: number; rss: number }

const { family, seed, count } = JSON.parse(process.argv[2] ?? '{}') as { family: string; seed: number; count: number };
const cases: HostileCase[] = family === 'regex' ? regexCases(seed, count)
  : family === 'size' ? sizeCases(seed, count)
  : family === 'decoder' ? decoderCases(seed, count)
  : [vocabularyCase(count)];
for (const c of cases) {
  const tokenizerJson = JSON.stringify(c.json);
  const t0 = performance.now();
  let line: Omit<Verdict, 'ms' | 'rss'>;
  try {
    const tokenizer = tokenizerFrom({ tokenizerJson });
    const { ids } = tokenizer.encode(c.text, c.limit);
    for (const id of ids.slice(0, 64)) tokenizer.decodeOne(id);
    line = { name: c.name, verdict: 'ok', ids: ids.length };
  } catch (err) {
    line = { name: c.name, verdict: err instanceof TokenizerError ? 'refused' : 'crash', message: err instanceof Error ? `${err.name}: ${err.message}` : String(err) };
  }
  process.stdout.write(`${JSON.stringify({ ...line, ms: Math.round(performance.now() - t0), rss: process.memoryUsage().rss })}\n`);
}
