// The model families the runner computes, one line each: the only list of them. The config reader,
// the type of a model's family, the Hugging Face cache listing and the help texts all derive from it
// (index.ts), so a family is added here and in its own description file, and nowhere else.
export { gpt2 } from './gpt2.js';
export { llama } from './llama.js';
export { qwen2 } from './qwen2.js';
export { mistral } from './mistral.js';
export { gemma } from './gemma.js';
export { gemma2 } from './gemma2.js';
export { gemma3_text } from './gemma3_text.js';
export { gemma3 } from './gemma3.js';
