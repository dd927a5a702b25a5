// Issue 17 §7 (last bullet): the metadata a run carries and the metadata its checkpoints get.
import { section } from '../harness/step';
import { kwargsOf } from '../harness/target';

export const metadataSteps = section('metadata', {
  'run metadata (system assistant, by graph id)': async (t) => {
    const thread = await t.sdk().threads.create();
    t.keep('thread:metadata', thread.thread_id);
    const run = await t.sdk().runs.create(thread.thread_id, 'factory', { input: {}, metadata: { source: 'harness' } });
    t.keep('run:metadata', run.run_id);
    await t.sdk().runs.join(thread.thread_id, run.run_id);
    return run.metadata;
  },
  'run metadata (own assistant)': async (t) => {
    const assistant = await t.sdk().assistants.create({ graphId: 'factory', name: 'metadata', metadata: { owner_team: 'x' } });
    t.keep('assistant:metadata', assistant.assistant_id);
    const run = await t.sdk().runs.create(t.id('thread:metadata'), assistant.assistant_id, { input: {} });
    await t.sdk().runs.join(t.id('thread:metadata'), run.run_id);
    return run.metadata;
  },
  'thread metadata after runs': async (t) => (await t.sdk().threads.get(t.id('thread:metadata'))).metadata,
  'checkpoint metadata of each state': async (t) => {
    const history = await t.sdk().threads.getHistory(t.id('thread:metadata'));
    return history.map((state) => state.metadata);
  },
  'run kwargs (config) as stored': async (t) => kwargsOf(await t.sdk().runs.get(t.id('thread:metadata'), t.id('run:metadata'))),
});
