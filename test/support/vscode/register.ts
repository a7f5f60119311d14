// Makes `vscode` resolve to the stand-in (index.ts) for everything loaded after it: a unit test of the
// host imports this file first, then the host's modules. It hooks Node's CommonJS resolution
// (Module._resolveFilename), which every `import` of the host goes through under `node --import tsx`
// (the package is CommonJS, so tsx compiles each `import` to a `require`); it is keyed on this file's
// own folder, so it works from any working directory and in a fresh clone (nothing to build). Loading
// it twice hooks once.
import Module from 'node:module';
import { join } from 'node:path';

export const STAND_IN = join(__dirname, 'index.ts');

type Resolve = (request: string, ...rest: unknown[]) => string;
const loader = Module as unknown as { _resolveFilename: Resolve & { vscodeStandIn?: true } };

if (!loader._resolveFilename.vscodeStandIn) {
  const resolve = loader._resolveFilename;
  const hooked: Resolve & { vscodeStandIn?: true } = function (this: unknown, request, ...rest) {
    return request === 'vscode' ? STAND_IN : resolve.call(this, request, ...rest);
  };
  hooked.vscodeStandIn = true;
  loader._resolveFilename = hooked;
}
