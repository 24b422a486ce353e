import type * as Tf from '@tensorflow/tfjs';

export type Tfjs = typeof Tf;

let runtime: Promise<Tfjs> | undefined;

/**
 * The one TensorFlow.js engine of this process, on the WebAssembly backend. tfjs keeps its engine and
 * kernels in a process-wide registry, so every offline model shares it; it is imported on first use
 * so a process that never screens an image pays nothing. WebAssembly, not the pure-JS cpu backend:
 * about four times faster on the same core (docs/BENCHMARKS.md). Its .wasm files are read from the
 * installed package on Node, never fetched.
 */
export function tfjsRuntime(): Promise<Tfjs> {
  runtime ??= (async () => {
    const tf = await import('@tensorflow/tfjs');
    await import('@tensorflow/tfjs-backend-wasm');
    // Production mode skips per-op debug checks that only help while writing a model.
    tf.enableProdMode();
    if (!(await tf.setBackend('wasm'))) throw new Error('The tfjs WebAssembly backend did not start');
    await tf.ready();
    return tf;
  })();
  // A failed start is not cached: the next caller tries again instead of failing forever.
  runtime.catch(() => (runtime = undefined));
  return runtime;
}
