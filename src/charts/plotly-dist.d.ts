// The parts of plotly.js's dist bundle the chart component uses.
declare module 'plotly.js-dist-min' {
  export interface PlotlyElement extends HTMLElement {
    on?(event: string, handler: (...args: unknown[]) => void): void;
  }
  export interface ImageOptions {
    format: 'png' | 'svg' | 'jpeg' | 'webp';
    filename?: string;
    width?: number;
    height?: number;
  }
  export interface PlotlyStatic {
    react(el: HTMLElement, data: unknown[], layout?: object, config?: object): Promise<PlotlyElement>;
    purge(el: HTMLElement): void;
    downloadImage(el: HTMLElement, opts: ImageOptions): Promise<string>;
    toImage(el: HTMLElement, opts: ImageOptions): Promise<string>;
    /** plotly.js also draws a figure given as JSON, with no element on the page. */
    toImage(figure: { data: unknown[]; layout?: object; config?: object }, opts: ImageOptions): Promise<string>;
    Plots: { resize(el: HTMLElement): void };
    /** Plotly's own description of its traces; `categories` says which draw with WebGL ("gl") or on a map ("map"). */
    PlotSchema: { get(): { traces: Record<string, { categories?: string[] }> } };
  }
  const Plotly: PlotlyStatic;
  export default Plotly;
}
