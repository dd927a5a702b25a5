// The worker thread that reads graphs' schemas with the TypeScript compiler, bundled beside main.cjs (a second entry
// point of the build) so that it loads the compiler and nothing of the server.
import '@platform/agent-server-graphs/schema-extraction-worker';
