/**
 * The agent worker: serves `AgentRequests` on its global scope and emits `AgentEvent`s. It
 * reaches DuckDB and Pyodide only through the ports the page's engine mesh hands it
 * (src/engines/mesh.ts); a port handed again replaces the old one.
 */
import type { AgentEvent, AgentRequests } from '../../protocol/agent/wire';
import type { DataEvent, DataPeerRequests } from '../../protocol/data';
import { PushedDatasets } from './tools/pushedDatasets';
import type { AgentPythonEvent, AgentPythonRequests } from '../../protocol/python';
import type { Endpoint } from '../../protocol/rpc';
import { SwappableClient } from '../../protocol/swappableClient';
import { serve, type Handlers } from '../../protocol/rpcServer';
import { IdbSaver } from './checkpoint/IdbSaver';
import { ScrubbingSerde } from './checkpoint/scrubbingSerde';
import { PrivacyLogStore } from './privacy/PrivacyLogStore';
import { SecretScrubber } from '../../shared/secrets';
import { ExampleLibrary } from './examples/retrieval';
import { createAgentService, type AgentService } from './service/service';
import { PythonOutput } from './tools/workerHost';
import { PythonPackages } from './tools/pythonPackages';

let service: AgentService | undefined;
let dataClient: SwappableClient<DataPeerRequests, DataEvent> | undefined;
/** The list the data worker pushes: a run reads it instead of asking (pushedDatasets.ts). */
const pushedDatasets = new PushedDatasets();
let pythonClient: SwappableClient<AgentPythonRequests, AgentPythonEvent> | undefined;
const pythonOutput = new PythonOutput();
const pythonPackages = new PythonPackages(async () => {
  if (!pythonClient) return [];
  return (await pythonClient.call('packages', {})).loaded;
});

/** Listing and profiling answer in seconds; a query may scan a big table for minutes. */
const DATA_TIMEOUTS: Partial<Record<keyof DataPeerRequests, number>> = { modelQuery: 10 * 60_000, profile: 5 * 60_000 };
const dataTimeout = (type: keyof DataPeerRequests) => DATA_TIMEOUTS[type] ?? 60_000;
/**
 * A run may wait behind the console's runs and packages may download before it starts; the page
 * enforces the run's own time limit. Stop and the package list answer at once.
 */
const PYTHON_TIMEOUTS: Record<keyof AgentPythonRequests, number> = { run: 30 * 60_000, stop: 10_000, packages: 5 * 60_000 };
/** The keys in use: scrubbed from every checkpoint write, log entry and error text. */
const secrets = new SecretScrubber();

function need(): AgentService {
  if (service) return service;
  if (!dataClient) throw new Error('The agent worker is not connected to the data worker yet.');
  const python = pythonClient;
  service = createAgentService({
    data: pushedDatasets.over(dataClient),
    python: python && { client: python, output: pythonOutput, packages: pythonPackages },
    saver: new IdbSaver({ serde: new ScrubbingSerde(secrets) }),
    privacyLog: new PrivacyLogStore({ scrub: (t) => secrets.scrub(t) }),
    secrets,
    library: new ExampleLibrary(),
    emit: (e) => server.emit(e),
  });
  return service;
}

const handlers: Handlers<AgentRequests> = {
  connectData: ({ port }) => {
    if (dataClient) dataClient.replace(port);
    else dataClient = new SwappableClient<DataPeerRequests, DataEvent>(port, { name: 'data engine', timeoutMs: dataTimeout, onEvent: (e) => pushedDatasets.onEvent(e) });
    return { result: {} };
  },
  connectPython: ({ port }) => {
    if (pythonClient) pythonClient.replace(port);
    else pythonClient = new SwappableClient<AgentPythonRequests, AgentPythonEvent>(port, { name: 'Python engine', timeoutMs: (t) => PYTHON_TIMEOUTS[t], onEvent: (e) => {
      pythonOutput.onEvent(e);
      pythonPackages.onEvent(e);
    } });
    return { result: {} };
  },
  start: (p) => need().start(p),
  resume: (p) => need().resume(p),
  abort: (p) => need().abort(p),
  listThreads: (p) => need().listThreads(p),
  loadThread: (p) => need().loadThread(p),
  deleteThread: (p) => need().deleteThread(p),
  rateAnswer: (p) => need().rateAnswer(p),
  listModels: (p) => need().listModels(p),
  renameThread: (p) => need().renameThread(p),
  searchThreads: (p) => need().searchThreads(p),
  privacyLog: (p) => need().privacyLog(p),
  checkCapabilities: (p) => need().checkCapabilities(p),
  draftDictionary: (p) => need().draftDictionary(p),
  cancelDraft: (p) => need().cancelDraft(p),
  modelContext: (p) => need().modelContext(p),
};

const server = serve<AgentRequests, AgentEvent>(self as unknown as Endpoint, handlers);
