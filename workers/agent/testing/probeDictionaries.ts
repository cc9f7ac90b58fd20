/** The issue-32 probe's two accepted dictionaries: a coded survey and a 500-column sensor table. */
import { emptyDictionary, type DataDictionary } from '../../../protocol/agent/knowledge';
import type { DatasetContext } from '../core/prompts';

export const REGIONS = ['North', 'South', 'East', 'West'];
export const survey: DatasetContext = {
  name: 'survey',
  rowCount: 1200,
  columns: [
    { name: 'region', type: 'BIGINT', samples: [1, 2, 3] },
    { name: 'income', type: 'BIGINT', samples: [52, -9, 40] },
    { name: 'household_size', type: 'BIGINT', samples: [1, 4] },
    { name: 'weight', type: 'DOUBLE', samples: [0.8, 1.2] },
  ],
};

export function surveyDict(): DataDictionary {
  const d = emptyDictionary('survey', survey.columns.map((c) => c.name));
  d.status = 'accepted';
  d.row_meaning = 'one respondent of wave 3';
  d.columns = [
    { name: 'region', description: 'Region of residence', unit: '', role: 'dimension', codes: REGIONS.map((m, i) => ({ code: String(i + 1), meaning: m })), missing: ['9'] },
    { name: 'income', description: 'Yearly net household income', unit: 'thousand EUR', role: 'measure', codes: [], missing: ['-9'] },
    { name: 'household_size', description: 'People living in the household', unit: 'persons', role: 'measure', codes: [], missing: [] },
    { name: 'weight', description: 'Survey weight', unit: '', role: 'other', codes: [], missing: [] },
  ];
  return d;
}

export const wide: DatasetContext = {
  name: 'sensors',
  rowCount: 5000,
  columns: Array.from({ length: 500 }, (_, i) => ({ name: `sensor_reading_${i}`, type: 'DOUBLE', samples: [i * 1.5, i * 2.5] })),
};
export function wideDict(): DataDictionary {
  const d = emptyDictionary('sensors', wide.columns.map((c) => c.name));
  d.status = 'accepted';
  d.columns = d.columns.map((c, i) => ({ ...c, description: `Reading of sensor ${i} on the roof of building ${i % 7}`, unit: 'volt', role: 'measure' }));
  return d;
}
