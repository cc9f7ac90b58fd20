/**
 * Buttons (`updatemenus[].buttons`) and slider steps (`sliders[].steps`) change a figure when
 * clicked: `restyle` and `relayout` apply attributes by path (`{'marker.color': 'red'}`),
 * `update` does both, `animate` goes to frames — named ones, or frame objects carried in its
 * arguments. So their arguments are figures too: each attribute is put in place in a trace or
 * a layout, passed through the figure's own sanitiser and read back from the same path; frames
 * pass the frame rules. An argument that does not survive is left out; a control with nothing
 * left to do does nothing (`skip`).
 *
 * Plotly's argument shapes: plotly.js src/components/updatemenus/attributes.js (`method`, `args`,
 * `args2`) and src/plots/command.js (`executeAPICommand`: `Plotly[method](gd, ...args)`);
 * `restyle(gd, astr | {astr: val}, val?, traces?)`, `relayout(gd, astr | {astr: val}, val?)`,
 * `update(gd, traceUpdate, layoutUpdate, traces?)`, `animate(gd, frameOrGroupNameOrFrameList, opts)`.
 */
import type { JsonValue } from '../protocol/figure';

type Json = JsonValue;
type Rec = { [key: string]: Json };

export interface Sanitisers {
  trace(v: Json, type: string, depth: number): Rec | undefined;
  layout(v: Json, depth: number, types: readonly string[]): Rec;
  frame(v: Json, types: readonly string[], depth: number): Rec | undefined;
  deep(v: Json): Json | undefined;
}

const isRec = (v: unknown): v is Rec => typeof v === 'object' && v !== null && !Array.isArray(v);
const MAX_DEPTH = 24;
/** An index in a path (`annotations[3].text`) is a position Plotly fills up to; beyond this, none a chart needs. */
const MAX_INDEX = 1000;
/** A restyle may not change what a trace is or where it draws (a map trace needs its subplot named offline). */
const FIXED_TRACE_KEYS = new Set(['type', 'subplot', 'uid']);

type Segment = { key: string; indices: number[] };

/** `marker.colorbar.tickvals[2]` → segments; undefined for a path no schema key can have. */
function parsePath(path: string): Segment[] | undefined {
  const out: Segment[] = [];
  for (const part of path.split('.')) {
    const m = /^([A-Za-z][A-Za-z0-9_]*)((?:\[\d+\])*)$/.exec(part);
    if (!m?.[1]) return undefined;
    const indices = [...(m[2] ?? '').matchAll(/\[(\d+)\]/g)].map((x) => Number(x[1]));
    if (indices.some((n) => n > MAX_INDEX)) return undefined;
    out.push({ key: m[1], indices });
  }
  return out.length ? out : undefined;
}

/** The value placed at the path in an otherwise empty object; earlier array items are `{}` (kept by the sanitiser, so positions hold). */
function nest(segs: readonly Segment[], value: Json): Json {
  let v = value;
  for (let s = segs.length - 1; s >= 0; s--) {
    const seg = segs[s] as Segment;
    for (let k = seg.indices.length - 1; k >= 0; k--) {
      const n = seg.indices[k] as number;
      const arr: Json[] = Array.from({ length: n + 1 }, () => ({}));
      arr[n] = v;
      v = arr;
    }
    v = { [seg.key]: v };
  }
  return v;
}

function readBack(v: Json | undefined, segs: readonly Segment[]): Json | undefined {
  let cur: Json | undefined = v;
  for (const seg of segs) {
    if (!isRec(cur) || !Object.hasOwn(cur, seg.key)) return undefined;
    cur = cur[seg.key];
    for (const n of seg.indices) {
      if (!Array.isArray(cur) || n >= cur.length) return undefined;
      cur = cur[n];
    }
  }
  return cur;
}

/** One `{path: value}` update, each value put in place and read back after `clean`. */
function byPath(update: Json, clean: (nested: Json, index: number) => Json | undefined, perTrace: boolean, skipKeys?: ReadonlySet<string>): Rec | undefined {
  if (!isRec(update)) return undefined;
  const out: Rec = {};
  for (const [path, value] of Object.entries(update)) {
    const segs = parsePath(path);
    if (!segs || skipKeys?.has(segs[0]?.key ?? '')) continue;
    // A restyle's array value holds one value per trace (a data array is wrapped in another).
    const values = perTrace && Array.isArray(value) ? value : [value];
    const kept: Json[] = [];
    for (let i = 0; i < values.length; i++) {
      const c = readBack(clean(nest(segs, values[i] ?? null), i), segs);
      if (c === undefined) break;
      kept.push(c);
    }
    if (kept.length !== values.length) continue;
    out[path] = perTrace && Array.isArray(value) ? kept : (kept[0] ?? null);
  }
  return out;
}

function traceIndices(v: Json | undefined, count: number): number[] {
  if (typeof v === 'number' && Number.isInteger(v)) return [v];
  if (Array.isArray(v)) return v.filter((n): n is number => typeof n === 'number' && Number.isInteger(n));
  return Array.from({ length: Math.max(count, 1) }, (_, i) => i);
}

function keepIndices(v: Json | undefined): Json | undefined {
  if (typeof v === 'number' && Number.isInteger(v)) return v;
  if (Array.isArray(v)) return v.filter((n): n is number => typeof n === 'number' && Number.isInteger(n));
  return undefined;
}

/** `restyle`'s trace update for the traces it targets (their types decide the schema). */
function restyleUpdate(update: Json, targets: Json | undefined, types: readonly string[], depth: number, s: Sanitisers): Rec | undefined {
  const indices = traceIndices(targets, types.length);
  return byPath(
    update,
    (nested, i) => {
      const n = indices.length ? indices[i % indices.length] : undefined;
      const type = (n === undefined ? undefined : types[n]) ?? 'scatter';
      return s.trace(nested, type, depth + 1);
    },
    true,
    FIXED_TRACE_KEYS,
  );
}

function relayoutUpdate(update: Json, types: readonly string[], depth: number, s: Sanitisers): Rec | undefined {
  return byPath(update, (nested) => s.layout(nested, depth + 1, types), false);
}

const ANIMATION_OPTIONS = new Set(['mode', 'direction', 'fromcurrent', 'frame', 'transition']);

function animationOptions(v: Json | undefined, s: Sanitisers): Rec | undefined {
  if (!isRec(v)) return undefined;
  const out: Rec = {};
  for (const [k, x] of Object.entries(v)) {
    if (!ANIMATION_OPTIONS.has(k)) continue;
    const c = s.deep(x);
    if (c !== undefined) out[k] = c;
  }
  return out;
}

/** `animate`'s first argument: a frame or group name, null (all frames), or a list of names and frames. */
function animationTarget(v: Json | undefined, types: readonly string[], depth: number, s: Sanitisers): Json | undefined {
  if (v === null || typeof v === 'string' || typeof v === 'number') return s.deep(v);
  if (isRec(v)) return s.frame(v, types, depth + 1);
  if (!Array.isArray(v)) return undefined;
  const out: Json[] = [];
  for (const item of v) {
    if (Array.isArray(item)) continue;
    const c = animationTarget(item, types, depth, s);
    if (c !== undefined && !Array.isArray(c)) out.push(c);
  }
  return out;
}

/** The arguments of one method call, each held to the figure's rules; undefined when none can stay. */
function argsOf(method: string, args: Json | undefined, types: readonly string[], depth: number, s: Sanitisers): Json[] | undefined {
  if (!Array.isArray(args) || depth > MAX_DEPTH) return undefined;
  const [a, b, c] = args;
  switch (method) {
    case 'restyle': {
      const update = typeof a === 'string' ? { [a]: b ?? null } : a;
      const targets = typeof a === 'string' ? c : b;
      const clean = restyleUpdate(update ?? null, targets, types, depth, s);
      if (!clean || Object.keys(clean).length === 0) return undefined;
      const t = keepIndices(targets);
      // The `(path, value)` form stays in that form, so a clean button is left as it was.
      const head: Json[] = typeof a === 'string' ? [a, clean[a] ?? null] : [clean];
      return t === undefined ? head : [...head, t];
    }
    case 'relayout': {
      const update = typeof a === 'string' ? { [a]: b ?? null } : a;
      const clean = relayoutUpdate(update ?? null, types, depth, s);
      if (!clean || Object.keys(clean).length === 0) return undefined;
      return typeof a === 'string' ? [a, clean[a] ?? null] : [clean];
    }
    case 'update': {
      const traceUpdate = restyleUpdate(a ?? {}, c, types, depth, s) ?? {};
      const layoutUpdate = relayoutUpdate(b ?? {}, types, depth, s) ?? {};
      if (Object.keys(traceUpdate).length + Object.keys(layoutUpdate).length === 0) return undefined;
      const t = keepIndices(c);
      return t === undefined ? [traceUpdate, layoutUpdate] : [traceUpdate, layoutUpdate, t];
    }
    case 'animate': {
      const target = animationTarget(a ?? null, types, depth, s);
      if (target === undefined) return undefined;
      const options = animationOptions(b, s);
      return options === undefined ? [target] : [target, options];
    }
    default:
      return undefined;
  }
}

/**
 * `updatemenus` (items under `buttons`) or `sliders` (items under `steps`), already passed through
 * the schema: each item's `args`/`args2` held to the figure's rules, or the item made a no-op.
 */
export function controlsOf(controls: Json, itemsKey: 'buttons' | 'steps', types: readonly string[], depth: number, s: Sanitisers): Json | undefined {
  if (!Array.isArray(controls)) return undefined;
  for (const control of controls) {
    if (!isRec(control) || !Array.isArray(control[itemsKey])) continue;
    for (const item of control[itemsKey]) {
      if (!isRec(item)) continue;
      const method = typeof item.method === 'string' ? item.method : 'restyle';
      if (method === 'skip') {
        delete item.args;
        delete item.args2;
        continue;
      }
      const args = argsOf(method, item.args, types, depth, s);
      const args2 = item.args2 === undefined ? undefined : argsOf(method, item.args2, types, depth, s);
      if (args === undefined) {
        item.method = 'skip';
        delete item.args;
        delete item.args2;
        continue;
      }
      item.args = args;
      if (args2 === undefined) delete item.args2;
      else item.args2 = args2;
    }
  }
  return controls;
}

/** Frames an animate control carries in its arguments (their map traces need an offline subplot too). */
export function framesInControls(layout: Rec): Rec[] {
  const out: Rec[] = [];
  for (const [key, itemsKey] of [['updatemenus', 'buttons'], ['sliders', 'steps']] as const) {
    const controls = layout[key];
    if (!Array.isArray(controls)) continue;
    for (const control of controls) {
      const items = isRec(control) ? control[itemsKey] : undefined;
      if (!Array.isArray(items)) continue;
      for (const item of items) {
        if (!isRec(item) || item.method !== 'animate') continue;
        for (const args of [item.args, item.args2]) {
          const target = Array.isArray(args) ? args[0] : undefined;
          for (const f of Array.isArray(target) ? target : [target]) if (isRec(f)) out.push(f);
        }
      }
    }
  }
  return out;
}
