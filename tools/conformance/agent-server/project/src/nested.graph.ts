// Nested subgraphs with an interrupt two levels down: parent → child (a subgraph node) → grandchild (a subgraph
// node) → ask (interrupts). Resuming with Command({resume}) finishes all three.
import { Annotation, END, START, StateGraph, interrupt } from '@langchain/langgraph';

const State = Annotation.Root({
  log: Annotation<string[]>({ reducer: (a, b) => a.concat(b), default: () => [] }),
});

const grandchild = new StateGraph(State)
  .addNode('ask', () => {
    const answer = interrupt({ question: 'Approve?', level: 'grandchild' });
    return { log: [`grandchild:${String(answer)}`] };
  })
  .addEdge(START, 'ask')
  .addEdge('ask', END)
  .compile();

const child = new StateGraph(State)
  .addNode('child_step', () => ({ log: ['child'] }))
  .addNode('grandchild', grandchild)
  .addEdge(START, 'child_step')
  .addEdge('child_step', 'grandchild')
  .addEdge('grandchild', END)
  .compile();

export const graph = new StateGraph(State)
  .addNode('parent_step', () => ({ log: ['parent'] }))
  .addNode('child', child)
  .addNode('finish', (state) => ({ log: [`done:${state.log.length}`] }))
  .addEdge(START, 'parent_step')
  .addEdge('parent_step', 'child')
  .addEdge('child', 'finish')
  .addEdge('finish', END)
  .compile();
