import type { A2aMessage } from './a2a.types';
import { errorText, interruptText, messageContent, replyOf, resumeValue, taskState, textOf, toTask, type TaskSource } from './a2a-task';

const user: A2aMessage = { kind: 'message', messageId: 'm1', role: 'user', parts: [{ kind: 'text', text: 'hi' }] };
const source = (overrides: Partial<TaskSource>): TaskSource => ({
  runId: 'r1',
  threadId: 't1',
  status: 'success',
  interrupts: null,
  output: {},
  userMessage: user,
  timestamp: '2025-01-01T00:00:00.000Z',
  ...overrides,
});

describe('A2A task mapping', () => {
  it('maps run statuses to task states', () => {
    expect(taskState('pending', false)).toBe('submitted');
    expect(taskState('running', false)).toBe('working');
    expect(taskState('success', false)).toBe('completed');
    expect(taskState('success', true)).toBe('input-required');
    expect(taskState('interrupted', false)).toBe('canceled');
    expect(taskState('error', false)).toBe('failed');
    expect(taskState('timeout', false)).toBe('failed');
  });

  it('reads text from message contents and builds input from parts', () => {
    expect(textOf('plain')).toBe('plain');
    expect(textOf([{ type: 'text', text: 'a' }, { type: 'image_url', image_url: 'x' }, 'b'])).toBe('a\nb');
    expect(textOf(null)).toBe('');
    const parts = [
      { kind: 'text' as const, text: 'sum:' },
      { kind: 'data' as const, data: { a: 1 } },
      { kind: 'file' as const, file: { uri: 'https://x/y' } },
    ];
    expect(messageContent(parts)).toBe('sum:\n{"a":1}');
    expect(messageContent([{ kind: 'file', file: { uri: 'https://x/y' } }])).toBe('');
    expect(resumeValue(parts)).toBe('sum:');
    expect(resumeValue([{ kind: 'data', data: { ok: true } }])).toEqual({ ok: true });
  });

  it('finds the reply after the last human message, the interrupt prompt and the error', () => {
    const values = {
      messages: [
        { type: 'human', content: 'q1' },
        { type: 'ai', content: 'a1', id: 'x' },
        { type: 'human', content: 'q2' },
        { type: 'ai', content: '', tool_calls: [{ name: 'calc' }] },
        { type: 'tool', content: '4' },
        { type: 'ai', content: [{ type: 'text', text: 'a2' }], id: 'y' },
      ],
    };
    expect(replyOf(values)).toEqual({ id: 'y', text: 'a2' });
    expect(replyOf({ messages: [{ type: 'human', content: 'q' }] })).toBeUndefined();
    expect(interruptText('ok?')).toBe('ok?');
    expect(interruptText({ question: 'Approve?' })).toBe('Approve?');
    expect(interruptText({ n: 1 })).toBe('{"n":1}');
    expect(errorText({ __error__: { error: 'TypeError', message: 'boom' } })).toBe('TypeError: boom');
    expect(errorText({ messages: [] })).toBeUndefined();
  });

  it('builds tasks: completed with the reply, input-required with the prompt, failed with the error', () => {
    const output = { messages: [{ type: 'human', content: 'hi' }, { type: 'ai', content: 'hello', id: 'ai-1' }] };
    const completed = toTask(source({ output }));
    expect(completed).toMatchObject({
      kind: 'task',
      id: 'r1',
      contextId: 't1',
      status: { state: 'completed', timestamp: '2025-01-01T00:00:00.000Z' },
      artifacts: [{ artifactId: 'ai-1', name: 'Assistant Response', parts: [{ kind: 'text', text: 'hello' }] }],
    });
    expect(completed.history?.map((m) => m.role)).toEqual(['user', 'agent']);
    expect(toTask(source({ output, historyLength: 1 })).history?.map((m) => m.role)).toEqual(['agent']);
    expect(toTask(source({ output, historyLength: 0 })).history).toEqual([]);

    const paused = toTask(source({ interrupts: [{ question: 'Approve?' }], output: { messages: [{ type: 'human', content: 'hi' }] } }));
    expect(paused.status).toMatchObject({ state: 'input-required', message: { role: 'agent', parts: [{ kind: 'text', text: 'Approve?' }, { kind: 'data', data: { question: 'Approve?' } }] } });
    expect(paused.artifacts).toBeUndefined();

    const failed = toTask(source({ status: 'error', output: { __error__: { error: 'TypeError', message: 'the node broke' } } }));
    expect(failed.status).toMatchObject({ state: 'failed', message: { parts: [{ kind: 'text', text: 'TypeError: the node broke' }] } });

    const running = toTask(source({ status: 'running', output: null }));
    expect(running).toMatchObject({ status: { state: 'working' }, history: [user] });
    expect(running.artifacts).toBeUndefined();
  });
});
