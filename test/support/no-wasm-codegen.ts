// Preloaded (node --import) where a test needs a runtime whose Content-Security-Policy forbids
// compiling WebAssembly (a page or worker without 'wasm-unsafe-eval' or 'unsafe-eval'): every way to
// compile a module throws the CompileError a browser throws there, and WebAssembly.validate still
// says yes, as it does under such a CSP.
const refused = (): never => {
  throw new WebAssembly.CompileError("WebAssembly.Module(): Refused to compile or instantiate WebAssembly module because 'wasm-unsafe-eval' is not an allowed source of script in the following Content Security Policy directive");
};
const wasm = WebAssembly as unknown as Record<string, unknown>;
for (const name of ['Module', 'Instance']) wasm[name] = function Refused() { refused(); };
for (const name of ['compile', 'instantiate', 'compileStreaming', 'instantiateStreaming']) wasm[name] = () => Promise.reject(new WebAssembly.CompileError('refused by the Content Security Policy'));
