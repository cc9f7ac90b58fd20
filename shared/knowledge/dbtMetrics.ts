/**
 * A dbt project's metrics as this app's metrics (issue 32): one DuckDB aggregate expression over
 * one dataset each (`revenue = sum(amount) FILTER (WHERE status <> 'R')`). Read from the parsed
 * YAML of the project's files, in the shapes dbt documents:
 * - MetricFlow (dbt 1.6–1.11): `semantic_models:` with `model: ref('…')`, `measures` (`agg`,
 *   `expr`, `agg_params`), `entities`, `dimensions`; top-level `metrics:` of type `simple`
 *   (`type_params.measure`), `ratio` (`numerator`/`denominator`) and `derived` (`expr` over
 *   `metrics`), with `filter`s written as `{{ Dimension('entity__dimension') }}`.
 * - dbt ≥ 1.12's spec: a model's `semantic_model:` and its own `metrics:` (`agg`, `expr`), and
 *   top-level ratio and derived metrics with their parameters beside `type`.
 * - dbt < 1.6: `metrics:` with `model`, `calculation_method` (or 1.0–1.2's `type`), `expression`
 *   (or `sql`) and `filters: [{ field, operator, value }]`; `derived` over `{{ metric('…') }}`.
 * What cannot be one expression over one table (cumulative and conversion metrics, offsets, time
 * spines, filters through a join, semi-additive measures, a table that is not loaded) is listed
 * as skipped with the reason, never dropped.
 */

/** A metric read from the project, before it is saved (the page checks it with DuckDB first). */
export interface MetricDraft {
  name: string;
  dataset: string;
  expression: string;
  description: string;
}

export interface SkippedMetric {
  name: string;
  reason: string;
}

export interface DbtMetrics {
  metrics: MetricDraft[];
  skipped: SkippedMetric[];
}

type Rec = Record<string, unknown>;
const isRec = (v: unknown): v is Rec => typeof v === 'object' && v !== null && !Array.isArray(v);
const str = (v: unknown): string => (typeof v === 'string' ? v.trim() : typeof v === 'number' || typeof v === 'boolean' ? String(v) : '');
const list = (v: unknown): Rec[] => (Array.isArray(v) ? v.filter(isRec) : []);

/** A translation, or why there is none. */
type Tr = { ok: true; sql: string; dataset: string } | { ok: false; reason: string };
const fail = (reason: string): Tr => ({ ok: false, reason });

/** `ref('orders')`, `ref("orders")`, `ref('package', 'orders')` → orders. */
export function refName(v: unknown): string {
  const s = str(v);
  const m = /^\{\{\s*ref\(([^)]*)\)\s*\}\}$|^ref\(([^)]*)\)$/.exec(s);
  if (!m) return s;
  const args = (m[1] ?? m[2] ?? '').split(',').map((a) => a.trim().replace(/^['"]|['"]$/g, ''));
  return args[args.length - 1] ?? '';
}

interface SemanticModel {
  name: string;
  model: string;
  entities: Rec[];
  dimensions: Rec[];
  measures: Rec[];
}

interface Project {
  models: SemanticModel[];
  /** Measures by name, with the semantic model they belong to. */
  measures: Map<string, { m: Rec; sm: SemanticModel }>;
  /** MetricFlow and ≥ 1.12 metrics by name. */
  metrics: Map<string, Rec>;
  /** dbt < 1.6 metrics by name. */
  legacy: Map<string, Rec>;
}

/** MetricFlow's metric types; a `type` outside them is dbt < 1.6's calculation. */
const FLOW_TYPES = new Set(['simple', 'ratio', 'derived', 'cumulative', 'conversion']);

function project(docs: readonly unknown[]): Project {
  const p: Project = { models: [], measures: new Map(), metrics: new Map(), legacy: new Map() };
  for (const doc of docs) {
    if (!isRec(doc)) continue;
    for (const sm of list(doc.semantic_models)) {
      p.models.push({ name: str(sm.name), model: refName(sm.model), entities: list(sm.entities), dimensions: list(sm.dimensions), measures: list(sm.measures) });
    }
    // dbt ≥ 1.12: the semantic model lives on the model, its simple metrics beside it.
    for (const m of list(doc.models)) {
      if (!m.semantic_model) continue;
      const sm: SemanticModel = { name: str(isRec(m.semantic_model) ? m.semantic_model.name : '') || str(m.name), model: str(m.name), entities: [], dimensions: [], measures: [] };
      for (const c of list(m.columns)) {
        if (c.entity) sm.entities.push({ name: str(isRec(c.entity) ? c.entity.name : '') || str(c.name), expr: str(c.name) });
        if (c.dimension) sm.dimensions.push({ name: str(isRec(c.dimension) ? c.dimension.name : '') || str(c.name), expr: str(c.name) });
      }
      p.models.push(sm);
      for (const metric of list(m.metrics)) p.metrics.set(str(metric.name), { ...metric, semantic_model: sm.name });
    }
    for (const metric of list(doc.metrics)) {
      const type = str(metric.type).toLowerCase();
      if (metric.calculation_method !== undefined || (type && !FLOW_TYPES.has(type))) p.legacy.set(str(metric.name), metric);
      else p.metrics.set(str(metric.name), metric);
    }
  }
  for (const sm of p.models) for (const m of sm.measures) p.measures.set(str(m.name), { m, sm });
  return p;
}

/** A measure's aggregate (MetricFlow's `agg` list, dbt-semantic-interfaces' schemas.py), or why not. */
function aggregate(agg: string, expr: string, params: Rec): { ok: true; sql: string } | { ok: false; reason: string } {
  switch (agg.toLowerCase()) {
    case 'sum':
      return { ok: true, sql: `sum(${expr})` };
    case 'min':
    case 'max':
      return { ok: true, sql: `${agg.toLowerCase()}(${expr})` };
    case 'average':
      return { ok: true, sql: `avg(${expr})` };
    case 'count':
      return { ok: true, sql: `count(${expr})` };
    case 'count_distinct':
      return { ok: true, sql: `count(DISTINCT ${expr})` };
    case 'sum_boolean':
      return { ok: true, sql: `sum(CAST(${expr} AS INTEGER))` };
    case 'median':
      return { ok: true, sql: `median(${expr})` };
    case 'percentile': {
      const p = Number(params.percentile);
      if (!Number.isFinite(p) || p < 0 || p > 1) return { ok: false, reason: 'a percentile without agg_params.percentile between 0 and 1' };
      const fn = params.use_approximate_percentile === true ? 'approx_quantile' : params.use_discrete_percentile === true ? 'quantile_disc' : 'quantile_cont';
      return { ok: true, sql: `${fn}(${expr}, ${p})` };
    }
    default:
      return { ok: false, reason: `the aggregation ${agg || '(none)'} is not one dbt documents` };
  }
}

/** MetricFlow filters (`{{ Dimension('order__status') }} = 'R'`) as SQL over the semantic model's own columns. */
function filterSql(filter: unknown, sm: SemanticModel): { ok: true; sql: string } | { ok: false; reason: string } {
  const parts = Array.isArray(filter) ? filter.map(str).filter(Boolean) : str(filter) ? [str(filter)] : [];
  const out: string[] = [];
  for (const part of parts) {
    let problem: string | undefined;
    const sql = part.replace(/\{\{\s*Dimension\(\s*['"]([^'"]+)['"]\s*\)\s*\}\}/g, (_all, ref: string) => {
      const path = ref.split('__');
      const dim = path[path.length - 1] ?? '';
      const entity = path.length === 2 ? path[0] : undefined;
      if (path.length > 2) problem ??= `its filter reaches ${ref} through more than one join`;
      else if (entity !== undefined && !sm.entities.some((e) => str(e.name) === entity)) problem ??= `its filter's dimension ${ref} is on another semantic model (a join)`;
      const d = sm.dimensions.find((x) => str(x.name) === dim);
      if (!d) problem ??= `its filter's dimension ${ref} is not a dimension of ${sm.name}`;
      return `(${str(d?.expr) || dim})`;
    });
    if (problem) return { ok: false, reason: problem };
    if (sql.includes('{{') || sql.includes('{%')) return { ok: false, reason: `its filter uses ${/\{\{\s*(\w+)/.exec(sql)?.[1] ?? 'a template'}, which needs dbt's semantic layer (a time spine, an entity or another metric)` };
    out.push(sql);
  }
  return { ok: true, sql: out.map((s) => (out.length > 1 ? `(${s})` : s)).join(' AND ') };
}

/** `sum(x)` with a filter as `sum(x) FILTER (WHERE …)` (DuckDB's aggregate filter). */
const withFilter = (agg: string, where: string) => (where ? `${agg} FILTER (WHERE ${where})` : agg);

/** A metric input (`measure: name` or `{ name, filter, alias, fill_nulls_with }`): its name and options. */
function inputOf(v: unknown): { name: string; filter?: unknown; fill?: unknown; offset?: string } {
  if (isRec(v)) return { name: str(v.name), filter: v.filter, fill: v.fill_nulls_with, offset: str(v.offset_window) || str(v.offset_to_grain) || undefined };
  return { name: str(v) };
}

function measureSql(name: string, extraFilter: unknown, p: Project, fill?: unknown): Tr {
  const found = p.measures.get(name);
  if (!found) return fail(`its measure ${name} is not in the files read`);
  const { m, sm } = found;
  if (m.non_additive_dimension) return fail(`its measure ${name} is semi-additive (non_additive_dimension), which needs a window over time, not one aggregate`);
  const expr = str(m.expr) || name;
  const agg = aggregate(str(m.agg), expr, isRec(m.agg_params) ? m.agg_params : {});
  if (!agg.ok) return fail(agg.reason);
  const where = filterSql(extraFilter, sm);
  if (!where.ok) return fail(where.reason);
  const sql = withFilter(agg.sql, where.sql);
  return { ok: true, sql: fill !== undefined && fill !== null && str(fill) !== '' ? `coalesce(${sql}, ${str(fill)})` : sql, dataset: sm.model };
}

/** Replaces whole identifiers in an expression (outside quotes, not function names) by SQL. */
function substitute(expr: string, values: ReadonlyMap<string, string>): string {
  let out = '';
  for (let i = 0; i < expr.length; ) {
    const c = expr[i] ?? '';
    if (c === "'" || c === '"') {
      let j = i + 1;
      while (j < expr.length && !(expr[j] === c && expr[j + 1] !== c)) j += expr[j] === c ? 2 : 1;
      out += expr.slice(i, j + 1);
      i = j + 1;
      continue;
    }
    const id = /^[A-Za-z_][A-Za-z0-9_]*/.exec(expr.slice(i))?.[0];
    if (id) {
      const next = /^\s*(.)/.exec(expr.slice(i + id.length))?.[1];
      const v = values.get(id);
      out += v !== undefined && next !== '(' ? `(${v})` : id;
      i += id.length;
      continue;
    }
    out += c;
    i++;
  }
  return out;
}

/** One table for a metric built from others, or why not. */
function oneTable(parts: readonly Tr[]): { ok: true; dataset: string; sqls: string[] } | { ok: false; reason: string } {
  const sqls: string[] = [];
  const tables = new Set<string>();
  for (const t of parts) {
    if (!t.ok) return t;
    sqls.push(t.sql);
    tables.add(t.dataset);
  }
  if (tables.size > 1) return { ok: false, reason: `its inputs come from different tables (${[...tables].join(', ')}); a metric here is over one table` };
  return { ok: true, dataset: [...tables][0] ?? '', sqls };
}

function flowMetric(name: string, p: Project, depth: number): Tr {
  const m = p.metrics.get(name);
  if (!m) return p.measures.has(name) ? measureSql(name, undefined, p) : fail(`${name} is not in the files read`);
  if (depth > 8) return fail('its definition refers to itself');
  const type = str(m.type).toLowerCase();
  const tp = isRec(m.type_params) ? m.type_params : m;
  switch (type) {
    case 'simple': {
      if (tp.measure !== undefined) {
        const input = inputOf(tp.measure);
        const filters = [m.filter, input.filter].flatMap((f) => (Array.isArray(f) ? f : f === undefined ? [] : [f]));
        return measureSql(input.name, filters, p, input.fill ?? tp.fill_nulls_with);
      }
      // dbt ≥ 1.12: the aggregation is the metric's own, on its model's semantic model.
      const sm = p.models.find((x) => x.name === str(m.semantic_model));
      if (!sm) return fail('a simple metric without a measure or a semantic model');
      const agg = aggregate(str(m.agg), str(m.expr) || name, { percentile: m.percentile, use_discrete_percentile: str(m.percentile_type) === 'discrete' });
      if (!agg.ok) return fail(agg.reason);
      const where = filterSql(m.filter, sm);
      if (!where.ok) return fail(where.reason);
      return { ok: true, sql: withFilter(agg.sql, where.sql), dataset: sm.model };
    }
    case 'ratio': {
      const [num, den] = [inputOf(tp.numerator), inputOf(tp.denominator)].map((input) => inputSql(input, p, depth));
      const both = oneTable([num ?? fail('no numerator'), den ?? fail('no denominator')]);
      if (!both.ok) return fail(both.reason);
      const [n, d] = both.sqls;
      return { ok: true, sql: `CAST(${n} AS DOUBLE) / NULLIF(${d}, 0)`, dataset: both.dataset };
    }
    case 'derived': {
      const inputs = list(tp.metrics ?? tp.input_metrics);
      const expr = str(tp.expr);
      if (!expr || inputs.length === 0) return fail('a derived metric without expr or input metrics');
      const values = new Map<string, string>();
      const parts: Tr[] = [];
      for (const raw of inputs) {
        const input = inputOf(raw);
        if (input.offset) return fail(`its input ${input.name} is offset in time (${input.offset}), which needs a time spine`);
        const t = inputSql(input, p, depth);
        parts.push(t);
        if (t.ok) values.set(str(raw.alias) || input.name, t.sql);
      }
      const all = oneTable(parts);
      if (!all.ok) return fail(all.reason);
      return { ok: true, sql: substitute(expr, values), dataset: all.dataset };
    }
    case 'cumulative':
      return fail('a cumulative metric sums over a moving time window, which needs a time spine, not one aggregate');
    case 'conversion':
      return fail('a conversion metric follows entities between two events within a window, which is a query, not one aggregate');
    default:
      return fail(`the metric type ${type || '(none)'} is not one dbt documents`);
  }
}

/** A ratio's or derived metric's input: another metric (or, in dbt 1.6's ratios, a measure), with its own filter. */
function inputSql(input: ReturnType<typeof inputOf>, p: Project, depth: number): Tr {
  if (input.filter === undefined) return flowMetric(input.name, p, depth + 1);
  const m = p.metrics.get(input.name);
  const simple = m && str(m.type).toLowerCase() === 'simple' && isRec(m.type_params) && m.type_params.measure !== undefined;
  if (m && !simple) return fail(`its input ${input.name} is filtered, and only a simple metric's filter can be carried`);
  const measure = m && isRec(m.type_params) ? inputOf(m.type_params.measure) : { name: input.name };
  const filters = [m?.filter, measure.filter, input.filter].flatMap((f) => (Array.isArray(f) ? f : f === undefined ? [] : [f]));
  return measureSql(measure.name, filters, p);
}

/** dbt < 1.6 (`calculation_method`, or 1.0–1.2's `type`). */
function legacyMetric(name: string, p: Project, depth: number): Tr {
  const m = p.legacy.get(name);
  if (!m) return fail(`${name} is not in the files read`);
  if (depth > 8) return fail('its definition refers to itself');
  if (isRec(m.window)) return fail('it is a rolling window over time, which needs a time spine, not one aggregate');
  const method = (str(m.calculation_method) || str(m.type)).toLowerCase();
  const expr = str(m.expression ?? m.sql);
  if (method === 'derived' || method === 'expression') {
    const parts: Tr[] = [];
    const sql = expr.replace(/\{\{\s*metric\(\s*['"]([^'"]+)['"]\s*\)\s*\}\}/g, (_all, ref: string) => {
      const t = legacyMetric(ref, p, depth + 1);
      parts.push(t);
      return t.ok ? `(${t.sql})` : ref;
    });
    const all = oneTable(parts);
    if (!all.ok) return fail(all.reason);
    if (parts.length === 0) return fail('a derived metric that refers to no metric');
    return { ok: true, sql, dataset: all.dataset };
  }
  const filters = list(m.filters).map((f) => `${str(f.field)} ${str(f.operator)} ${str(f.value)}`.trim());
  const legacyAgg: Record<string, string> = { count: 'count', count_distinct: 'count_distinct', sum: 'sum', average: 'average', min: 'min', max: 'max', median: 'median' };
  const agg = aggregate(legacyAgg[method] ?? method, expr || '*', {});
  if (!agg.ok) return fail(agg.reason);
  if (!expr && method !== 'count') return fail('it has no expression to aggregate');
  return { ok: true, sql: withFilter(agg.sql, filters.map((f) => (filters.length > 1 ? `(${f})` : f)).join(' AND ')), dataset: refName(m.model) };
}

/** Whether any of the documents defines metrics (so an import has more than a dictionary to bring). */
export function definesMetrics(docs: readonly unknown[]): boolean {
  const p = project(docs);
  return p.metrics.size > 0 || p.legacy.size > 0 || p.measures.size > 0;
}

/**
 * Every metric of the project, translated for the loaded `datasets` (matched by name, any case);
 * MetricFlow measures with `create_metric: true` are metrics too. The rest is skipped, with why.
 */
export function dbtMetrics(docs: readonly unknown[], datasets: readonly string[]): DbtMetrics {
  const p = project(docs);
  const out: DbtMetrics = { metrics: [], skipped: [] };
  const loaded = new Map(datasets.map((d) => [d.toLowerCase(), d]));
  const take = (name: string, t: Tr, description: string) => {
    if (!name) return;
    if (!t.ok) return void out.skipped.push({ name, reason: t.reason });
    const dataset = loaded.get(t.dataset.toLowerCase());
    if (!dataset) return void out.skipped.push({ name, reason: `its table ${t.dataset || '(none named)'} is not loaded` });
    out.metrics.push({ name, dataset, expression: t.sql, description });
  };
  for (const [name, m] of p.metrics) take(name, flowMetric(name, p, 0), str(m.description) || str(m.label));
  for (const [name, m] of p.legacy) take(name, legacyMetric(name, p, 0), str(m.description) || str(m.label));
  for (const [name, { m }] of p.measures) {
    if (m.create_metric === true && !p.metrics.has(name)) take(name, measureSql(name, undefined, p), str(m.description) || str(m.label));
  }
  return out;
}
