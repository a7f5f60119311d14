// The folder `npm start` opens: copies of examples/ in .scratch/examples (ignored by git), so what the
// learner types, saves, or copies with Open Example lands in scratch files, never in the tracked
// examples the extension ships (which Apply Learned Weights leaves as they are, by design).
// Each example missing from the folder is copied in; one already there is left as the user left it.
import * as fs from 'node:fs';
import * as path from 'node:path';

/** The scratch workspace under `root` (the repository). */
export function scratchFolder(root) {
  return path.join(root, '.scratch', 'examples');
}

/**
 * Copies `root`/examples into `folder` where a file is absent (a new folder gets them all); never
 * replaces a file that is there. Returns the folder.
 */
export function scratchWorkspace(root, folder = scratchFolder(root)) {
  fs.mkdirSync(folder, { recursive: true });
  fs.cpSync(path.join(root, 'examples'), folder, { recursive: true, force: false, errorOnExist: false });
  return folder;
}
