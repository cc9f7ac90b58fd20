/**
 * The settings database: what the app learned about the user's endpoints (an endpoint profile per
 * endpoint and model: the adjustments its server asked for). The endpoint, key and preferences
 * themselves stay in Web Storage (src/settings/persist.ts): read synchronously at start, and a key
 * not remembered lives only as long as the tab.
 *
 * Until this database existed the profiles had their own; on first open of the app's database
 * their rows are copied here and the old database deleted once the copy committed.
 */
import type { DBSchema } from 'idb';
import { databaseInstances } from './instances';
import type { OldDatabase } from './idbMigrate';
import type { IdbStore } from '../idbStore';
import type { ViewOf } from './workspaceDb';

export const SETTINGS_DB = 'dataseer-settings';

export const SETTINGS_STORES = {
  /** By `profileKey(baseUrl, model)` (workers/agent/llm/endpointProfile.ts). */
  endpoint_profiles: 'key',
  about: 'key',
} as const satisfies Record<string, string>;

export type SettingsStoreName = keyof typeof SETTINGS_STORES;

export const OLD_SETTINGS_DATABASES: readonly OldDatabase[] = [{ name: 'dataseer-endpoint-profiles', stores: [['profiles', 'endpoint_profiles']] }];

const instances = databaseInstances<unknown>({
  name: SETTINGS_DB,
  version: 1,
  upgrade(db) {
    for (const [name, keyPath] of Object.entries(SETTINGS_STORES)) if (!db.objectStoreNames.contains(name)) db.createObjectStore(name, { keyPath });
  },
  old: OLD_SETTINGS_DATABASES,
  mark: 'migrated-from-separate-databases',
});

/** The settings database seen through a module's own types (see `workspaceView`). */
export function settingsView<V extends DBSchema & ViewOf<V, SettingsStoreName>>(name?: string): IdbStore<V> {
  return instances(name) as unknown as IdbStore<V>;
}
