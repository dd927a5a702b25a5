// The code each UI bundle ends with: `render(name, shadowRootId)` hands the named component to the page's
// `LoadExternalComponent` (@langchain/langgraph-sdk/react-ui), through the store it keeps under LGUI_EXT_STORE.
export const UI_RENDER_TEMPLATE = `
const LGUI_STORE = Symbol.for("LGUI_EXT_STORE");
function createRenderer(components) {
  return (name, shadowRootId) => {
    const root = document.getElementById(shadowRootId).shadowRoot;
    const renderEl = document.createElement("div");
    root.appendChild(renderEl);
    window[LGUI_STORE].respond(shadowRootId, components[name], renderEl);
  };
}
`;
