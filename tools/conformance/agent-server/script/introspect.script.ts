// Issue 17 §4: schemas (zod and Annotation), subgraphs, drawings, and a graph factory built per run and per read.
import { section } from '../harness/step';
import { capture } from '../harness/target';

export const introspectSteps = section('introspect', {
  'schemas of an Annotation graph (TypeScript types only)': (t) => capture(() => t.sdk().assistants.getSchemas('agent')),
  'schemas of a zod graph': (t) => capture(() => t.sdk().assistants.getSchemas('zod_agent')),
  'schemas of nested subgraphs': (t) => capture(() => t.sdk().assistants.getSchemas('nested')),
  'graph drawing': (t) => capture(() => t.sdk().assistants.getGraph('nested')),
  'graph drawing with xray': (t) => capture(() => t.sdk().assistants.getGraph('nested', { xray: true })),
  'subgraphs': (t) => capture(() => t.sdk().assistants.getSubgraphs('nested')),
  'subgraphs recursively': (t) => capture(() => t.sdk().assistants.getSubgraphs('nested', { recurse: true })),
  'subgraphs of a namespace': (t) => capture(() => t.sdk().assistants.getSubgraphs('nested', { namespace: 'child' })),
  'a zod graph runs with context': (t) => t.sdk().runs.wait(null, 'zod_agent', { input: { items: ['x'] }, context: { prefix: '>' } }),
  'a factory graph built from the run config': async (t) => {
    const thread = await t.sdk().threads.create();
    t.keep('thread:factory', thread.thread_id);
    return t.sdk().runs.wait(thread.thread_id, 'factory', { input: {}, config: { configurable: { flavour: 'spicy' } } });
  },
  'the factory graph of a state read': (t) => t.sdk().threads.getState(t.id('thread:factory')),
  'updateState as a node only the factory made': (t) =>
    capture(() => t.sdk().threads.updateState(t.id('thread:factory'), { values: { greeting: 'edited' }, asNode: 'greet_spicy' })),
  'factory graph drawing': (t) => capture(() => t.sdk().assistants.getGraph('factory')),
});
