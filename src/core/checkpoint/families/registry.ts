// The model families the runner computes, one line each: the only list of them. The config reader,
// the type of a model's family, the Hugging Face cache listing and the help texts all derive from it
// (index.ts), so a family is added here and in its own description file, and nowhere else.
export { gpt2 } from './gpt2.js';
export { llama } from './llama.js';
export { qwen2 } from './qwen2.js';
export { mistral } from './mistral.js';
export { qwen3 } from './qwen3.js';
export { phi3 } from './phi3.js';
export { gpt_neox } from './gpt_neox.js';
export { bert } from './bert.js';
export { roberta } from './roberta.js';
export { distilbert } from './distilbert.js';
export { gemma } from './gemma.js';
export { gemma2 } from './gemma2.js';
export { gemma3_text } from './gemma3_text.js';
export { gemma3 } from './gemma3.js';
