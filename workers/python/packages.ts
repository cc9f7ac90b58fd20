/**
 * Which Pyodide packages a piece of code needs, from the lockfile's import index, and how to
 * say so when they cannot be fetched.
 */

export interface LockPackage {
  name: string;
  imports?: string[];
  package_type?: string;
  /** The wheel or archive under the package base URL. */
  file_name?: string;
}

export interface LockfileLike {
  packages: Record<string, LockPackage>;
}

export function isLockfile(v: unknown): v is LockfileLike {
  return typeof v === 'object' && v !== null && typeof (v as { packages?: unknown }).packages === 'object' && (v as { packages?: unknown }).packages !== null;
}

/** Top-level import name → package name (e.g. "sklearn" → "scikit-learn"). */
export function importIndex(lock: LockfileLike): Map<string, string> {
  const index = new Map<string, string>();
  for (const pkg of Object.values(lock.packages)) {
    for (const name of pkg.imports ?? []) if (!index.has(name)) index.set(name, pkg.name);
  }
  return index;
}

/** Packages worth listing as fetchable on first use: importable ones, not test bundles. */
export function onDemandPackages(lock: LockfileLike): string[] {
  return Object.values(lock.packages)
    .filter((p) => (p.imports?.length ?? 0) > 0 && !p.name.endsWith('-tests'))
    .map((p) => p.name)
    .sort();
}

/** The packages to fetch for these imports, skipping modules already importable. */
export function packagesFor(imports: string[], index: Map<string, string>, importable: Set<string>): string[] {
  const out = new Set<string>();
  for (const imp of imports) {
    const top = imp.split('.')[0] ?? imp;
    if (importable.has(top)) continue;
    const pkg = index.get(top);
    if (pkg) out.add(pkg);
  }
  return [...out].sort();
}

/** `text` shortened to at most `max` characters at a word boundary, with an ellipsis: never mid-word. */
export function wordClip(text: string, max: number): string {
  if (text.length <= max) return text;
  const cut = text.slice(0, max - 1);
  const space = cut.lastIndexOf(' ');
  return `${(space > max / 2 ? cut.slice(0, space) : cut).replace(/[\s,;:.]+$/, '')}…`;
}

export function networkMessage(packages: string[], packageBaseUrl: string, detail?: string): string {
  const list = packages.join(', ');
  const verb = packages.length === 1 ? 'needs' : 'need';
  const tail = detail ? ` (${detail})` : '';
  return `${list} ${verb} a network connection the first time: it could not be downloaded from ${packageBaseUrl}${tail}. The standard library (math, statistics, json, csv, collections…) and sql() work offline.`;
}
