// First: DuckDB's worker starts before the rest of the page is evaluated (engines/early.ts).
import './engines/early';
import { mount } from 'svelte';
import App from './App.svelte';
import { createAppRoot } from './appRoot.svelte';
import './app.css';
import { applyTheme, readTheme } from './ui/theme';
import { registerIsolationWorker } from './sw/register';
import { workerFetchedFiles } from './engines/spawn';
import UpdateNotice from './sw/UpdateNotice.svelte';
import { updateNotice } from './sw/updates.svelte';

// Before the first paint, so a chosen theme never flashes the system's.
applyTheme(readTheme());

const target = document.getElementById('app');
if (!target) throw new Error('#app missing from index.html');
// The composition root: every engine, client and controller, built and wired once (appRoot.svelte.ts).
export default mount(App, { target, props: { root: createAppRoot({ requireProtection: import.meta.env.PROD }) } });

// Its own root, after the app's, so the notice never depends on (or disturbs) the app's layout.
mount(UpdateNotice, { target: document.body.appendChild(document.createElement('div')), props: { notice: updateNotice } });

void registerIsolationWorker(updateNotice, workerFetchedFiles);
