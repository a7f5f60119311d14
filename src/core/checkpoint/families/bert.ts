// BERT as Hugging Face saves it: BertForMaskedLM (the encoder under "bert.", the masked-token head
// cls.predictions.{transform.dense, transform.LayerNorm, bias}, the decoder tied to the word
// embeddings), BertModel (bare names, no head), or a classifier's save ("bert." without cls.*, no
// head). The block and the keys are the shared encoder's (shared/encoder.ts); BERT adds type_vocab_size
// (its token type rows, of which row 0 is added).
import { size } from './shared/config-keys.js';
import { encoderLayout, encoderTensors, ENCODER_BLOCK, readEncoderConfig, type MlmNames } from './shared/encoder.js';
import type { Family } from './shared/family.js';

function bertHead(has: (name: string) => boolean): MlmNames {
  const t = 'cls.predictions.';
  // The decoder's bias is one parameter saved under either name (cls.predictions.bias is the usual).
  return { dense: `${t}transform.dense`, norm: `${t}transform.LayerNorm`, bias: has(`${t}decoder.bias`) && !has(`${t}bias`) ? `${t}decoder.bias` : `${t}bias`, decoder: `${t}decoder.weight` };
}

export const bert: Family<'bert'> = {
  name: 'bert',
  block: ENCODER_BLOCK,
  readConfig: (json, file) => ({ ...readEncoderConfig(json, file), tokenTypes: size(json, file, ['type_vocab_size'], 2) }),
  tensors: (c, has) => encoderTensors(c, has, encoderLayout(has, 'bert.', 'embeddings.word_embeddings.weight', bertHead(has))),
};
