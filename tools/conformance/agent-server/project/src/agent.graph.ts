// An Annotation-typed chat graph without an LLM: a scripted streaming chat model answers, a node writes to the
// store and to the custom stream. Its schemas exist only as TypeScript types (the reference extracts them with the
// TypeScript compiler).
import { FakeListChatModel } from '@langchain/core/utils/testing';
import { Annotation, MessagesAnnotation, StateGraph, type LangGraphRunnableConfig } from '@langchain/langgraph';

const State = Annotation.Root({
  ...MessagesAnnotation.spec,
  /** How many turns the graph has answered. */
  turns: Annotation<number>({ reducer: (a, b) => a + b, default: () => 0 }),
});

const Context = Annotation.Root({
  /** Who the graph greets. */
  user_name: Annotation<string>,
});

const model = new FakeListChatModel({ responses: [process.env.CONFORMANCE_GREETING ?? 'Hi there'] });

async function remember(state: typeof State.State, config: LangGraphRunnableConfig) {
  const last = state.messages.at(-1);
  const text = typeof last?.content === 'string' ? last.content : '';
  await config.store?.put(['memories', 'conformance'], `turn-${state.turns}`, { text });
  config.writer?.({ remembered: text });
  return {};
}

async function respond(state: typeof State.State, config: LangGraphRunnableConfig) {
  const found = await config.store?.search(['memories', 'conformance']);
  config.writer?.({ memories: found?.length ?? 0 });
  const reply = await model.invoke(state.messages, config);
  return { messages: [reply], turns: 1 };
}

export const graph = new StateGraph(State, Context)
  .addNode('remember', remember)
  .addNode('respond', respond)
  .addEdge('__start__', 'remember')
  .addEdge('remember', 'respond')
  .addEdge('respond', '__end__')
  .compile();
