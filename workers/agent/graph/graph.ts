/**
 * The agent graph of ARCHITECTURE.md: ingress → summarize → agent ⇄ tools → guard → finalize,
 * with `answer` giving a last tool-less reply when the budget runs out. The state is state.ts,
 * the nodes both modes share nodes.ts, agent mode's own nodes agentNodes.ts; nodes talk to the
 * UI through `config.writer` with contract events (nodeKit.ts), tokens come from the "messages"
 * stream (see run.ts).
 */
import { END, START, StateGraph } from '@langchain/langgraph/web';
import { createAgentNodes } from './agentNodes';
import { lastAi } from './nodeKit';
import { createShared, type AgentGraphDeps } from './nodes';
import { AgentState, type AgentStateType } from '../core/state';

export function createAgentGraph(deps: AgentGraphDeps) {
  const shared = createShared(deps);
  const { ingress, summarize, finalize } = shared;
  const { agent, tools, guard, answer } = createAgentNodes(deps, shared);

  const graph = new StateGraph(AgentState)
    .addNode('ingress', ingress)
    .addNode('summarize', summarize)
    .addNode('agent', agent)
    .addNode('tools', tools)
    .addNode('guard', guard)
    .addNode('answer', answer)
    .addNode('finalize', finalize)
    .addEdge(START, 'ingress')
    .addEdge('ingress', 'summarize')
    .addEdge('summarize', 'agent')
    .addConditionalEdges('agent', (s: AgentStateType) => ((lastAi(s.messages)?.tool_calls?.length ?? 0) > 0 ? 'tools' : 'guard'), ['tools', 'guard'])
    .addEdge('tools', 'guard')
    .addConditionalEdges('guard', (s: AgentStateType) => s.route, ['agent', 'answer', 'finalize'])
    .addEdge('answer', 'finalize')
    .addEdge('finalize', END);
  return graph.compile({ checkpointer: deps.checkpointer });
}

export type AgentGraph = ReturnType<typeof createAgentGraph>;
