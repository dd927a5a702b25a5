import { compareChannelVersions } from '@langchain/langgraph-checkpoint';
import { nextChannelVersion } from './channel-version';

describe('nextChannelVersion', () => {
  it('counts up from nothing, numbers and its own strings, in compareChannelVersions order', () => {
    const first = nextChannelVersion(undefined);
    const second = nextChannelVersion(first);
    expect(first.startsWith(`${'0'.repeat(31)}1.`)).toBe(true);
    expect(second.startsWith(`${'0'.repeat(31)}2.`)).toBe(true);
    expect(compareChannelVersions(second, first)).toBe(1);
    expect(nextChannelVersion(7).startsWith(`${'0'.repeat(31)}8.`)).toBe(true);
  });

  it('differs between two branches forked from the same version', () => {
    expect(nextChannelVersion(3)).not.toEqual(nextChannelVersion(3));
  });
});
