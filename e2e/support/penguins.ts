/** The penguins sample's true figures, read from the file itself, for specs that check answers. */
import { readFileSync } from 'node:fs';
import { vega } from './paths';

interface Penguin {
  Species: string;
  'Body Mass (g)': number | null;
}
const penguins = JSON.parse(readFileSync(vega('penguins.json'), 'utf8')) as Penguin[];

/** The mean body mass of a species, to two decimals, as the scripted answers state it. */
export function meanMass(species: string): string {
  const masses = penguins.filter((p) => p.Species === species && p['Body Mass (g)'] !== null).map((p) => p['Body Mass (g)'] as number);
  return (masses.reduce((a, b) => a + b, 0) / masses.length).toFixed(2);
}
