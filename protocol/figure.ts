/**
 * A Plotly figure as JSON (`fig.to_json()`, what `Plotly.newPlot` takes): the one type the Python
 * worker produces, the agent's charts build, the event stream carries and the page draws.
 */
import { z } from 'zod';

/** JSON as it crosses a boundary (results, figures). */
export type JsonValue = null | boolean | number | string | JsonValue[] | { [key: string]: JsonValue };

/**
 * The figure's shape is checked where it crosses a boundary; its values are not (a trace may hold
 * 100,000 points, and Plotly itself is the judge of them). figureSafety.ts keeps only the
 * attributes Plotly's schema knows, none of which can fetch, before a figure is drawn or exported.
 */
export const PlotlyFigureSchema = z.object({
  data: z.array(z.record(z.string(), z.unknown())),
  layout: z.record(z.string(), z.unknown()).optional(),
  config: z.record(z.string(), z.unknown()).optional(),
  frames: z.array(z.unknown()).optional(),
});
export type PlotlyFigure = z.infer<typeof PlotlyFigureSchema>;
