import { layoutGraph } from './graph-layout';

describe('layoutGraph', () => {
  // The example ReAct agent as /assistants/{id}/graph answers it.
  const react = {
    nodes: [{ id: '__start__' }, { id: 'agent' }, { id: 'tools' }, { id: '__end__' }],
    edges: [
      { source: '__start__', target: 'agent' },
      { source: 'agent', target: 'tools', conditional: true },
      { source: 'agent', target: '__end__', conditional: true },
      { source: 'tools', target: 'agent' },
    ],
  };

  it('ranks nodes by their longest path from the start; a loop back is a back edge', () => {
    const layout = layoutGraph(react);
    const rank = Object.fromEntries(layout.nodes.map((n) => [n.id, n.rank]));
    expect(rank).toEqual({ __start__: 0, agent: 1, tools: 2, __end__: 3 });
    expect(layout.edges.filter((e) => e.back).map((e) => `${e.source}->${e.target}`)).toEqual(['tools->agent']);
    expect(layout.edges.find((e) => e.target === 'tools')?.conditional).toBe(true);
  });

  it('places nodes of one rank side by side, inside the drawing', () => {
    const layout = layoutGraph({
      nodes: [{ id: '__start__' }, { id: 'a' }, { id: 'b' }, { id: '__end__' }],
      edges: [
        { source: '__start__', target: 'a' },
        { source: '__start__', target: 'b' },
        { source: 'a', target: '__end__' },
        { source: 'b', target: '__end__' },
      ],
    });
    const [a, b] = ['a', 'b'].map((id) => layout.nodes.find((n) => n.id === id)!);
    expect(a.y).toBe(b.y);
    expect(a.x).not.toBe(b.x);
    for (const n of layout.nodes) {
      expect(n.x).toBeGreaterThanOrEqual(0);
      expect(n.x).toBeLessThanOrEqual(layout.width);
      expect(n.y).toBeLessThanOrEqual(layout.height);
    }
  });

  it('draws a graph without __start__ or edges', () => {
    const layout = layoutGraph({ nodes: [{ id: 'solo' }], edges: [] });
    expect(layout.nodes).toEqual([expect.objectContaining({ id: 'solo', rank: 0 })]);
  });
});
