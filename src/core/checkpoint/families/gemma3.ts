// Gemma 3's multimodal checkpoints (gemma-3-4b, -12b, -27b: model_type gemma3), of which attn runs the
// text model: text_config read as Gemma 3's text model is (gemma3_text.ts's keys and defaults;
// published text_configs give a few keys and leave the rest to those defaults), the language model's
// tensors under language_model.model. (as published) or model.language_model. (as transformers 4.52
// and later save it); the vision tower and the projector are not read, so images are not either.
import { isObject } from '../../json/object.js';
import { shown } from '../../json/shown.js';
import { ModelError } from '../error.js';
import type { Family } from './shared/family.js';
import { gegluBlock, gegluTensorsAt, readGegluConfig } from './shared/geglu-decoder.js';
import { TEXT_OPTIONS, TEXT_TYPE } from './gemma3_text.js';

const PUBLISHED = gegluTensorsAt('language_model.model.', 'language_model.');
const NEWER = gegluTensorsAt('model.language_model.', '');

export const gemma3: Family<'gemma3'> = {
  name: 'gemma3',
  block: gegluBlock(TEXT_OPTIONS),
  readConfig(json, file) {
    const text = json.text_config ?? {};
    if (!isObject(text)) throw new ModelError(`${file}: "text_config" must be an object (the text model's config), got ${shown(text)}`);
    const type = text.model_type ?? TEXT_TYPE;
    if (type !== TEXT_TYPE) throw new ModelError(`${file}: "text_config"'s model_type ${shown(type)} is not supported (attn runs the text model, ${TEXT_TYPE})`);
    return readGegluConfig(text, `${file}: "text_config"`, TEXT_OPTIONS);
  },
  tensors: (c, has, block) => (has('model.language_model.embed_tokens.weight') ? NEWER : PUBLISHED)(c, has, block),
};
