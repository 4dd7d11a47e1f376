/**
 * The world's WebGL context. Where WebGL runs in software (SwiftShader, llvmpipe: no GPU, or the GPU blocklisted),
 * the browser composites the canvas by reading every changed frame back from the GPU process, and the page's main
 * thread waits for that readback on every frame: 3–8 ms for a 1280×800 canvas on two cores, more than drawing the
 * frame. A `desynchronized` (low-latency) context hands frames over without that wait; measured in Chromium with
 * software WebGL, a frame's main-thread cost fell from 3.4 ms to 1.0 ms (issue 17). With a GPU there is no readback,
 * so the context is created as usual there.
 */

/** The context Pixi is given, with the canvas it belongs to and whether it is low-latency. */
export interface WorldContext {
  canvas: HTMLCanvasElement;
  context: WebGL2RenderingContext;
  /** The renderer the browser reports (e.g. "SwiftShader"), or null when it does not say. */
  rendererName: string | null;
  /** True when WebGL runs in software and the context was created desynchronized. */
  desynchronized: boolean;
}

/** Renderer names of software WebGL implementations. */
const SOFTWARE_RENDERER = /swiftshader|llvmpipe|softpipe|software|basic render/i;

/** The name of the renderer behind WebGL 2 here, from a throwaway context (null when there is none or it is hidden). */
function probeRenderer(): string | null {
  const gl = document.createElement('canvas').getContext('webgl2');
  if (!gl) return null;
  try {
    const info = gl.getExtension('WEBGL_debug_renderer_info');
    const name: unknown = gl.getParameter(info ? info.UNMASKED_RENDERER_WEBGL : gl.RENDERER);
    return typeof name === 'string' ? name : null;
  } finally {
    gl.getExtension('WEBGL_lose_context')?.loseContext();
  }
}

/**
 * Creates the world's WebGL 2 context with the attributes Pixi would use (transparent over the backdrop, kept between
 * frames for partial draws, a stencil to mark the regions a partial draw brings up to date), desynchronized where
 * WebGL runs in software; null without WebGL 2, so Pixi picks its own fallback.
 */
export function createWorldContext(): WorldContext | null {
  const rendererName = probeRenderer();
  const desynchronized = rendererName !== null && SOFTWARE_RENDERER.test(rendererName);
  const canvas = document.createElement('canvas');
  const context = canvas.getContext('webgl2', {
    alpha: true,
    premultipliedAlpha: true,
    antialias: false,
    stencil: true,
    preserveDrawingBuffer: true,
    desynchronized,
  });
  if (!context) return null;
  return { canvas, context, rendererName, desynchronized: desynchronized && context.getContextAttributes()?.desynchronized === true };
}
