// How the model editor opens the file a spec references: pure, shared by the desktop and the web build.
import type { AttentionReference } from '../../core/spec/read/reference.js';
import type { OpenOptions } from '../../core/files/open.js';

/** The tensor and tokens the spec names, as the model editor opens the file with them. */
export function referenceOpenOptions(ref: AttentionReference): OpenOptions {
  return { ...(ref.tensor !== undefined ? { tensor: ref.tensor } : {}), ...(ref.tokens ? { tokens: [...ref.tokens] } : {}) };
}
