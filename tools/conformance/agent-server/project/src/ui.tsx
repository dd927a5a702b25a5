// A generative UI component for the `agent` graph, bundled by the server (`ui` in langgraph.json).
const Card = (props: { title?: string }) => <div className="conformance-card">{props.title ?? 'card'}</div>;

export default { card: Card };
