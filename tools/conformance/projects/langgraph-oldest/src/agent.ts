// ESM syntax, loaded through require (tsx): a subgraph, the store, a node only a Send reaches, an interrupt.
import { AIMessage } from '@langchain/core/messages';
import { Annotation, END, interrupt, MessagesAnnotation, START, StateGraph, type LangGraphRunnableConfig } from '@langchain/langgraph';

const State = Annotation.Root({
  ...MessagesAnnotation.spec,
  visits: Annotation<string[]>({ reducer: (a, b) => a.concat(b), default: () => [] }),
});

const reply = new StateGraph(MessagesAnnotation)
  .addNode('echo', (state) => ({ messages: [new AIMessage(`echo: ${String(state.messages.at(-1)?.content)}`)] }))
  .addEdge(START, 'echo')
  .compile();

async function remember(state: typeof State.State, config: LangGraphRunnableConfig) {
  await config.store?.put(['memories'], 'last', { text: String(state.messages.at(-1)?.content) });
  return {};
}

export const graph = new StateGraph(State)
  .addNode('reply', reply)
  .addNode('remember', remember, { ends: ['visit', END] })
  // Reached only by a Send (a run's `command.goto: {node, input}`).
  .addNode('visit', (input: { who: string }) => ({ visits: [input.who] }))
  .addEdge(START, 'reply')
  .addEdge('reply', 'remember')
  .compile();

export const approval = new StateGraph(MessagesAnnotation)
  .addNode('ask', () => {
    const answer = interrupt({ question: 'Approve?' });
    return { messages: [new AIMessage(`answer: ${String(answer)}`)] };
  })
  .addEdge(START, 'ask')
  .compile();
