import { assignToolNames, baseToolName } from './mcp-tool-names';

const ID_A = '0f8fad5b-d9cb-469f-a165-70867728950e';
const ID_B = '7c9e6679-7425-40de-944b-e07fc1f90ae7';
const ID_C = 'e4d909c2-90d0-4fb1-a068-2b5f6bb1c0aa';

describe('baseToolName', () => {
  it('keeps allowed characters and turns each run of others into one underscore', () => {
    expect(baseToolName('agent')).toBe('agent');
    expect(baseToolName('my-agent.v2_x')).toBe('my-agent.v2_x');
    expect(baseToolName('Weather bot (beta)!')).toBe('Weather_bot_beta_');
    expect(baseToolName('Ünïcode näme')).toBe('_n_code_n_me');
  });

  it('cuts to 64 characters and names an assistant with nothing usable "assistant"', () => {
    expect(baseToolName('x'.repeat(100))).toBe('x'.repeat(64));
    expect(baseToolName('')).toBe('assistant');
    expect(baseToolName('!!!')).toBe('assistant');
  });
});

describe('assignToolNames', () => {
  it('gives the first of namesakes the plain name and the others part of their id', () => {
    const named = assignToolNames([
      { assistant_id: ID_A, name: 'helper' },
      { assistant_id: ID_B, name: 'helper' },
      { assistant_id: ID_C, name: 'other' },
    ]);
    expect(named.map((n) => n.name)).toEqual(['helper', 'helper_7c9e6679', 'other']);
    expect(named.map((n) => n.assistant.assistant_id)).toEqual([ID_A, ID_B, ID_C]);
  });

  it('treats names that clean up the same as namesakes and keeps suffixed names within 64 characters', () => {
    const long = 'y'.repeat(70);
    const named = assignToolNames([
      { assistant_id: ID_A, name: 'a b' },
      { assistant_id: ID_B, name: 'a/b' },
      { assistant_id: ID_A, name: long },
      { assistant_id: ID_B, name: long },
    ]);
    expect(named[0].name).toBe('a_b');
    expect(named[1].name).toBe('a_b_7c9e6679');
    expect(named[3].name).toBe(`${'y'.repeat(55)}_7c9e6679`);
    expect(named[3].name).toHaveLength(64);
  });

  it('never hands out a plain name an assistant holds, even when the suffixed name is some assistant’s own', () => {
    const named = assignToolNames([
      { assistant_id: ID_A, name: 'bot' },
      { assistant_id: ID_B, name: 'bot' },
      { assistant_id: ID_C, name: 'bot_7c9e6679' },
    ]);
    expect(named.map((n) => n.name)).toEqual(['bot', `bot_${ID_B.replace(/-/g, '')}`, 'bot_7c9e6679']);
    expect(new Set(named.map((n) => n.name)).size).toBe(3);
  });

  it('is deterministic: the same assistants in the same order get the same names', () => {
    const list = [
      { assistant_id: ID_A, name: 'x' },
      { assistant_id: ID_B, name: 'x' },
      { assistant_id: ID_C, name: 'x' },
    ];
    expect(assignToolNames(list)).toEqual(assignToolNames([...list]));
    expect(assignToolNames(list).map((n) => n.name)).toEqual(['x', 'x_7c9e6679', 'x_e4d909c2']);
  });
});
