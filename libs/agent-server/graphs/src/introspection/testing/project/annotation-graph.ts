// An Annotation.Root graph typed only in TypeScript: its schemas come from the TypeScript compiler.
import { Annotation, MessagesAnnotation, START, StateGraph } from '@langchain/langgraph';
import { research } from './research-graph';
import type { Ticket } from './shared-types';

const InputState = Annotation.Root({
  ...MessagesAnnotation.spec,
  ticket: Annotation<Ticket>,
});

const OutputState = Annotation.Root({
  answer: Annotation<string>,
  attempts: Annotation<number>,
});

const State = Annotation.Root({
  ...InputState.spec,
  ...OutputState.spec,
  topic: Annotation<string>,
  notes: Annotation<string[]>({ reducer: (a, b) => a.concat(b), default: () => [] }),
});

const ConfigState = Annotation.Root({
  model: Annotation<'small' | 'large'>,
  temperature: Annotation<number>,
});

export const graph = new StateGraph({ input: InputState, output: OutputState, stateSchema: State }, ConfigState)
  .addNode('triage', (state) => ({ topic: state.ticket?.title ?? 'nothing' }))
  .addNode('research', research)
  .addNode('reply', (state) => ({ answer: state.notes.join('; '), attempts: 1 }))
  .addEdge(START, 'triage')
  .addEdge('triage', 'research')
  .addEdge('research', 'reply')
  .compile();
