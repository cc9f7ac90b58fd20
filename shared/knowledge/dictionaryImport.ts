/**
 * Reading a data dictionary the user brings: CSV (one row per column), JSON or YAML (this app's
 * own export, a list of columns, or a `{ column: description }` map) and dbt's `schema.yml`
 * (`models[]` / `sources[].tables[]` with `columns[]`, `meta`, and `accepted_values` tests). YAML
 * and JSON go through a real parser (`yaml` reads both); CSV through an RFC 4180 reader. What
 * is read is fitted to the dataset's real columns; names it does not have are reported.
 */
import { parse as parseYaml } from 'yaml';
import { COLUMN_ROLES, type ColumnEntry, type ColumnRole, type DataDictionary, type JoinKey } from '../../protocol/agent/knowledge';

// Merging a read import into what is there (and its preview) is dictionaryMerge.ts; callers import it from here too.
export { mergeImport, type ImportPreview } from './dictionaryMerge';

export interface ImportResult {
  dictionary: DataDictionary;
  /** What could not be used (columns the dataset does not have, a model for another table). */
  warnings: string[];
  /**
   * Per column of the dataset the file describes, the fields it gave a value for (issue 32: an
   * import merges these into what is there and leaves every other field and column as it was).
   */
  given: Record<string, ColumnField[]>;
  /** The dataset-level fields the file gave a value for. */
  givenTable: TableField[];
}

export type ColumnField = 'description' | 'unit' | 'role' | 'codes' | 'missing';
export type TableField = 'row_meaning' | 'grain' | 'caveats' | 'joins';

export interface ImportOptions {
  /** dbt doc blocks by name (`{% docs name %}…{% enddocs %}` from the project's .md files). */
  docs?: Readonly<Record<string, string>>;
  /** The file already parsed (`parseJsonOrYaml`), so a project import reads it once for its dictionary and its metrics. */
  parsed?: unknown;
}

type Rec = Record<string, unknown>;
const isRec = (v: unknown): v is Rec => typeof v === 'object' && v !== null && !Array.isArray(v);
const str = (v: unknown): string => (typeof v === 'string' ? v.trim() : typeof v === 'number' || typeof v === 'boolean' ? String(v) : '');
const strList = (v: unknown): string[] => (Array.isArray(v) ? v.map(str).filter(Boolean) : typeof v === 'string' ? splitList(v) : []);

/** "., -9, N/A" or "." — a cell listing placeholders. */
function splitList(s: string): string[] {
  return s.split(/[;,|]/).map((x) => x.trim()).filter(Boolean);
}

/** "1=male; 2=female" (also "1: male"), a map, or a list of { code, meaning }. */
function codesOf(v: unknown): { code: string; meaning: string }[] {
  if (Array.isArray(v)) {
    return v.flatMap((c) => (isRec(c) && str(c.code ?? c.value) ? [{ code: str(c.code ?? c.value), meaning: str(c.meaning ?? c.label ?? c.description) }] : []));
  }
  if (isRec(v)) return Object.entries(v).map(([code, meaning]) => ({ code, meaning: str(meaning) }));
  if (typeof v === 'string' && v.trim()) {
    return v.split(/;|\n/).flatMap((part) => {
      const m = /^\s*([^=:]+?)\s*[=:]\s*(.+?)\s*$/.exec(part);
      return m?.[1] && m[2] ? [{ code: m[1], meaning: m[2] }] : [];
    });
  }
  return [];
}

function roleOf(v: unknown): ColumnRole {
  const s = str(v).toLowerCase();
  return (COLUMN_ROLES as readonly string[]).includes(s) ? (s as ColumnRole) : 'other';
}

/**
 * The values of a dbt `accepted_values` test in any of its spellings: the test's own keys
 * (`accepted_values: { values: […] }`), dbt ≥ 1.10's `arguments` property
 * (`accepted_values: { arguments: { values: […] } }`), and the named form
 * (`- name: …, test_name: accepted_values, arguments: { values: […] }`) —
 * https://docs.getdbt.com/reference/global-configs/behavior-flags/require_generic_test_arguments_property
 */
export function acceptedValues(test: unknown): string[] {
  if (!isRec(test)) return [];
  const body = isRec(test.accepted_values) ? test.accepted_values : str(test.test_name) === 'accepted_values' ? test : undefined;
  if (!body) return [];
  const args = isRec(body.arguments) ? body.arguments : {};
  return strList(args.values ?? body.values);
}

function entryOf(name: string, v: unknown): ColumnEntry {
  if (!isRec(v)) return { name, description: str(v), unit: '', role: 'other', codes: [], missing: [] };
  const meta = isRec(v.meta) ? v.meta : {};
  // dbt: `accepted_values` tests list the codes a column may take (meanings unknown).
  const tests = [...(Array.isArray(v.tests) ? v.tests : []), ...(Array.isArray(v.data_tests) ? v.data_tests : [])];
  const accepted = tests.flatMap(acceptedValues);
  const codes = codesOf(v.codes ?? meta.codes);
  return {
    name,
    description: str(v.description ?? v.desc ?? v.label),
    unit: str(v.unit ?? meta.unit ?? v.units),
    role: roleOf(v.role ?? meta.role),
    codes: codes.length ? codes : accepted.map((code) => ({ code, meaning: '' })),
    missing: strList(v.missing ?? meta.missing ?? v.missing_values ?? meta.missing_values),
  };
}

interface Read {
  row_meaning: string;
  grain: string;
  caveats: string[];
  joins: JoinKey[];
  columns: ColumnEntry[];
}

function joinsOf(v: unknown): JoinKey[] {
  if (!Array.isArray(v)) return [];
  return v.flatMap((j) => (isRec(j) && str(j.column) && str(j.other_dataset) && str(j.other_column) ? [{ column: str(j.column), other_dataset: str(j.other_dataset), other_column: str(j.other_column) }] : []));
}

function columnsOf(v: unknown): ColumnEntry[] {
  if (Array.isArray(v)) return v.flatMap((c) => (isRec(c) && str(c.name ?? c.column) ? [entryOf(str(c.name ?? c.column), c)] : []));
  if (isRec(v)) return Object.entries(v).map(([name, c]) => entryOf(name, c));
  return [];
}

/** One table's dictionary out of a parsed document; `dataset` picks the dbt model / table. */
function fromDocument(doc: unknown, dataset: string, warnings: string[]): Read {
  const empty: Read = { row_meaning: '', grain: '', caveats: [], joins: [], columns: [] };
  if (Array.isArray(doc)) return { ...empty, columns: columnsOf(doc) };
  if (!isRec(doc)) return empty;
  const dbtTables = [
    ...(Array.isArray(doc.models) ? doc.models : []),
    ...(Array.isArray(doc.sources) ? doc.sources.flatMap((s) => (isRec(s) && Array.isArray(s.tables) ? s.tables : [])) : []),
  ].filter(isRec);
  if (dbtTables.length > 0) {
    const lower = dataset.toLowerCase();
    const table = dbtTables.find((t) => str(t.name).toLowerCase() === lower) ?? (dbtTables.length === 1 ? dbtTables[0] : undefined);
    if (!table) {
      warnings.push(`None of the file's models (${dbtTables.map((t) => str(t.name)).join(', ')}) is named ${dataset}.`);
      return empty;
    }
    if (str(table.name).toLowerCase() !== lower) warnings.push(`Read the file's only model, ${str(table.name)}, for ${dataset}.`);
    return { ...empty, row_meaning: str(table.description), columns: columnsOf(table.columns) };
  }
  if ('columns' in doc) {
    return {
      row_meaning: str(doc.row_meaning ?? doc.description),
      grain: str(doc.grain),
      caveats: strList(doc.caveats),
      joins: joinsOf(doc.joins),
      columns: columnsOf(doc.columns),
    };
  }
  // `{ column: description }`
  return { ...empty, columns: columnsOf(doc) };
}

/**
 * RFC 4180: quoted fields with doubled quotes, commas and newlines inside quotes. Fields are
 * sliced, not built a character at a time (a 5 MB codebook, issue 37).
 */
export function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  const t = text.replace(/^\uFEFF/, '');
  const n = t.length;
  let i = 0;
  let endOfLine = false;
  while (i < n) {
    let field: string;
    if (t.charCodeAt(i) === 34 /* " */) {
      // Quoted: up to the closing quote, doubled quotes kept as one.
      let out = '';
      let from = i + 1;
      for (;;) {
        const q = t.indexOf('"', from);
        if (q < 0) {
          out += t.slice(from);
          i = n;
          break;
        }
        out += t.slice(from, q);
        if (t.charCodeAt(q + 1) === 34) {
          out += '"';
          from = q + 2;
          continue;
        }
        i = q + 1;
        break;
      }
      // Anything between the closing quote and the delimiter belongs to the field.
      let j = i;
      while (j < n && t.charCodeAt(j) !== 44 && t.charCodeAt(j) !== 10 && t.charCodeAt(j) !== 13) j++;
      field = out + t.slice(i, j);
      i = j;
    } else {
      let j = i;
      while (j < n && t.charCodeAt(j) !== 44 && t.charCodeAt(j) !== 10 && t.charCodeAt(j) !== 13) j++;
      field = t.slice(i, j);
      i = j;
    }
    row.push(field);
    endOfLine = false;
    if (i >= n) break;
    const c = t.charCodeAt(i);
    if (c === 44) {
      i++;
      // A trailing comma at the very end is one more, empty field.
      if (i >= n) row.push('');
      continue;
    }
    // A line break ends the row (\r\n counted once).
    i += c === 13 && t.charCodeAt(i + 1) === 10 ? 2 : 1;
    rows.push(row);
    row = [];
    endOfLine = true;
  }
  if (!endOfLine && row.length > 0) rows.push(row);
  return rows.filter((r) => r.some((c) => c.trim() !== ''));
}

const CSV_NAME_HEADERS = ['column', 'name', 'column_name', 'field', 'variable'];

function fromCsv(text: string, warnings: string[]): Read {
  const [header, ...rows] = parseCsv(text);
  if (!header) return { row_meaning: '', grain: '', caveats: [], joins: [], columns: [] };
  const keys = header.map((h) => h.trim().toLowerCase().replace(/\s+/g, '_'));
  const nameAt = keys.findIndex((k) => CSV_NAME_HEADERS.includes(k));
  if (nameAt < 0) {
    warnings.push(`The CSV needs a column named one of ${CSV_NAME_HEADERS.join(', ')}.`);
    return { row_meaning: '', grain: '', caveats: [], joins: [], columns: [] };
  }
  const columns = rows.map((r) => {
    const rec: Rec = {};
    keys.forEach((k, i) => (rec[k] = r[i] ?? ''));
    return entryOf(str(r[nameAt]), rec);
  });
  return { row_meaning: '', grain: '', caveats: [], joins: [], columns };
}

export function parseJsonOrYaml(text: string): unknown {
  const t = text.replace(/^\uFEFF/, '');
  if (/^\s*[[{]/.test(t)) {
    try {
      return JSON.parse(t);
    } catch {
      // YAML's flow style also starts with { or [: the YAML parser decides.
    }
  }
  return parseYaml(t, { merge: true });
}

/** Reads `text` (named `fileName`) as `dataset`'s dictionary, fitted to `columns`. */
export function importDictionary(text: string, fileName: string, dataset: string, columns: readonly string[], options: ImportOptions = {}): ImportResult {
  const warnings: string[] = [];
  const lower = fileName.toLowerCase();
  let read: Read;
  if (lower.endsWith('.csv')) read = fromCsv(text, warnings);
  else {
    let doc: unknown;
    try {
      // JSON is YAML too, but the YAML parser took 29 s over a 5 MB JSON file (issue 37):
      // JSON.parse reads it first, and YAML what JSON cannot — with `merge`, which reads YAML 1.1
      // merge keys (`<<: *defaults`) that dbt projects use.
      doc = options.parsed !== undefined ? options.parsed : parseJsonOrYaml(text);
    } catch (e) {
      throw new Error(`${fileName} could not be read as ${lower.endsWith('.json') ? 'JSON' : 'YAML'}: ${e instanceof Error ? e.message : String(e)}`, { cause: e });
    }
    read = fromDocument(doc, dataset, warnings);
  }
  read = resolveDocs(read, options.docs ?? {}, warnings);
  const byName = new Map(read.columns.map((c) => [c.name, c]));
  // A column named with other case still matches (dbt lower-cases; files keep their headers).
  const byLower = new Map(read.columns.map((c) => [c.name.toLowerCase(), c]));
  // Sets, not a scan of the table's columns per entry: 40,000 entries × 2,000 columns took 16 s.
  const known = new Set(columns);
  const knownLower = new Set(columns.map((n) => n.toLowerCase()));
  const unknown = read.columns.filter((c) => !known.has(c.name) && !knownLower.has(c.name.toLowerCase()));
  if (unknown.length) warnings.push(`Not in ${dataset}: ${unknown.map((c) => c.name).slice(0, 20).join(', ')}${unknown.length > 20 ? ` and ${unknown.length - 20} more` : ''}.`);
  const matched = columns.filter((n) => byName.has(n) || byLower.has(n.toLowerCase())).length;
  if (matched === 0) throw new Error(`${fileName} describes none of ${dataset}'s columns.${warnings.length ? ` ${warnings.join(' ')}` : ''}`);
  const given: Record<string, ColumnField[]> = {};
  for (const n of columns) {
    const e = byName.get(n) ?? byLower.get(n.toLowerCase());
    if (!e) continue;
    const fields: ColumnField[] = [];
    if (e.description) fields.push('description');
    if (e.unit) fields.push('unit');
    if (e.role !== 'other') fields.push('role');
    if (e.codes.length) fields.push('codes');
    if (e.missing.length) fields.push('missing');
    given[n] = fields;
  }
  const givenTable: TableField[] = [];
  if (read.row_meaning) givenTable.push('row_meaning');
  if (read.grain) givenTable.push('grain');
  if (read.caveats.length) givenTable.push('caveats');
  if (read.joins.length) givenTable.push('joins');
  return {
    given,
    givenTable,
    dictionary: {
      dataset,
      status: 'draft',
      source: fileName,
      updated_at: new Date().toISOString(),
      row_meaning: read.row_meaning,
      grain: read.grain,
      caveats: read.caveats,
      joins: read.joins,
      columns: columns.map((n) => {
        const e = byName.get(n) ?? byLower.get(n.toLowerCase());
        return e ? { ...e, name: n } : { name: n, description: '', unit: '', role: 'other', codes: [], missing: [] };
      }),
    },
    warnings,
  };
}

/** The dictionary as JSON, in the shape `importDictionary` reads back. */
export function dictionaryToJson(d: DataDictionary): string {
  const { status: _s, source: _src, updated_at: _u, ...rest } = d;
  return JSON.stringify(rest, null, 2);
}

/**
 * dbt doc blocks in a project's Markdown: `{% docs name %}…{% enddocs %}` (with `{%-`/`-%}` trim
 * markers). Read by their delimiters, the only syntax a doc block has.
 */
export function readDocBlocks(markdown: string): Record<string, string> {
  const out: Record<string, string> = {};
  const open = /\{%-?\s*docs\s+([A-Za-z_][\w]*)\s*-?%\}/g;
  for (let m = open.exec(markdown); m; m = open.exec(markdown)) {
    const start = m.index + m[0].length;
    const close = /\{%-?\s*enddocs\s*-?%\}/g;
    close.lastIndex = start;
    const end = close.exec(markdown);
    if (!end || !m[1]) break;
    out[m[1]] = markdown.slice(start, end.index).trim();
    open.lastIndex = end.index + end[0].length;
  }
  return out;
}

/** `{{ doc('name') }}` (or `doc("pkg", "name")`) in a description. */
const DOC_CALL = /\{\{\s*doc\(\s*(?:["']([\w]+)["']\s*,\s*)?["']([\w]+)["']\s*\)\s*\}\}/g;

/** Descriptions with their dbt doc references replaced by the blocks' text; missing ones named, never sent literally. */
function resolveDocs(read: Read, docs: Readonly<Record<string, string>>, warnings: string[]): Read {
  const missing = new Set<string>();
  const fill = (s: string) =>
    s
      .replace(DOC_CALL, (_all, _pkg: string | undefined, name: string) => {
        const text = docs[name];
        if (text === undefined) missing.add(name);
        return text ?? '';
      })
      .trim();
  const out = { ...read, row_meaning: fill(read.row_meaning), columns: read.columns.map((c) => ({ ...c, description: fill(c.description) })) };
  if (missing.size) {
    warnings.push(`Doc blocks not found: ${[...missing].join(', ')}. Import the .md files that define them together with the YAML; until then those descriptions are left empty.`);
  }
  return out;
}
