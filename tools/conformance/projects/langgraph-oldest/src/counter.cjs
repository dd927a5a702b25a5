// A CommonJS graph module.
const { Annotation, START, StateGraph } = require('@langchain/langgraph');

const State = Annotation.Root({ count: Annotation({ reducer: (a, b) => a + b, default: () => 0 }) });

exports.graph = new StateGraph(State)
  .addNode('add', () => ({ count: 1 }))
  .addEdge(START, 'add')
  .compile();
