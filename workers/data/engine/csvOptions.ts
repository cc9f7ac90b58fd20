import type { CsvReadOverrides } from '../../../protocol/loadReport';
import { quoteLiteral } from '../../../shared/sql';

/**
 * A load report's fix as read_csv arguments, in a fixed order so the same options always give the
 * same SQL. Every value is quoted as a literal: column names and placeholder strings come from the
 * user's file.
 */
export function overridesSql(o: CsvReadOverrides | undefined): string[] {
  if (!o) return [];
  const args: string[] = [];
  if (o.skip !== undefined) args.push(`skip = ${Math.max(0, Math.floor(o.skip))}`);
  if (o.header !== undefined) args.push(`header = ${o.header ? 'true' : 'false'}`);
  if (o.delim !== undefined) args.push(`delim = ${quoteLiteral(o.delim)}`);
  if (o.nullstr && o.nullstr.length > 0) args.push(`nullstr = [${o.nullstr.map(quoteLiteral).join(', ')}]`);
  if (o.dateformat !== undefined) args.push(`dateformat = ${quoteLiteral(o.dateformat)}`);
  if (o.timestampformat !== undefined) args.push(`timestampformat = ${quoteLiteral(o.timestampformat)}`);
  if (o.decimal_separator !== undefined) args.push(`decimal_separator = ${quoteLiteral(o.decimal_separator)}`);
  if (o.thousands !== undefined) args.push(`thousands = ${quoteLiteral(o.thousands)}`);
  const types = Object.entries(o.types ?? {});
  if (types.length > 0) args.push(`types = {${types.map(([c, t]) => `${quoteLiteral(c)}: ${quoteLiteral(t)}`).join(', ')}}`);
  return args;
}

/** Two fixes together (a later one's lists add to an earlier one's). */
export function mergeOverrides(a: CsvReadOverrides | undefined, b: CsvReadOverrides): CsvReadOverrides {
  const out: CsvReadOverrides = { ...a, ...b };
  if (a?.nullstr || b.nullstr) out.nullstr = [...new Set([...(a?.nullstr ?? []), ...(b.nullstr ?? [])])];
  if (a?.types || b.types) out.types = { ...a?.types, ...b.types };
  return out;
}

export function isEmptyOverrides(o: CsvReadOverrides | undefined): boolean {
  return !o || (overridesSql(o).length === 0 && !o.eurostat);
}
