// Seeded random numbers for the core: generated weights ("init" in a spec), the initialisation lab
// and every test built on them must give the same numbers on every machine and every run, so
// Math.random is never used. The generator is xoshiro128** (Blackman & Vigna, 2018): 128 bits of
// state, 32-bit integer arithmetic only (exact in JavaScript through Math.imul and >>> 0), period
// 2^128 − 1. Its state is filled from the seed by splitmix32, as the authors recommend, so nearby
// seeds (7, 8) give unrelated streams. Gaussians come from the Box–Muller transform.

export interface Random {
  /** The next 32-bit unsigned integer. */
  nextUint32(): number;
  /** Uniform in [0, 1), with 53 random bits (two draws). */
  uniform(): number;
  /** Standard normal: mean 0, variance 1. */
  gaussian(): number;
}

/** splitmix32: a fast mixer, used only to turn the seed into the generator's starting state. */
function splitmix32(state: { s: number }): number {
  state.s = (state.s + 0x9e3779b9) | 0;
  let z = state.s;
  z = Math.imul(z ^ (z >>> 16), 0x85ebca6b);
  z = Math.imul(z ^ (z >>> 13), 0xc2b2ae35);
  return (z ^ (z >>> 16)) >>> 0;
}

const rotl = (x: number, k: number) => (x << k) | (x >>> (32 - k));

/** murmur3's finaliser: a bijection of 32-bit words that keeps 0 at 0. */
function fmix32(h: number): number {
  h = Math.imul(h ^ (h >>> 16), 0x85ebca6b);
  h = Math.imul(h ^ (h >>> 13), 0xc2b2ae35);
  return (h ^ (h >>> 16)) >>> 0;
}

/**
 * A generator from an integer seed. Any safe integer is accepted (negative ones too), and two seeds
 * never share a state: the low word alone makes four words as splitmix32 does (word one gives the
 * low word back), and the high word is folded into words two and four through a bijection that
 * keeps 0 at 0 (word two, once the low word is known, gives the high word back). A seed below 2^32
 * has the state it always had; once the high word was folded into splitmix32's 32-bit state, which
 * made 2^53 seeds share 2^32 states (0 and 4,759,230,683 drew the same matrix).
 */
export function createRandom(seed: number): Random {
  if (!Number.isSafeInteger(seed)) throw new RangeError(`createRandom: the seed must be a safe integer, got ${seed}`);
  const lo = seed >>> 0;
  const hi = Math.floor(seed / 4294967296) >>> 0;
  const mix = { s: lo };
  splitmix32(mix);
  const words: [number, number, number, number] = [splitmix32(mix), splitmix32(mix), splitmix32(mix), splitmix32(mix)];
  // Word two is the next generator's first output's only input: the high word changes it at once.
  words[1] = (words[1] ^ fmix32(hi)) >>> 0;
  words[3] = (words[3] ^ fmix32(rotl(hi, 16) >>> 0)) >>> 0;
  return xoshiro128ss(words);
}

/** xoshiro128** from its raw 128-bit state (four 32-bit words), as in the authors' C reference. */
export function xoshiro128ss(state: readonly [number, number, number, number]): Random {
  let [a, b, c, d] = state.map((x) => x | 0);
  // The state must not be all zeros (it would stay zero); splitmix32 makes that all but impossible, and this makes it impossible.
  if ((a | b | c | d) === 0) a = 1;

  function nextUint32(): number {
    const result = Math.imul(rotl(Math.imul(b, 5), 7), 9) >>> 0;
    const t = b << 9;
    c ^= a; d ^= b; b ^= c; a ^= d;
    c ^= t;
    d = rotl(d, 11);
    return result;
  }

  function uniform(): number {
    // 27 + 26 bits, as in the usual 53-bit double from two 32-bit draws.
    const x = nextUint32() >>> 5, y = nextUint32() >>> 6;
    return (x * 67108864 + y) / 9007199254740992;
  }

  // Box–Muller gives two independent normals per pair of uniforms; the second is kept for the next call.
  let spare: number | undefined;
  function gaussian(): number {
    if (spare !== undefined) {
      const s = spare;
      spare = undefined;
      return s;
    }
    const u1 = 1 - uniform(); // (0, 1]: log(0) would be −Infinity
    const u2 = uniform();
    const r = Math.sqrt(-2 * Math.log(u1));
    const theta = 2 * Math.PI * u2;
    spare = r * Math.sin(theta);
    return r * Math.cos(theta);
  }

  return { nextUint32, uniform, gaussian };
}

/** Fills `out` with normals of mean 0 and the given variance (a variance of 0 gives zeros). */
export function fillGaussian(out: Float64Array, random: Random, variance: number): Float64Array {
  if (!(variance >= 0) || !Number.isFinite(variance)) throw new RangeError(`fillGaussian: the variance must be finite and ≥ 0, got ${variance}`);
  // Zero variance gives plain zeros (0 · a negative normal would be −0, which prints as "-0").
  if (variance === 0) return out.fill(0);
  const sd = Math.sqrt(variance);
  for (let i = 0; i < out.length; i++) out[i] = sd * random.gaussian();
  return out;
}
