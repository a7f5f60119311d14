// WebAssembly text → bytes with wabt (a devDependency), shared by build-wasm.ts and the test that
// checks the committed kernel bytes against their source.
import wabtInit from 'wabt';

export async function compileWat(text: string): Promise<Uint8Array> {
  const wabt = await wabtInit();
  const module = wabt.parseWat('gemm.wat', text, { simd: true });
  try {
    module.validate();
    return Uint8Array.from(module.toBinary({ log: false, write_debug_names: false }).buffer);
  } finally {
    module.destroy();
  }
}
