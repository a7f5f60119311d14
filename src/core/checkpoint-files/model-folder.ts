// A model folder in Hugging Face's layout, read as it is on disk: config.json, the weights
// (model.safetensors, or the shards model.safetensors.index.json names) and the tokenizer's files
// (tokenizer.json, tokenizer_config.json, or GPT-2's vocab.json + merges.txt). Only these names are
// opened, each a regular file inside the folder: the index's shard names must be plain file names
// (no "../x", no folder), so nothing a file says makes us read outside the folder. Text files are
// read within a byte budget; the weights are only opened here (their headers read), the numbers
// are read later at their offsets, one tensor at a time.
import { createHash } from 'node:crypto';
import { closeSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { openRegularFile, fileSource } from '../files/file-source.js';
import { fileKind, readBounded } from '../files/read-bounded.js';
import { readSafetensors } from '../tensors/safetensors.js';
import { TensorFileError, type ByteSource } from '../tensors/source.js';
import type { TensorRef } from '../tensors/attention-file.js';
import type { TokenizerFiles } from '../tokenizer/tokenizer.js';
import { isObject } from '../json/object.js';
import { ModelError } from '../checkpoint/error.js';

/** config.json, the index and tokenizer_config.json are small; more is not one of them. */
export const MAX_CONFIG_BYTES = 4 * 1024 * 1024;
/** tokenizer.json of a 150k-token vocabulary is about 11 MB; vocab.json and merges.txt less. */
export const MAX_TOKENIZER_BYTES = 64 * 1024 * 1024;

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
function readText(folder: string, name: string, maxBytes: number, optional: boolean, hashed?: (sha256: string) => void): string | undefined {
  const path = join(folder, name);
  const read = readBounded(path, maxBytes);
  if ('refused' in read) {
    switch (read.refused) {
      case 'missing': if (optional) return undefined; throw new ModelError(`${path}: no such file`);
      case 'not-regular': throw new ModelError(`${path}: not a regular file (${read.detail}): a model folder's ${name} is a file`);
      case 'too-large': throw new ModelError(`${path}: more than ${maxBytes} bytes, too large for a ${name}`);
      case 'unreadable': throw new ModelError(`${path}: cannot open (${read.detail})`);
    }
  }
  hashed?.(createHash('sha256').update(read.bytes).digest('hex'));
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(read.bytes);
  } catch {
    throw new ModelError(`${path}: not UTF-8 text`);
  }
}

/** A shard's name as the index gives it: a plain file name ending in .safetensors, nothing else. */
function checkShardName(index: string, tensor: string, name: unknown): string {
  if (typeof name !== 'string' || !/^[^/\\]+\.safetensors$/i.test(name) || name === '.' || name === '..' || name.startsWith('.')) {
    throw new ModelError(`${index}: the shard of ${JSON.stringify(tensor)} is ${JSON.stringify(name)}; a shard must be a plain .safetensors file name in the model folder`);
  }
  return name;
}

/** The shards the index names, each with the tensors it must hold. */
function readIndex(folder: string, text: string): Map<string, string[]> {
  const index = join(folder, 'model.safetensors.index.json');
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
function openWeights(path: string): { source: ByteSource; tensors: TensorRef[] } {
  const source = fileSource(path);
  try {
    return { source, tensors: readSafetensors(source).tensors };
  } catch (e) {
    source.close();
    throw e;
  }
}

export function readModelFolder(folder: string): ModelFolder {
  const sources: ByteSource[] = [];
  const close = () => { for (const s of sources) s.close(); };
  try {
    checkFolder(folder);
    const configText = readText(folder, 'config.json', MAX_CONFIG_BYTES, true);
    if (configText === undefined) throw new ModelError(`${join(folder, 'config.json')}: no such file (a model folder has config.json, the weights and the tokenizer's files)`);
    const files = [join(folder, 'config.json')];
    const tensors = new Map<string, TensorRef>();
    const holder = new Map<string, string>();
    // The index decides where each tensor it names is read from: a copy in another shard is not
    // used (the loader reads the one the index names), and a tensor the index does not name but two
    // shards hold is refused, naming both, since nothing says which copy is the model's.
    let shardOf = new Map<string, string>();
    const add = (path: string, wanted?: readonly string[]) => {
      const { source, tensors: found } = openWeights(path);
      sources.push(source);
      files.push(path);
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
    const indexText = readText(folder, 'model.safetensors.index.json', MAX_CONFIG_BYTES, true);
    if (indexText !== undefined) {
      files.push(join(folder, 'model.safetensors.index.json'));
      const shards = readIndex(folder, indexText);
      shardOf = new Map([...shards].flatMap(([shard, names]) => names.map((name) => [name, join(folder, shard)] as const)));
      for (const [shard, wanted] of shards) {
        const path = join(folder, shard);
        const probe = openRegularFile(path, '', true);
        if (!probe) throw new ModelError(`${path}: no such file, though model.safetensors.index.json names it as a shard`);
        closeSync(probe.fd);
        add(path, wanted);
      }
    } else {
      const path = join(folder, 'model.safetensors');
      const probe = openRegularFile(path, '', true);
      if (!probe) throw new ModelError(`${path}: no such file (nor model.safetensors.index.json): the folder has no weights attn reads`);
      closeSync(probe.fd);
      add(path);
    }
    const tokenizerFiles = readTokenizerFiles(folder, files);
    return {
      folder, configText, tensors, tokenizerFiles, files, close,
      where: (name) => holder.get(name) ?? (indexText !== undefined ? join(folder, 'model.safetensors.index.json') : join(folder, 'model.safetensors')),
    };
  } catch (e) {
    close();
    if (e instanceof TensorFileError) throw new ModelError(e.message);
    throw e;
  }
}

/** A model folder named on the command line must be a folder: a file, a FIFO or a device is said to be what it is. */
function checkFolder(folder: string): void {
  let stat;
  try {
    stat = statSync(folder);
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    throw new ModelError(`${folder}: ${code === 'ENOENT' ? 'no such folder' : `cannot open (${code ?? String(e)})`}`);
  }
  if (!stat.isDirectory()) throw new ModelError(`${folder}: is ${stat.isFile() ? 'a file' : fileKind(stat)}, not a model folder (a folder with config.json, the weights and the tokenizer's files)`);
}

/** tokenizer.json (with tokenizer_config.json when present), else vocab.json + merges.txt, else vocab.txt, else a sentence. */
function readTokenizerFiles(folder: string, files: string[]): TokenizerFiles {
  let sha256: string | undefined;
  const read = (name: string, max: number) => {
    const text = readText(folder, name, max, true, name === 'tokenizer.json' ? (h) => { sha256 = h; } : undefined);
    if (text !== undefined) files.push(join(folder, name));
    return text;
  };
  const tokenizerJson = read('tokenizer.json', MAX_TOKENIZER_BYTES);
  const tokenizerConfigJson = read('tokenizer_config.json', MAX_CONFIG_BYTES);
  if (tokenizerJson !== undefined) return { tokenizerJson, tokenizerJsonSha256: sha256, ...(tokenizerConfigJson !== undefined ? { tokenizerConfigJson } : {}) };
  const vocabJson = read('vocab.json', MAX_TOKENIZER_BYTES);
  const mergesTxt = read('merges.txt', MAX_TOKENIZER_BYTES);
  if (vocabJson !== undefined && mergesTxt !== undefined) return { vocabJson, mergesTxt, ...(tokenizerConfigJson !== undefined ? { tokenizerConfigJson } : {}) };
  const vocabTxt = vocabJson === undefined && mergesTxt === undefined ? read('vocab.txt', MAX_TOKENIZER_BYTES) : undefined;
  if (vocabTxt !== undefined) return { vocabTxt, ...(tokenizerConfigJson !== undefined ? { tokenizerConfigJson } : {}) };
  throw new ModelError(`${join(folder, 'tokenizer.json')}: no such file (nor vocab.json with merges.txt, nor vocab.txt): the folder has no tokenizer`);
}
