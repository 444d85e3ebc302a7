// What the visualizations use of Go's wasm_exec.js
// ($(go env GOROOT)/lib/wasm/wasm_exec.js, copied by make wasm): the global
// class Go. For tsc only; the browser never loads this file.

declare class Go {
  constructor();
  /** The imports lab.wasm is instantiated with. */
  importObject: WebAssembly.Imports;
  /** Runs the instance's main; it resolves when main returns. */
  run(instance: WebAssembly.Instance): Promise<void>;
}
