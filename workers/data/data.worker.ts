/// <reference lib="webworker" />
/**
 * The data worker's entry: DuckDB-WASM (nested worker), the format readers and browser storage,
 * wired into the DataHost and served over the worker's own endpoint.
 */
import type { DataEvent, DataRequests } from '../protocol/data';
import { serve } from '../protocol/rpcServer';
import { bootDuckDB } from './duckdbBoot';
import { DataHost } from './host';
import { convertArrow } from './loaders/arrow';
import { convertExcel, listExcelSheets } from './loaders/excel';
import { convertJson } from './loaders/json';
import { convertParquet } from './loaders/parquet';
import { DatasetStorage } from './storage';

const host = new DataHost({
  boot: bootDuckDB,
  openStorage: () => DatasetStorage.open(),
  readers: { parquet: convertParquet, json: convertJson, arrow: convertArrow, excel: convertExcel, listExcelSheets },
  persisted: async () => (await navigator.storage?.persisted?.()) ?? false,
});

const { emit } = serve<DataRequests, DataEvent>(self, host.handlers());
host.addListener(emit);
