import { AIMessage } from '@langchain/core/messages';
import { MessagesAnnotation, START, StateGraph } from '@langchain/langgraph';
import { drawGraph } from './graph-drawing';

const step = (text: string) => () => ({ messages: [new AIMessage(text)] });

const grandchild = new StateGraph(MessagesAnnotation).addNode('deep', step('deep')).addEdge(START, 'deep').compile();
const child = new StateGraph(MessagesAnnotation)
  .addNode('plan', step('plan'))
  .addNode('nested', grandchild)
  .addEdge(START, 'plan')
  .addEdge('plan', 'nested')
  .compile();
const parent = new StateGraph(MessagesAnnotation)
  .addNode('research', child)
  .addNode('answer', step('answer'))
  .addEdge(START, 'research')
  .addConditionalEdges('research', () => 'answer', ['answer', '__end__'])
  .compile();

describe('drawGraph', () => {
  it('draws nodes and edges, conditional edges marked', async () => {
    const drawing = await drawGraph(parent);
    expect(drawing.nodes.map((n) => n.id)).toEqual(['__start__', 'research', 'answer', '__end__']);
    expect(drawing.edges).toEqual(
      expect.arrayContaining([
        { source: '__start__', target: 'research', conditional: false },
        { source: 'research', target: 'answer', conditional: true },
      ]),
    );
  });

  it('draws the inside of subgraphs with xray', async () => {
    const drawing = await drawGraph(parent, { xray: true });
    const ids = drawing.nodes.map((n) => n.id);
    expect(ids).toEqual(expect.arrayContaining(['research:plan', 'research:nested']));
    expect(ids).not.toContain('research');
  });
});
