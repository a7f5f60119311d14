// A tokenizer over ids written out ("3 17 5"), for tests of the runner on in-memory checkpoints
// that have no tokenizer files: each number is its id, each id decodes to "t<id>".
import type { Tokenizer } from '../../src/core/tokenizer/tokenizer.js';

export function idsTokenizer(vocabSize: number): Tokenizer {
  return {
    vocabSize,
    encode(text, limit) {
      const ids = text.split(/\s+/).filter((s) => s.length > 0).map((s) => (/^t?[0-9]+$/.test(s) ? Number(s.replace('t', '')) : vocabSize - 1));
      const kept = limit === undefined ? ids : ids.slice(0, limit);
      return { ids: kept, pieces: kept.map((id) => `t${id}`) };
    },
    decodeOne: (id) => `t${id}`,
    pieceOf: (id) => `t${id}`,
  };
}
