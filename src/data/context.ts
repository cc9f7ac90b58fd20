import { getContext, setContext } from 'svelte';
import type { DataClient } from './DataClient.svelte';

const KEY = Symbol('dataseer:data-client');

/** App.svelte provides the one DataClient; other features (Python, agent) read it from context. */
export function setDataClient(client: DataClient): void {
  setContext(KEY, client);
}

export function getDataClient(): DataClient {
  const client = getContext<DataClient | undefined>(KEY);
  if (!client) throw new Error('getDataClient() called outside <App>: no DataClient in context');
  return client;
}
