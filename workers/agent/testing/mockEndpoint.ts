/**
 * Test-only: the scripted OpenAI-compatible endpoint (e2e/mock-llm) for a Vitest file or
 * describe block — started before its tests, emptied before each, closed after.
 */
import { afterAll, beforeAll, beforeEach } from 'vitest';
import { mockEndpointClient, startedOrigin, type MockEndpoint } from '../../../testing/mock-llm/client';
import { startMockLlm, type MockLlm } from '../../../testing/mock-llm/server.mjs';

export type { MockEndpoint };

/** Registers the hooks in the current file or describe block and returns the endpoint. */
export function useMockEndpoint(): MockEndpoint {
  let server: MockLlm | undefined;
  const endpoint = mockEndpointClient(startedOrigin(() => server));
  beforeAll(async () => {
    server = await startMockLlm({ port: 0 });
  });
  afterAll(async () => {
    await server?.close();
  });
  beforeEach(async () => {
    await endpoint.reset();
  });
  return endpoint;
}
