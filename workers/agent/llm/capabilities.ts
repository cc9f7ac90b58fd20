/**
 * The capability check behind `Test connection`: three tiny requests to the chosen model — a
 * tool call, a structured output (through the ladder, which finds the method that works) and,
 * when asked, an image — plus the reasoning shape the responses showed. The report is stored
 * per endpoint + model, so the agent starts from what was found (e.g. the structured rung).
 */
import { HumanMessage, SystemMessage } from '@langchain/core/messages';
import { tool } from '@langchain/core/tools';
import type { ChatOpenAICompletions } from '@langchain/openai';
import { z } from 'zod';
import type { CapabilityReport } from '../../../protocol/agent/wire';
import { buildHumanMessage } from '../core/humanMessage';
import { classifyLlmError } from './chatModel';
import { RUNG_LABELS, structuredOutput, transientLadder } from './structured';
import type { WireObservations } from './wire/normalise';
import { STRUCTURED_RUNGS } from './endpointProfile';

/** A 1×1 red PNG: the smallest image a vision model can be asked about. */
const RED_PIXEL = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8DwHwAFBQIAX8jx0gAAAABJRU5ErkJggg==';

const addTool = tool(async () => '', {
  name: 'add_numbers',
  description: 'Adds two numbers.',
  schema: z.object({ a: z.number(), b: z.number() }),
});

const ProbeAnswer = z.object({ answer: z.number() });

const REASONING_WORDS: Record<CapabilityReport['reasoning'], string> = {
  reasoning_content: 'reasoning_content field',
  reasoning: 'reasoning field',
  inline_tags: 'inline tags',
  none: 'none seen',
};

function short(e: unknown): string {
  return classifyLlmError(e).message.replace(/\s+/g, ' ').slice(0, 200);
}

/** Failures of the endpoint or the key, not of the model's abilities. */
function blockingFailure(e: unknown): CapabilityReport['failure'] {
  const f = classifyLlmError(e);
  return f.kind === 'auth' || f.kind === 'not_found' || f.kind === 'network' || f.kind === 'timeout' ? { kind: f.kind, message: f.message } : undefined;
}

export function describeCapabilities(r: Omit<CapabilityReport, 'summary' | 'checkedAt' | 'problems'>): string {
  const refused = r.structured === 'none' ? [] : STRUCTURED_RUNGS.slice(0, STRUCTURED_RUNGS.indexOf(r.structured)).map((x) => RUNG_LABELS[x]);
  const structured =
    r.structured === 'none'
      ? 'no'
      : r.structured === 'json_schema'
        ? 'yes (JSON schema)'
        : `via ${RUNG_LABELS[r.structured]} (${refused.join(', ')} refused)`;
  const images = r.images === 'untested' ? 'not tested' : r.images ? 'yes' : 'no';
  return `Tools: ${r.tools ? 'yes' : 'no'} · Structured output: ${structured} · Images: ${images} · Reasoning: ${REASONING_WORDS[r.reasoning]}`;
}

export async function checkCapabilities(model: ChatOpenAICompletions, observed: WireObservations, options: { images?: boolean; signal?: AbortSignal } = {}): Promise<CapabilityReport> {
  const problems: string[] = [];
  const signal = options.signal;
  let tools = false;
  try {
    // With a system message, as every run sends one: an endpoint that refuses the role says so here.
    const reply = await model
      .bindTools([addTool])
      .invoke([new SystemMessage('You are a calculator that uses tools.'), new HumanMessage('Use the add_numbers tool to add 2 and 3. Call the tool; do not answer in text.')], signal ? { signal } : {});
    tools = (reply.tool_calls?.length ?? 0) > 0;
    if (!tools) problems.push('Tools: the model answered in text instead of calling the tool.');
  } catch (e) {
    // A refused key, a model the endpoint does not serve or an endpoint out of reach says nothing
    // about the model: report that, instead of "Tools: no · Structured output: no".
    const blocked = blockingFailure(e);
    if (blocked) return { tools: false, structured: 'none', images: 'untested', reasoning: 'none', summary: blocked.message, problems: [], checkedAt: Date.now(), failure: blocked };
    problems.push(`Tools: ${short(e)}`);
  }
  const ladder = transientLadder();
  let structured: CapabilityReport['structured'] = 'none';
  try {
    await structuredOutput(model, ProbeAnswer, 'probe_answer', ladder).invoke([new HumanMessage('What is 2 + 3? Give the number as "answer".')], signal ? { signal } : {});
    structured = ladder.rung() ?? 'json_schema';
  } catch (e) {
    problems.push(`Structured output: ${e instanceof Error ? e.message.slice(0, 300) : String(e)}`);
  }
  let images: CapabilityReport['images'] = 'untested';
  if (options.images) {
    try {
      await model.invoke([buildHumanMessage('What colour is this image? One word.', [{ mimeType: 'image/png', data: RED_PIXEL }])], signal ? { signal } : {});
      images = true;
    } catch (e) {
      images = false;
      problems.push(`Images: ${short(e)}`);
    }
  }
  const found = { tools, structured, images, reasoning: observed.reasoning };
  return { ...found, summary: describeCapabilities(found), problems, checkedAt: Date.now() };
}
