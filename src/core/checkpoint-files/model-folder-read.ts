// A model folder in Hugging Face's layout, read through FolderFiles (folder-files.ts), whatever backs
// it (the disk, or the web's files in memory): config.json, the weights (model.safetensors, or the
// shards model.safetensors.index.json names) and the tokenizer's files (tokenizer.json,
// tokenizer_config.json, or GPT-2's vocab.json + merges.txt). Only these names are opened: the
// index's shard names must be plain file names (no "../x", no folder), so nothing a file says makes
// us read outside the folder. Text files are read within a byte budget; the weights are only opened
// here (their headers read), the numbers are read later at their offsets, one tensor at a time.
// This file is pure: the browser bundles take it.
import { readSafetensors } from '../tensors/safetensors.js';
import { TensorFileError, type ByteSource } from '../tensors/source.js';
import type { TensorRef } from '../tensors/attention-file.js';
import type { TokenizerFiles } from '../tokenizer/tokenizer.js';
import { isObject } from '../json/object.js';
import { ModelError } from '../checkpoint/error.js';
import type { FolderFiles } from './folder-files.js';

/** config.json, the index and tokenizer_config.json are small; more is not one of them. */
export const MAX_CONFIG_BYTES = 4 * 1024 * 1024;
/** tokenizer.json of a 150k-token vocabulary is about 11 MB; vocab.json and merges.txt less. */
export const MAX_TOKENIZER_BYTES = 64 * 1024 * 1024;

/** The names a model folder's reader may open besides the shards an index names. */
export const MODEL_FILE_NAMES = ['config.json', 'model.safetensors.index.json', 'model.safetensors', 'tokenizer.json', 'tokenizer_config.json', 'vocab.json', 'merges.txt', 'vocab.txt'] as const;

/** The most bytes the reader reads of a small file it reads whole; undefined for weights (opened, read at offsets). */
export function readLimit(name: string): number | undefined {
  if (name === 'config.json' || name === 'model.safetensors.index.json' || name === 'tokenizer_config.json') return MAX_CONFIG_BYTES;
  if (name === 'tokenizer.json' || name === 'vocab.json' || name === 'merges.txt' || name === 'vocab.txt') return MAX_TOKENIZER_BYTES;
  return undefined;
}

/**
 * The files of MODEL_FILE_NAMES the reader opens, given which of them are there (`has`: a file or
 * not, anything by that name): the index rather than model.safetensors, tokenizer.json rather than
 * the vocabularies, as readModelFolderFrom decides. The shards the index names come on top.
 */
export function filesOpened(has: (name: string) => boolean): string[] {
  const weights = has('model.safetensors.index.json') ? 'model.safetensors.index.json' : 'model.safetensors';
  const tokenizer = has('tokenizer.json') ? ['tokenizer.json', 'tokenizer_config.json']
    : ['tokenizer_config.json', 'vocab.json', 'merges.txt', ...(has('vocab.json') || has('merges.txt') ? [] : ['vocab.txt'])];
  return ['config.json', weights, ...tokenizer].filter(has);
}

/** The reader's sentence for a small file that is not a regular file (`detail` says what it is). */
export function notRegularText(path: string, name: string, detail: string): string {
  return `${path}: not a regular file (${detail}): a model folder's ${name} is a file`;
}

/** The reader's sentence for a small file over its limit. */
export function tooLargeText(path: string, name: string, maxBytes: number): string {
  return `${path}: more than ${maxBytes} bytes, too large for a ${name}`;
}

export interface ModelFolder {
  folder: string;
  configText: string;
  /** Every tensor of every weights file, by name. */
  tensors: Map<string, TensorRef>;
  /** The file that holds a tensor, for messages. */
  where(name: string): string;
  tokenizerFiles: TokenizerFiles;
  /** Every file read (for the rule that an output never replaces an input). */
  files: string[];
  close(): void;
}

/** The text of `name` in the folder within `maxBytes`; undefined when it does not exist (with `optional`). */
function readText(files: FolderFiles, name: string, maxBytes: number, optional: boolean, hashed?: (sha256: string) => void): string | undefined {
  const path = files.path(name);
  const read = files.read(name, maxBytes);
  if ('refused' in read) {
    switch (read.refused) {
      case 'missing': if (optional) return undefined; throw new ModelError(`${path}: no such file`);
      case 'not-regular': throw new ModelError(notRegularText(path, name, read.detail));
      case 'too-large': throw new ModelError(tooLargeText(path, name, maxBytes));
      case 'unreadable': throw new ModelError(`${path}: cannot open (${read.detail})`);
    }
  }
  if (hashed && files.sha256) hashed(files.sha256(read.bytes));
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(read.bytes);
  } catch {
    throw new ModelError(`${path}: not UTF-8 text`);
  }
}

/** A shard's name as the index gives it: a plain file name ending in .safetensors, nothing else. */
export function checkShardName(index: string, tensor: string, name: unknown): string {
  if (typeof name !== 'string' || !/^[^/\\]+\.safetensors$/i.test(name) || name === '.' || name === '..' || name.startsWith('.')) {
    throw new ModelError(`${index}: the shard of ${JSON.stringify(tensor)} is ${JSON.stringify(name)}; a shard must be a plain .safetensors file name in the model folder`);
  }
  return name;
}

/** The shards the index names, each with the tensors it must hold; `index` names the file in messages. */
export function readIndex(index: string, text: string): Map<string, string[]> {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    throw new ModelError(`${index}: not valid JSON`);
  }
  if (!isObject(json) || !isObject(json.weight_map)) throw new ModelError(`${index}: expected { "weight_map": { tensor name: shard file } }`);
  const shards = new Map<string, string[]>();
  for (const [tensor, shard] of Object.entries(json.weight_map)) {
    const name = checkShardName(index, tensor, shard);
    const list = shards.get(name) ?? [];
    list.push(tensor);
    shards.set(name, list);
  }
  if (shards.size === 0) throw new ModelError(`${index}: "weight_map" names no tensors`);
  return shards;
}

/** Refuses the files of a truncated safetensors file: every tensor's data must lie within the file. */
function openWeights(source: ByteSource): TensorRef[] {
  try {
    return readSafetensors(source).tensors;
  } catch (e) {
    source.close();
    throw e;
  }
}

export function readModelFolderFrom(files: FolderFiles): ModelFolder {
  const { folder } = files;
  const sources: ByteSource[] = [];
  const close = () => { for (const s of sources) s.close(); };
  try {
    files.checkFolder();
    const configText = readText(files, 'config.json', MAX_CONFIG_BYTES, true);
    if (configText === undefined) throw new ModelError(`${files.path('config.json')}: no such file (a model folder has config.json, the weights and the tokenizer's files)`);
    const read = [files.path('config.json')];
    const tensors = new Map<string, TensorRef>();
    const holder = new Map<string, string>();
    // The index decides where each tensor it names is read from: a copy in another shard is not
    // used (the loader reads the one the index names), and a tensor the index does not name but two
    // shards hold is refused, naming both, since nothing says which copy is the model's.
    let shardOf = new Map<string, string>();
    const add = (source: ByteSource, wanted?: readonly string[]) => {
      const path = source.name;
      const found = openWeights(source);
      sources.push(source);
      read.push(path);
      for (const t of found) {
        const named = shardOf.get(t.name);
        if (named !== undefined && named !== path) continue;
        const earlier = holder.get(t.name);
        if (earlier !== undefined) {
          throw new ModelError(`${path}: tensor ${JSON.stringify(t.name)} is also in ${earlier}, and model.safetensors.index.json names neither: remove one copy, or name its shard in the index`);
        }
        tensors.set(t.name, t);
        holder.set(t.name, path);
      }
      for (const name of wanted ?? []) {
        if (!found.some((t) => t.name === name)) throw new ModelError(`${path}: tensor ${JSON.stringify(name)} is missing, though model.safetensors.index.json puts it in this shard`);
      }
    };
    const indexText = readText(files, 'model.safetensors.index.json', MAX_CONFIG_BYTES, true);
    if (indexText !== undefined) {
      read.push(files.path('model.safetensors.index.json'));
      const shards = readIndex(files.path('model.safetensors.index.json'), indexText);
      shardOf = new Map([...shards].flatMap(([shard, names]) => names.map((name) => [name, files.path(shard)] as const)));
      for (const [shard, wanted] of shards) {
        const source = files.open(shard);
        if (!source) throw new ModelError(`${files.path(shard)}: no such file, though model.safetensors.index.json names it as a shard`);
        add(source, wanted);
      }
    } else {
      const source = files.open('model.safetensors');
      if (!source) throw new ModelError(`${files.path('model.safetensors')}: no such file (nor model.safetensors.index.json): the folder has no weights attn reads`);
      add(source);
    }
    const tokenizerFiles = readTokenizerFiles(files, read);
    return {
      folder, configText, tensors, tokenizerFiles, files: read, close,
      where: (name) => holder.get(name) ?? files.path(indexText !== undefined ? 'model.safetensors.index.json' : 'model.safetensors'),
    };
  } catch (e) {
    close();
    if (e instanceof TensorFileError) throw new ModelError(e.message);
    throw e;
  }
}

/** tokenizer.json (with tokenizer_config.json when present), else vocab.json + merges.txt, else vocab.txt, else a sentence. */
function readTokenizerFiles(files: FolderFiles, read: string[]): TokenizerFiles {
  let sha256: string | undefined;
  const text = (name: string, max: number) => {
    const t = readText(files, name, max, true, name === 'tokenizer.json' ? (h) => { sha256 = h; } : undefined);
    if (t !== undefined) read.push(files.path(name));
    return t;
  };
  const tokenizerJson = text('tokenizer.json', MAX_TOKENIZER_BYTES);
  const tokenizerConfigJson = text('tokenizer_config.json', MAX_CONFIG_BYTES);
  const config = tokenizerConfigJson !== undefined ? { tokenizerConfigJson } : {};
  if (tokenizerJson !== undefined) return { tokenizerJson, ...(sha256 !== undefined ? { tokenizerJsonSha256: sha256 } : {}), ...config };
  const vocabJson = text('vocab.json', MAX_TOKENIZER_BYTES);
  const mergesTxt = text('merges.txt', MAX_TOKENIZER_BYTES);
  if (vocabJson !== undefined && mergesTxt !== undefined) return { vocabJson, mergesTxt, ...config };
  const vocabTxt = vocabJson === undefined && mergesTxt === undefined ? text('vocab.txt', MAX_TOKENIZER_BYTES) : undefined;
  if (vocabTxt !== undefined) return { vocabTxt, ...config };
  throw new ModelError(`${files.path('tokenizer.json')}: no such file (nor vocab.json with merges.txt, nor vocab.txt): the folder has no tokenizer`);
}
