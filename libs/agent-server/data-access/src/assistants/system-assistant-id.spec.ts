import { systemAssistantId, uuid5 } from './system-assistant-id';

describe('systemAssistantId', () => {
  it('matches Python uuid.uuid5(NAMESPACE_DNS, "python.org")', () => {
    expect(uuid5('python.org', '6ba7b810-9dad-11d1-80b4-00c04fd430c8')).toBe('886313e1-3b8a-5372-9b90-0c9aee199e5d');
  });

  it("is LangGraph Platform's id for the agent graph", () => {
    // uuid.uuid5(uuid.UUID("6ba7b821-9dad-11d1-80b4-00c04fd430c8"), "agent") as the Python server computes it.
    expect(systemAssistantId('agent')).toBe('fe096781-5601-53d2-b2f6-0d3403f7e9ca');
  });
});
