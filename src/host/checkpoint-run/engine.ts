// The desktop's and the CLI's runner of real checkpoints (model-engine.ts) with what Node gives it: the
// model folder read from disk, the tokenizer cached in a store on disk, and the q and k of a long run
// past the memory share in a private temporary file. The web's runner is the same engine over files
// in memory (host/web/model-run/).
import { readModelFolder } from '../../core/checkpoint-files/model-folder.js';
import { fileQkStore } from '../../core/checkpoint-files/qk-file-store.js';
import { tokenizerFrom, type TokenizerStore } from '../../core/tokenizer/index.js';
import { tokenizerCache } from '../../core/files/tokenizer-store.js';
import { checkpointEngine, type Engine, type EngineOptions } from './model-engine.js';

export { keptRunBudget, RUN_SHARE, checkpointEngine, type Engine, type EngineOptions, type EngineRun, type EngineSources } from './model-engine.js';

/** The runner of real checkpoints on disk: the folder read (config, weights at their offsets, tokenizer), loaded once and kept. */
export function realEngine(tokenizerStore?: TokenizerStore, engineOptions: EngineOptions = {}): Engine {
  return checkpointEngine({
    openFolder: readModelFolder,
    // Kept in memory (and on disk with a store) while tokenizer.json stays the same: reopening a folder does not build it again.
    tokenizer: (folder) => tokenizerFrom(folder.tokenizerFiles, tokenizerCache(folder.folder, folder.tokenizerFiles, tokenizerStore)),
  }, { ...engineOptions, qkStore: engineOptions.qkStore ?? ((shape) => fileQkStore(shape)) });
}
