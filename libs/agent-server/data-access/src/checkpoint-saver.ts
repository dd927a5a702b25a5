// LangGraph's checkpoint saver on the checkpoint tables (passes the official conformance suite: see
// libs/agent-server/checkpointer/conformance). An entry of its own, apart from the lib's index: importing it loads
// @langchain/langgraph-checkpoint, which the Agent Server may load only after it chose the deployment's own copy
// (apps/agent-server/src/deployment-packages.ts), while it opens and migrates its database before that.
export { PrismaCheckpointSaver } from './checkpoints/prisma-checkpoint.saver';
