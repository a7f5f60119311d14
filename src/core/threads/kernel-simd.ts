// Relaxed SIMD (the fused multiply-add gemm32-fma.wat uses) is behind a flag in Node 20's V8 and on by
// default in newer runtimes. Setting the flag before the kernel is first compiled lets
// WebAssembly.validate accept it; the kernel's loader still validates, and keeps the plain loop if not.
import { setFlagsFromString } from 'node:v8';

let tried = false;

/** Turns relaxed SIMD on in this process's V8, once; never throws (a runtime without the flag keeps the plain kernel). */
export function enableRelaxedSimd(): void {
  if (tried) return;
  tried = true;
  try {
    setFlagsFromString('--experimental-wasm-relaxed-simd');
  } catch {
    // An unknown flag or a locked-down runtime: the plain kernel runs.
  }
}
