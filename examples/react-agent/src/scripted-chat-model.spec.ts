import { AIMessage, AIMessageChunk, HumanMessage, ToolMessage, type BaseMessage } from '@langchain/core/messages';
import { tools } from './tools';
import { ScriptedChatModel, scriptedReply } from './scripted-chat-model';

const model = new ScriptedChatModel().bindTools(tools);

async function streamed(messages: BaseMessage[]): Promise<AIMessageChunk[]> {
  const chunks: AIMessageChunk[] = [];
  for await (const chunk of await model.stream(messages)) chunks.push(chunk);
  return chunks;
}

describe('ScriptedChatModel', () => {
  it('binds tools by name', () => {
    expect(model.toolNames).toEqual(['get_weather', 'calculator']);
  });

  it('answers a weather question with a get_weather call naming the city', async () => {
    const reply = await model.invoke([new HumanMessage("What's the weather in New York today?")]);
    expect(reply.content).toBe('');
    expect(reply.tool_calls).toEqual([{ name: 'get_weather', args: { city: 'New York' }, id: expect.stringMatching(/^call_/), type: 'tool_call' }]);
  });

  it('sends arithmetic to the calculator', async () => {
    const reply = await model.invoke([new HumanMessage('Please work out (12 + 30) / 7 for me')]);
    expect(reply.tool_calls?.[0]).toMatchObject({ name: 'calculator', args: { expression: '(12 + 30) / 7' } });
  });

  it('is deterministic: the same conversation gets the same call id', async () => {
    const question = [new HumanMessage('weather in Oslo')];
    const [first, second] = [await model.invoke(question), await model.invoke(question)];
    expect(first.tool_calls?.[0].id).toBe(second.tool_calls?.[0].id);
  });

  it('answers a tool result with text that includes it', async () => {
    const call = { name: 'get_weather', args: { city: 'Oslo' }, id: 'call_1', type: 'tool_call' as const };
    const reply = await model.invoke([
      new HumanMessage('weather in Oslo'),
      new AIMessage({ content: '', tool_calls: [call] }),
      new ToolMessage({ content: 'It is 3°C and foggy in Oslo.', tool_call_id: 'call_1', name: 'get_weather' }),
    ]);
    expect(reply.content).toBe('Here is the current weather: It is 3°C and foggy in Oslo.');
    expect(reply.tool_calls).toEqual([]);
  });

  it('streams text token by token, and the chunks add up to the whole answer', async () => {
    const conversation = [
      new HumanMessage('2+2'),
      new AIMessage({ content: '', tool_calls: [{ name: 'calculator', args: { expression: '2+2' }, id: 'c1', type: 'tool_call' }] }),
      new ToolMessage({ content: '2+2 = 4', tool_call_id: 'c1', name: 'calculator' }),
    ];
    const chunks = await streamed(conversation);
    expect(chunks.length).toBeGreaterThan(3);
    expect(chunks.map((c) => c.content).join('')).toBe('The calculator worked it out: 2+2 = 4');
  });

  it('streams a tool call as a tool-call chunk that concatenates into the call', async () => {
    const chunks = await streamed([new HumanMessage('weather for Lisbon')]);
    const merged = chunks.reduce((sum, chunk) => sum.concat(chunk));
    expect(merged.tool_calls).toEqual([expect.objectContaining({ name: 'get_weather', args: { city: 'Lisbon' } })]);
  });

  it('echoes when no tool is bound', () => {
    expect(scriptedReply([new HumanMessage('hi there')], [])).toEqual({ content: 'You said: hi there' });
  });
});
