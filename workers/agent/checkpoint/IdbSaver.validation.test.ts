/**
 * The official checkpoint-saver conformance suite (@langchain/langgraph-checkpoint-validation,
 * library mode), run against IdbSaver on fake-indexeddb. Each checkpointer the suite asks for
 * gets its own database, so suites cannot see each other's checkpoints.
 */
import 'fake-indexeddb/auto';
import { validate } from '@langchain/langgraph-checkpoint-validation';
import { IdbSaver } from './IdbSaver';

let n = 0;

validate<IdbSaver>({
  checkpointerName: 'IdbSaver',
  createCheckpointer: () => new IdbSaver({ dbName: `validation-${Date.now()}-${n++}` }),
  destroyCheckpointer: (saver) => saver.destroy(),
});
