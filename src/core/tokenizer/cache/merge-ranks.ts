// The ranks of a BPE's merges, looked up by the two pieces' indexes in the vocabulary: an open-addressing
// table in typed arrays. The library keys its ranks by JSON.stringify([a, b]) in a Map, which costs a
// string and a hash per merge to build (280,147 for Llama 3) and per lookup; this table is built from the
// merges as index pairs in a few milliseconds, from a fresh tokenizer.json or from the cache alike.

/** A merge's rank from its two pieces' indexes, or -1 when they do not merge. */
export interface MergeRanks {
  rank(a: number, b: number): number;
}

const hash = (a: number, b: number) => (Math.imul(a, 0x9e3779b1) ^ Math.imul(b + 1, 0x85ebca77)) >>> 0;

/**
 * `pairs` holds merge i's pieces at 2i and 2i + 1. A pair listed twice takes its last rank, as the
 * library's `new Map(entries)` does.
 */
export function mergeRanks(pairs: Uint32Array): MergeRanks {
  const count = pairs.length >>> 1;
  let size = 4;
  while (size < count * 2) size *= 2;
  const mask = size - 1;
  const first = new Int32Array(size).fill(-1);
  const second = new Int32Array(size);
  const ranks = new Int32Array(size);
  for (let i = 0; i < count; i++) {
    const a = pairs[2 * i], b = pairs[2 * i + 1];
    let slot = hash(a, b) & mask;
    while (first[slot] !== -1 && (first[slot] !== a || second[slot] !== b)) slot = (slot + 1) & mask;
    first[slot] = a;
    second[slot] = b;
    ranks[slot] = i;
  }
  return {
    rank(a, b) {
      // At most half the slots are taken: the probe meets an empty slot.
      for (let slot = hash(a, b) & mask; first[slot] !== -1; slot = (slot + 1) & mask) {
        if (first[slot] === a && second[slot] === b) return ranks[slot];
      }
      return -1;
    },
  };
}
