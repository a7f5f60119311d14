// Words the tokenizer had to spell out: a word outside a model's vocabulary comes out as one piece per
// letter (or per byte), which the model has rarely seen and predicts poorly from ("zebra" in a
// 46-word GPT-2 is "Ġ", "z", "e", "b", "r", "a"). Found from the tokens as each id decodes alone
// (Tokenizer.decodeOne), so it reads GPT-2's byte-level pieces and SentencePiece's "▁" pieces alike.
//
// The rule, on the decoded tokens:
// - a token's *core* is the token without its leading whitespace; a token that has leading whitespace,
//   or whose core is empty, starts a new word (a whitespace-only token belongs to no word);
// - a token is *wordy* when its core is made only of letters (\p{L}), combining marks (\p{M}) and
//   U+FFFD (a lone byte of a UTF-8 character, as decodeOne writes it); any other token (punctuation,
//   digits, a special token such as "<s>") ends the word and belongs to none;
// - a word is the longest run of wordy tokens in which only the first may have leading whitespace;
// - a word is *spelled out* when it has at least MIN_LETTERS tokens and each token's core is a single
//   letter with its marks, or a single U+FFFD. Words of ideographs or kana (Han, Hiragana, Katakana)
//   are left out: one character per token is those scripts' usual case, not a missing word.
// Digits are left out on purpose: Llama-style tokenizers write every number digit by digit.

/** The fewest one-letter tokens that make a spelled-out word (two-letter words are often split in any vocabulary). */
export const MIN_LETTERS = 3;

export interface SplitWord {
  /** The word as its tokens decode (a byte of a character is U+FFFD). */
  word: string;
  /** Its first token's index and how many tokens it took. */
  first: number;
  count: number;
  /** Where the word starts and how long it is in the text the tokens came from, when found there. */
  at?: { offset: number; length: number };
}

const WORDY = /^[\p{L}\p{M}\uFFFD]+$/u;
const SINGLE = /^(?:\p{L}\p{M}*|\uFFFD)$/u;
const ONE_PER_TOKEN_SCRIPTS = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}]/u;

/**
 * The spelled-out words of a tokenization (see the rule above), in order. `text`, when given, is the
 * text the tokens came from: each word is then looked for there after the previous one, and its place
 * kept (a word with a lone byte in it is matched letter by letter around the bytes).
 */
export function splitWords(tokens: readonly string[], text?: string): SplitWord[] {
  const words: SplitWord[] = [];
  let run: { first: number; cores: string[] } | undefined;
  const end = () => {
    if (run && isSpelledOut(run.cores)) words.push({ word: run.cores.join(''), first: run.first, count: run.cores.length });
    run = undefined;
  };
  tokens.forEach((token, i) => {
    const core = token.replace(/^\s+/u, '');
    if (!WORDY.test(core)) { end(); return; }
    if (core.length !== token.length || !run) { end(); run = { first: i, cores: [] }; }
    run.cores.push(core);
  });
  end();
  if (text !== undefined) placeWords(words, text);
  return words;
}

function isSpelledOut(cores: readonly string[]): boolean {
  return cores.length >= MIN_LETTERS && cores.every((c) => SINGLE.test(c)) && !cores.some((c) => ONE_PER_TOKEN_SCRIPTS.test(c));
}

/** Finds each word in `text` in order, from where the previous one ended. */
function placeWords(words: SplitWord[], text: string): void {
  let from = 0;
  for (const w of words) {
    const pattern = new RegExp(w.word.split(/\uFFFD+/u).map(escapeRegExp).join('[^\\s\\p{P}]+?'), 'gu');
    pattern.lastIndex = from;
    const found = pattern.exec(text);
    if (!found) continue;
    w.at = { offset: found.index, length: found[0].length };
    from = found.index + found[0].length;
  }
}

function escapeRegExp(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** One sentence for the model views: the words spelled out, at most `max` of them named. */
export function splitWordsNote(words: readonly SplitWord[], max = 5): string | undefined {
  if (words.length === 0) return undefined;
  const named = [...new Set(words.map((w) => `"${w.word}"`))];
  const shown = named.slice(0, max).join(', ') + (named.length > max ? ` and ${named.length - max} more` : '');
  const one = named.length === 1;
  return `${shown} ${one ? 'is' : 'are'} not in the model's vocabulary: the tokenizer spelled ${one ? 'it' : 'them'} out letter by letter, `
    + 'and the model has rarely seen such pieces, so its attention and predictions there are less to be trusted';
}
