// The repository's root, for tests that read examples, schemas or built bundles or spawn bin/attn.js:
// one place, so a test keeps working when it moves to a deeper folder.
import { join } from 'node:path';

export const ROOT = join(__dirname, '..', '..');
