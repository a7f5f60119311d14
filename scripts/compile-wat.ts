// WebAssembly text → bytes with wabt (a devDependency), shared by build-wasm.ts and the tests that
// check the committed kernel bytes against their sources. Relaxed SIMD is accepted here; whether a
// runtime runs it is the loader's question (gemm32-kernel.ts validates before it instantiates).
import wabtInit from 'wabt';

export async function compileWat(text: string, name = 'gemm.wat'): Promise<Uint8Array> {
  const wabt = await wabtInit();
  const module = wabt.parseWat(name, text, { simd: true, relaxed_simd: true });
  try {
    module.validate();
    return Uint8Array.from(module.toBinary({ log: false, write_debug_names: false }).buffer);
  } finally {
    module.destroy();
  }
}
