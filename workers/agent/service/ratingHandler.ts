/**
 * Helpful / Not helpful on an answer: the rating is kept with the thread, and a helpful answer
 * becomes an example the agent can find for similar questions (a thumbs-down takes it out).
 */
import type { AgentRequests } from '../../../protocol/agent/wire';
import type { Handlers } from '../../../protocol/rpcServer';
import type { AgentParts } from './serviceParts';
import { exampleFromAnswer, userExampleId } from '../examples/userExamples';

export function createRatingHandler(parts: AgentParts): Pick<Handlers<AgentRequests>, 'rateAnswer'> {
  const { catalog, userExamples, examplesReady } = parts;
  const library = parts.deps.library;
  return {
    rateAnswer: async ({ thread_id, question, final, rating, question_id }) => {
      await examplesReady;
      if (question_id !== undefined) await catalog.rate(thread_id, question_id, rating);
      if (rating === 'up') {
        const example = exampleFromAnswer(thread_id, question, final);
        await userExamples.put(example);
        library.add(example);
        return { result: { saved: true, examples: library.size } };
      }
      const id = userExampleId(thread_id, question);
      await userExamples.delete(id);
      library.remove(id);
      return { result: { saved: false, examples: library.size } };
    },
  };
}
