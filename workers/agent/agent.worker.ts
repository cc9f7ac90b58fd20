/**
 * The agent worker: serves `AgentRequests` on its global scope and emits `AgentEvent`s. It
 * reaches DuckDB and Pyodide only through the ports `connect` hands it.
 */
import type { AgentEvent, AgentRequests } from '../protocol/agent';
import type { DataEvent, DataRequests } from '../protocol/data';
import type { PythonEvent, PythonRequests } from '../protocol/python';
import type { Endpoint } from '../protocol/rpc';
import { SwappableClient } from '../protocol/swappableClient';
import { RpcClient } from '../protocol/rpcClient';
import { serve, type Handlers } from '../protocol/rpcServer';
import { IdbSaver } from './checkpoint/IdbSaver';
import { ScrubbingSerde } from './checkpoint/scrubbingSerde';
import { PrivacyLogStore } from './privacy/PrivacyLogStore';
import { SecretScrubber } from '../protocol/secrets';
import { ExampleLibrary } from './examples/retrieval';
import { createAgentService, type AgentService } from './service';
import { PythonOutput } from './tools/workerHost';

let service: AgentService | undefined;
let dataClient: SwappableClient<DataRequests, DataEvent> | undefined;

/** Listing and profiling answer in seconds; a query may scan a big table for minutes. */
const DATA_TIMEOUTS: Partial<Record<keyof DataRequests, number>> = { query: 10 * 60_000, profile: 5 * 60_000 };
const dataTimeout = (type: keyof DataRequests) => DATA_TIMEOUTS[type] ?? 60_000;
/** The keys in use: scrubbed from every checkpoint write, log entry and error text. */
const secrets = new SecretScrubber();

function need(): AgentService {
  if (!service) throw new Error('The agent worker is not connected to the data worker yet.');
  return service;
}

const handlers: Handlers<AgentRequests> = {
  connect: ({ data, python, pythonInterrupt }) => {
    if (service && dataClient) {
      // The data worker restarted: the same service, a live port (calls on the old one fail).
      dataClient.replace(data);
      return { result: {} };
    }
    dataClient = new SwappableClient<DataRequests, DataEvent>(data, { name: 'data engine', timeoutMs: dataTimeout });
    let py: Parameters<typeof createAgentService>[0]['python'];
    if (python) {
      const output = new PythonOutput();
      const client = new RpcClient<PythonRequests, PythonEvent>(python, (e) => output.onEvent(e));
      const interrupt = pythonInterrupt ? () => Atomics.store(new Int32Array(pythonInterrupt), 0, 2) : undefined;
      py = { client, output, interrupt, packages: async () => (await client.call('packages', {})).loaded };
    }
    service = createAgentService({
      data: dataClient,
      python: py,
      saver: new IdbSaver({ serde: new ScrubbingSerde((t) => secrets.scrub(t)) }),
      privacyLog: new PrivacyLogStore({ scrub: (t) => secrets.scrub(t) }),
      secrets,
      library: new ExampleLibrary(),
      emit: (e) => server.emit(e),
    });
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
};

const server = serve<AgentRequests, AgentEvent>(self as unknown as Endpoint, handlers);
