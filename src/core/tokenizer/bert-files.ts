// A BERT folder without tokenizer.json: vocab.txt (one piece a line, the id its line number) and
// tokenizer_config.json's switches, read into the tokenizer.json that Hugging Face's converter writes
// for them (BertTokenizerFast): BERT's normalizer (lower-casing and accent stripping as do_lower_case
// and strip_accents say, Chinese characters padded unless tokenize_chinese_chars is false), BERT's
// pre-tokenizer, a WordPiece with "##", [CLS] … [SEP] around the text, and the special tokens split out.
import { isObject, type Obj } from '../json/object.js';
import { parseJsonFile } from './check-json.js';
import { TokenizerError } from './tokenizer.js';

/** tokenizer_config.json names a token as a string or as { "content": … }. */
const tokenName = (value: unknown, fallback: string): string => (typeof value === 'string' ? value : isObject(value) && typeof value.content === 'string' ? value.content : fallback);

/** The tokenizer.json that vocab.txt (and tokenizer_config.json, when given) stand for. */
export function vocabTxtTokenizerJson(vocabTxt: string, configJson?: string): Obj {
  const config = configJson === undefined ? {} : parseJsonFile(configJson, 'tokenizer_config.json');
  if (!isObject(config)) throw new TokenizerError('tokenizer_config.json: is not a JSON object');
  const vocab: Record<string, number> = {};
  const lines = vocabTxt.split('\n');
  // The file ends with a newline: the empty last line is no piece.
  if (lines[lines.length - 1] === '') lines.pop();
  lines.forEach((line, id) => { vocab[line.endsWith('\r') ? line.slice(0, -1) : line] = id; });
  const lower = config.do_lower_case !== false;
  const flag = (key: string) => (typeof config[key] === 'boolean' ? config[key] : null);
  const names = {
    unk: tokenName(config.unk_token, '[UNK]'), cls: tokenName(config.cls_token, '[CLS]'), sep: tokenName(config.sep_token, '[SEP]'),
    pad: tokenName(config.pad_token, '[PAD]'), mask: tokenName(config.mask_token, '[MASK]'),
  };
  for (const key of ['unk', 'cls', 'sep'] as const) {
    if (!Object.hasOwn(vocab, names[key])) throw new TokenizerError(`vocab.txt: has no line ${JSON.stringify(names[key])} (the ${key} token${configJson === undefined ? '' : ' tokenizer_config.json names'})`);
  }
  const special = [names.pad, names.unk, names.cls, names.sep, names.mask].filter((c, i, all) => Object.hasOwn(vocab, c) && all.indexOf(c) === i);
  const template = (id: string) => ({ id, ids: [vocab[id]], tokens: [id] });
  return {
    added_tokens: special.map((content) => ({ id: vocab[content], content, single_word: false, lstrip: false, rstrip: false, normalized: false, special: true })),
    normalizer: { type: 'BertNormalizer', clean_text: true, handle_chinese_chars: config.tokenize_chinese_chars !== false, strip_accents: flag('strip_accents'), lowercase: lower },
    pre_tokenizer: { type: 'BertPreTokenizer' },
    post_processor: {
      type: 'TemplateProcessing',
      single: [{ SpecialToken: { id: names.cls, type_id: 0 } }, { Sequence: { id: 'A', type_id: 0 } }, { SpecialToken: { id: names.sep, type_id: 0 } }],
      special_tokens: { [names.cls]: template(names.cls), [names.sep]: template(names.sep) },
    },
    decoder: { type: 'WordPiece', prefix: '##', cleanup: true },
    model: { type: 'WordPiece', unk_token: names.unk, continuing_subword_prefix: '##', max_input_chars_per_word: 100, vocab },
  };
}
