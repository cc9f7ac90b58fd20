// Writes shared/plotlyAllowList.json: every attribute Plotly's own schema knows, for the figure
// sanitiser (shared/figureSafety.ts). The schema comes from the bundle the app ships
// (`Plotly.PlotSchema.get()` in plotly.js-dist-min, run in Chromium because the bundle needs a
// DOM), so the list always matches the Plotly that draws. Run after upgrading plotly.js-dist-min:
//   node scripts/plotly-allowlist.mjs
import { readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { chromium } from '@playwright/test';
import { launchOptions } from './browser.mjs';

const require = createRequire(import.meta.url);
const bundle = require.resolve('plotly.js-dist-min');
const version = JSON.parse(readFileSync(new URL('../node_modules/plotly.js-dist-min/package.json', import.meta.url), 'utf8')).version;

const browser = await chromium.launch(launchOptions());
const page = await browser.newPage();
await page.addScriptTag({ path: bundle });
const schema = JSON.parse(await page.evaluate(() => JSON.stringify(globalThis.Plotly.PlotSchema.get())));
await browser.close();

const META = new Set(schema.defs.metaKeys);
/** Object nodes, deduplicated: many traces share `marker`, `hoverlabel`, axes… */
const nodes = [];
const ids = new Map();

function intern(node) {
  const key = JSON.stringify(node);
  let id = ids.get(key);
  if (id === undefined) {
    id = nodes.length;
    nodes.push(node);
    ids.set(key, id);
  }
  return id;
}

/** A leaf is its valType, with `*` when Plotly also takes an array of them (arrayOk). */
function convert(attrs) {
  const out = {};
  for (const [name, def] of Object.entries(attrs).sort(([a], [b]) => (a < b ? -1 : 1))) {
    if (META.has(name) || name.startsWith('_') || def === null || typeof def !== 'object') continue;
    // `xsrc`-style keys point into Chart Studio grids: nothing a chart here needs.
    if (name.endsWith('src') && def.valType === 'string' && attrs[name.slice(0, -3)]) continue;
    if (typeof def.valType === 'string') out[name] = def.valType + (def.arrayOk ? '*' : '');
    else if (def.items && typeof def.items === 'object' && !Array.isArray(def.items)) {
      const [item] = Object.values(def.items);
      out[name] = { '[]': convert(item) };
    } else if (def.role === 'object' || Object.values(def).some((v) => v && typeof v === 'object')) out[name] = convert(def);
  }
  return intern(out);
}


const traces = {};
for (const [type, def] of Object.entries(schema.traces)) traces[type] = convert(def.attributes);
const layoutAttrs = { ...schema.layout.layoutAttributes };
for (const def of Object.values(schema.traces)) Object.assign(layoutAttrs, def.layoutAttributes ?? {});
const layout = convert(layoutAttrs);
const subplots = Object.entries(schema.layout.layoutAttributes)
  .filter(([, v]) => v && v._isSubplotObj)
  .map(([k]) => k)
  .sort();

const out = { plotly: version, traces, layout, subplots, nodes };
writeFileSync(new URL('../shared/plotlyAllowList.json', import.meta.url), JSON.stringify(out) + '\n');
console.log(`plotly ${version}: ${Object.keys(traces).length} trace types, ${nodes.length} attribute groups`);
