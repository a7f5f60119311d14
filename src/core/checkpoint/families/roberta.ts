// RoBERTa as Hugging Face saves it (RobertaForMaskedLM, or RobertaModel without its head): BERT's
// encoder (bert.ts) under "roberta.", whose learned positions are counted from padding_idx + 1
// (pad_token_id, 1 in every published config): position row pad + 1 + i for the i-th token that is
// not the pad token, row pad for a pad token. So of max_position_embeddings rows (514), pad + 1 are
// never a text's position and the context is 512. The masked-token head is lm_head.{dense,
// layer_norm}, GELU between them, the decoder tied to the word embeddings plus lm_head.bias.
import { size } from './shared/config-keys.js';
import { encoderTensors, encoderLayout, ENCODER_BLOCK, readEncoderConfig, type MlmNames } from './shared/encoder.js';
import type { Family } from './shared/family.js';

function robertaHead(has: (name: string) => boolean): MlmNames {
  return { dense: 'lm_head.dense', norm: 'lm_head.layer_norm', bias: has('lm_head.decoder.bias') && !has('lm_head.bias') ? 'lm_head.decoder.bias' : 'lm_head.bias', decoder: 'lm_head.decoder.weight' };
}

export const roberta: Family<'roberta'> = {
  name: 'roberta',
  block: ENCODER_BLOCK,
  readConfig(json, file) {
    // Hugging Face's RobertaConfig defaults pad_token_id to 1; 0 is a valid pad id, so size() (≥ 1) is not used.
    const pad = json.pad_token_id === undefined || json.pad_token_id === null ? 1 : json.pad_token_id === 0 ? 0 : size(json, file, ['pad_token_id']);
    return { ...readEncoderConfig(json, file, pad + 1), paddingIdx: pad, tokenTypes: size(json, file, ['type_vocab_size'], 2) };
  },
  tensors: (c, has) => encoderTensors(c, has, encoderLayout(has, 'roberta.', 'embeddings.word_embeddings.weight', robertaHead(has))),
};
