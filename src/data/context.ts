import type { DataClient } from './DataClient.svelte';
import { findAppRoot } from '../appContext';

/** The one DataClient, from the composition root App.svelte provides (appContext.ts). */
export function getDataClient(): DataClient {
  const client = findAppRoot()?.data;
  if (!client) throw new Error('getDataClient() called outside <App>: no app root in context');
  return client;
}
