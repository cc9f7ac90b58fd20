import { rowsOf, type Engine } from './duckdbEngine';
import { nameOf, TokenKind, type SqlStatement, type SqlToken } from './sqlScript';
import type { ModelScope } from './modelSql';
import type { ModelRun } from './catalogMemo';

/**
 * Scans read the datasets where they live. DuckDB's plan names a scanned table without its
 * catalog or schema, so with a dataset `penguins` and a user's own `priv.penguins` (or a temp
 * `penguins`, which a bare name would find first) the plan cannot tell the two apart. Only when
 * such a homonym exists in DuckDB's catalog does a statement need more: every reference to the
 * name, as DuckDB's lexer splits it, must be the dataset's own (bare and resolving there, or
 * qualified with its catalog and schema), and nothing that resolves a relation out of sight of
 * the text (`query()`, `query_table()`, a view or table macro the user made) may be used.
 */

interface Relation {
  catalog: string;
  schema: string;
  name: string;
}

/**
 * Where the app creates the datasets: DuckDB's in-memory database (duckdbBoot.ts opens no file),
 * schema `main`. Fixed, not the session's current one: a console `USE` or `SET schema` must not
 * move what counts as a dataset.
 */
export const DATASET_HOME = { catalog: 'memory', schema: 'main' } as const;

/** Functions that bind a relation named in a string, so the text never shows which one. */
const NAME_RESOLVERS = new Set(['query', 'query_table']);

const lower = (t: SqlToken | undefined): string | undefined => nameOf(t)?.toLowerCase();
const isDot = (t: SqlToken | undefined): boolean => t?.kind === TokenKind.Operator && t.text === '.';

/** The qualifiers written before each reference to `name` that is the end of a dotted chain. */
export function referencesTo(tokens: readonly SqlToken[], name: string): string[][] {
  const out: string[][] = [];
  for (let i = 0; i < tokens.length; i++) {
    if (lower(tokens[i]) !== name) continue;
    // `penguins.species`: here the name qualifies a column, it is not a relation reference.
    if (isDot(tokens[i + 1])) continue;
    const qualifiers: string[] = [];
    for (let j = i; isDot(tokens[j - 1]) && lower(tokens[j - 2]) !== undefined; j -= 2) qualifiers.unshift(lower(tokens[j - 2]) ?? '');
    out.push(qualifiers);
  }
  return out;
}

interface CatalogFacts {
  all: Relation[];
  userViews: Set<string>;
  current: { catalog: string; schema: string };
}

/** Every table and user view in DuckDB's catalog, and where a bare name is looked up: one query. */
async function catalog(engine: Engine): Promise<CatalogFacts> {
  const rows = rowsOf(
    await engine.query(
      "SELECT 't' AS k, lower(database_name) AS c, lower(schema_name) AS s, lower(table_name) AS n FROM duckdb_tables() " +
        "UNION ALL SELECT 'v', lower(database_name), lower(schema_name), lower(view_name) FROM duckdb_views() WHERE NOT internal " +
        "UNION ALL SELECT 'here', lower(current_database()), lower(current_schema()), ''",
    ),
  );
  const all: Relation[] = [];
  const userViews = new Set<string>();
  let current = { catalog: '', schema: '' };
  for (const r of rows) {
    const rel = { catalog: String(r.c), schema: String(r.s), name: String(r.n) };
    if (r.k === 'here') current = { catalog: rel.catalog, schema: rel.schema };
    else all.push(rel);
    if (r.k === 'v') userViews.add(rel.name);
  }
  return { all, userViews, current };
}

/** The user's table macros (asked only when a homonym exists: the function list is long). */
async function tableMacros(engine: Engine): Promise<Set<string>> {
  const rows = rowsOf(await engine.query("SELECT DISTINCT lower(function_name) AS n FROM duckdb_functions() WHERE function_type = 'table_macro' AND NOT internal"));
  return new Set(rows.map((r) => String(r.n)));
}

/** Why the statement's scans may read something other than the datasets, or undefined. */
export async function scopeProblem(run: ModelRun, stmt: SqlStatement, scope: ModelScope, scanned: ReadonlySet<string>): Promise<string | undefined> {
  if (scanned.size === 0) return undefined;
  const engine = run.engine;
  // Kept from the last model run when no one else's statement has run since (catalogMemo.ts).
  const { all, userViews, current } = await run.catalog(catalog);
  let macros: Set<string> | undefined;
  const home = scope.home ?? DATASET_HOME;
  const atHome = (r: { catalog: string; schema: string }) => r.catalog === home.catalog && r.schema === home.schema;
  const homeName = `${home.catalog}.${home.schema}`;
  for (const name of scanned) {
    const others = all.filter((r) => r.name === name && !atHome(r));
    if (others.length === 0) continue;
    const elsewhere = others.map((r) => `${r.catalog}.${r.schema}.${r.name}`).join(', ');
    const why = `the dataset ${name} shares its name with ${elsewhere}, ${others.length === 1 ? 'which is not a dataset' : 'which are not datasets'}, and DuckDB's plan does not say which one a scan reads`;
    const fix = `write the dataset as ${name} or ${homeName}.${name}`;
    const shadowedByTemp = others.some((r) => r.catalog === 'temp');
    for (const qualifiers of referencesTo(stmt.tokens, name)) {
      if (qualifiers.length === 0) {
        if (shadowedByTemp) return `${why}: a bare ${name} finds the temporary one first. Ask the user to drop or rename the temporary ${name} in the SQL console, or ${fix.replace(`${name} or `, '')}`;
        if (!atHome(current)) return `${why}: a bare ${name} is looked up in ${current.catalog}.${current.schema}, not where the datasets are; ${fix.replace(`${name} or `, '')}`;
        continue;
      }
      const [a, b] = qualifiers.slice(-2);
      const ok = qualifiers.length === 1 ? a === home.schema && current.catalog === home.catalog : qualifiers.length === 2 && a === home.catalog && b === home.schema;
      if (!ok) return `it reads ${[...qualifiers, name].join('.')}, which is not the dataset ${name} (${homeName}.${name}); ${fix}`;
    }
    macros ??= await tableMacros(engine);
    for (const t of stmt.tokens) {
      const word = lower(t);
      if (word === undefined) continue;
      if (NAME_RESOLVERS.has(word)) return `${why}, and ${word}() resolves a name the query text does not show; ${fix} in a plain FROM`;
      if (userViews.has(word) && !scope.tables.has(word)) return `${why}, and it uses the view ${word}, which may read either; ${fix} in the query itself`;
      if (macros.has(word)) return `${why}, and it calls the table macro ${word}(), which may read either; ${fix} in the query itself`;
    }
  }
  return undefined;
}
