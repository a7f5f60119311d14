// A process writing one tokenizer cache entry over and over (src/core/files/tokenizer-store.ts), for the
// test of two writers at once: `node --import tsx store-writer.ts FOLDER SOURCE-JSON FILL BYTES TIMES`.
import { folderStore } from '../../src/core/files/tokenizer-store.js';

const [folder, source, fill, bytes, times] = process.argv.slice(2);
const store = folderStore(folder);
for (let i = 0; i < Number(times); i++) store.write(JSON.parse(source), new Uint8Array(Number(bytes)).fill(Number(fill)));
