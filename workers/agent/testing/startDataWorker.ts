/**
 * Test-only (and bench-only: no test runner needed): the real data worker handlers (DataHost on the Node build of DuckDB-WASM) over a
 * MessageChannel, as the agent worker talks to them in the browser, with one file loaded.
 */
import { IDBFactory } from 'fake-indexeddb';
import type { DataEvent, DataPeerRequests, LoadOutcome } from '../../../protocol/data';
import { RpcClient } from '../../../protocol/rpcClient';
import { serve } from '../../../protocol/rpcServer';
import { DataHost } from '../../data/host/host';
import { convertJson } from '../../data/loaders/json';
import { DatasetStorage } from '../../data/host/storage';
import { NodeEngine } from '../../data/testing/nodeEngine';

export interface DataWorker {
  client: RpcClient<DataPeerRequests, DataEvent>;
  /** Loads another CSV as the page does (the agent's port may not load). */
  loadText(text: string, fileName: string): Promise<LoadOutcome>;
  /** Renames or removes a dataset as the page does. */
  rename(from: string, to: string): Promise<void>;
  remove(name: string): Promise<void>;
  /** Fails whatever is still pending and closes the channel. */
  close(): void;
}

const noReader = async () => {
  throw new Error('not used');
};

/** Starts the handlers on a fresh fake IndexedDB and loads `file` as text (CSV). */
export async function startDataWorker(file: { text: string; fileName: string; loadId: string }): Promise<DataWorker> {
  globalThis.indexedDB = new IDBFactory();
  const host = new DataHost({
    boot: () => NodeEngine.open(),
    openStorage: () => DatasetStorage.open({ useOpfs: false }),
    readers: { parquet: noReader, arrow: noReader, excel: noReader, json: convertJson, listExcelSheets: async () => [] },
  });
  // The page loads the file; the agent gets only the narrow channel another worker's port gets.
  const page = host.handlers();
  await page.init({});
  const loaded = await page.load({ source: { kind: 'text', text: file.text, fileName: file.fileName }, options: { loadId: file.loadId } });
  if (!loaded.result.ok) throw new Error(loaded.result.message);
  const channel = new MessageChannel();
  serve<DataPeerRequests, DataEvent>(channel.port1 as unknown as Parameters<typeof serve>[0], host.readChannel());
  const client = new RpcClient<DataPeerRequests, DataEvent>(channel.port2 as unknown as ConstructorParameters<typeof RpcClient>[0]);
  return {
    client,
    loadText: async (text, fileName) => (await page.load({ source: { kind: 'text', text, fileName }, options: { loadId: fileName } })).result,
    rename: async (from, to) => void (await page.rename({ from, to })),
    remove: async (name) => void (await page.remove({ name })),
    close() {
      client.failAll(new Error('done'));
      channel.port1.close();
      channel.port2.close();
    },
  };
}

