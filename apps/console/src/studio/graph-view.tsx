import { Box, Text } from '@mantine/core';
import { layoutGraph, NODE_HEIGHT, NODE_WIDTH, type GraphInput } from './graph-layout';

const isTerminal = (id: string) => id === '__start__' || id === '__end__';

/** The assistant's graph drawn top-down: dashed edges are conditional, loops go round the right side. */
export function GraphView({ graph, active }: { graph: GraphInput; active?: string[] }) {
  const layout = layoutGraph(graph);
  const at = new Map(layout.nodes.map((n) => [n.id, n]));
  return (
    <Box style={{ overflowX: 'auto' }}>
      <svg
        role="img"
        aria-label={`Graph with nodes ${layout.nodes.map((n) => n.id).join(', ')}`}
        width={layout.width}
        height={layout.height}
        viewBox={`0 0 ${layout.width} ${layout.height}`}
        data-testid="graph"
      >
        <defs>
          <marker id="arrow" viewBox="0 0 10 10" refX="9" refY="5" markerWidth="7" markerHeight="7" orient="auto-start-reverse">
            <path d="M 0 0 L 10 5 L 0 10 z" fill="var(--mantine-color-gray-6)" />
          </marker>
        </defs>
        {layout.edges.map((e, i) => {
          const [s, t] = [at.get(e.source), at.get(e.target)];
          if (!s || !t) return null;
          const x1 = s.x + NODE_WIDTH / 2;
          const x2 = t.x + NODE_WIDTH / 2;
          const path = e.back
            ? `M ${s.x + NODE_WIDTH} ${s.y + NODE_HEIGHT / 2} C ${s.x + NODE_WIDTH + 60} ${s.y}, ${t.x + NODE_WIDTH + 60} ${t.y + NODE_HEIGHT}, ${t.x + NODE_WIDTH} ${t.y + NODE_HEIGHT / 2}`
            : `M ${x1} ${s.y + NODE_HEIGHT} L ${x2} ${t.y}`;
          return (
            <path key={i} d={path} fill="none" stroke="var(--mantine-color-gray-6)" strokeWidth={1.5} strokeDasharray={e.conditional ? '5 4' : undefined} markerEnd="url(#arrow)" />
          );
        })}
        {layout.nodes.map((n) => {
          const highlighted = active?.includes(n.id);
          return (
            <g key={n.id} transform={`translate(${n.x} ${n.y})`}>
              <rect
                width={NODE_WIDTH}
                height={NODE_HEIGHT}
                rx={isTerminal(n.id) ? NODE_HEIGHT / 2 : 6}
                fill={highlighted ? 'var(--mantine-color-blue-1)' : isTerminal(n.id) ? 'var(--mantine-color-gray-1)' : 'var(--mantine-color-body)'}
                stroke={highlighted ? 'var(--mantine-color-blue-6)' : 'var(--mantine-color-gray-5)'}
              />
              <text x={NODE_WIDTH / 2} y={NODE_HEIGHT / 2 + 4} textAnchor="middle" fontSize={12} fill="var(--mantine-color-text)">
                {n.id.length > 16 ? `${n.id.slice(0, 15)}…` : n.id}
              </text>
            </g>
          );
        })}
      </svg>
      {layout.nodes.length === 0 && <Text c="dimmed">The graph has no nodes.</Text>}
    </Box>
  );
}
