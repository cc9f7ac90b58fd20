import { mount } from 'svelte';
import App from './App.svelte';
import './app.css';
import { registerIsolationWorker } from './sw/register';

const target = document.getElementById('app');
if (!target) throw new Error('#app missing from index.html');
export default mount(App, { target });

void registerIsolationWorker();
