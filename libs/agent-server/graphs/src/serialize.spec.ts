import { AIMessage, HumanMessage, ToolMessage } from '@langchain/core/messages';
import { serializeJson, toJsonValue } from './serialize';

describe('toJsonValue', () => {
  it('shows messages as their fields plus type, wherever they sit', () => {
    const ai = new AIMessage({ content: 'hi', id: 'a1', tool_calls: [{ id: 't1', name: 'search', args: { q: 'x' } }] });
    const value = toJsonValue({ messages: [new HumanMessage({ content: 'hello', id: 'h1' }), ai], step: 2 }) as {
      messages: Record<string, unknown>[];
      step: number;
    };
    expect(value.step).toBe(2);
    expect(value.messages[0]).toMatchObject({ type: 'human', content: 'hello', id: 'h1' });
    expect(value.messages[1]).toMatchObject({ type: 'ai', content: 'hi', tool_calls: [{ id: 't1', name: 'search', args: { q: 'x' } }] });
  });

  it('keeps the tool name of tool messages', () => {
    const tool = new ToolMessage({ content: 'sunny', tool_call_id: 't1', name: 'get_weather' });
    expect(toJsonValue([tool])).toEqual([expect.objectContaining({ type: 'tool', name: 'get_weather', tool_call_id: 't1' })]);
  });

  it('turns errors, bigints and undefined into JSON', () => {
    expect(toJsonValue({ e: new TypeError('bad'), n: 10n })).toEqual({ e: { error: 'TypeError', message: 'bad' }, n: '10' });
    expect(serializeJson(undefined)).toBe('null');
  });
});
