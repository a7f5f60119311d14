// A token named on the command line or in a spec (--target, --contrast): digits alone are an id;
// anything else is a text that must encode to exactly one token on its own (the tokenizer's added
// tokens, a BOS or a CLS/SEP pair, set aside: they are what an empty text encodes to).
import { ModelError } from '../checkpoint/error.js';
import type { Tokenizer } from '../tokenizer/tokenizer.js';

/** The id `arg` names, or a ModelError saying why it names none; `what` is how messages name the argument. */
export function tokenArgument(arg: string, tokenizer: Tokenizer, vocab: number, what: string): number {
  if (/^[0-9]+$/.test(arg)) {
    const id = Number(arg);
    if (!Number.isSafeInteger(id) || id >= vocab) throw new ModelError(`${what} ${arg} is not a token id of this model (its vocabulary has ${vocab} ids, 0 to ${vocab - 1})`);
    return id;
  }
  if (arg.length === 0) throw new ModelError(`${what} is empty: give a token as text (" sat") or as an id`);
  const { ids, cut } = ownIds(tokenizer, arg);
  if (ids.length !== 1) {
    const shown = ids.slice(0, 8).map((id) => JSON.stringify(tokenizer.decodeOne(id))).join(' ');
    // Encoded no further than LIMIT ids: a long text is "N or more", not the count of a cut one.
    const count = cut ? `${ids.length} or more` : String(ids.length);
    throw new ModelError(`${what} ${JSON.stringify(arg.slice(0, 80))}${arg.length > 80 ? '…' : ''} is ${count} tokens (${shown}${ids.length > 8 ? ' …' : ''}), not one: give one token, or its id`);
  }
  if (ids[0] >= vocab) throw new ModelError(`${what} ${JSON.stringify(arg.slice(0, 80))} is id ${ids[0]}, past the model's vocabulary of ${vocab}`);
  return ids[0];
}

/** How many ids a token argument is encoded to at most: enough to tell one token from several. */
const LIMIT = 64;

/**
 * The ids of `text` without the ones the tokenizer adds to every text (those of an empty text, before
 * and after); `cut` when the text encodes to more than LIMIT ids (then only those at the start are
 * set aside: the end's were cut off with the text).
 */
function ownIds(tokenizer: Tokenizer, text: string): { ids: number[]; cut: boolean } {
  const ids = tokenizer.encode(text, LIMIT + 1).ids;
  const added = tokenizer.encode('').ids;
  if (ids.length > LIMIT) {
    const found = added.findIndex((id, i) => ids[i] !== id), before = found < 0 ? added.length : found;
    return { ids: ids.slice(before, before + LIMIT), cut: true };
  }
  // The added ids split between the start and the end (BOS alone; CLS … SEP): the split that matches.
  for (let before = added.length; before >= 0; before--) {
    const after = added.length - before;
    if (ids.length < added.length) continue;
    const head = ids.slice(0, before), tail = ids.slice(ids.length - after);
    if (head.every((id, i) => id === added[i]) && tail.every((id, i) => id === added[before + i])) return { ids: ids.slice(before, ids.length - after), cut: false };
  }
  return { ids, cut: false };
}
