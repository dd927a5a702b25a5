import { cpSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { MemorySaver } from '@langchain/langgraph';
import { createGraphRegistry, type GraphRegistry } from '../graph-registry';
import { platformNodeModules } from '../project/graph-module-loader';
import { loadLangGraphProject } from '../project/load-langgraph-project';
import { graphSchema, subgraphSchemas } from './graph-introspection';
import type { JsonSchema } from './graph-schema';
import { createTypeScriptSchemaSource } from './typescript/typescript-schema-source';

// The TypeScript compiler reads LangGraph's and LangChain's declarations: tens of seconds on a busy machine.
jest.setTimeout(600_000);

const repoRoot = path.resolve(__dirname, '../../../../..');
const fixture = path.join(__dirname, 'testing', 'project');
const propertiesOf = (schema: JsonSchema | undefined) => Object.keys((schema?.properties as object | undefined) ?? {});

/**
 * The fixture project (see testing/project) copied into the repository's tmp/ (so its packages resolve as a
 * deployment's do), loaded as the server loads it, its TypeScript schemas read in a worker and cached on disk.
 */
describe('graph introspection of a project', () => {
  let work: string;
  let registry: GraphRegistry;
  let graphs: Awaited<ReturnType<typeof loadLangGraphProject>>['graphs'];
  const cacheDir = () => path.join(work, 'cache');
  const sourceFor = (timeoutMs: number) => createTypeScriptSchemaSource({ graphs, cacheDir: cacheDir(), timeoutMs, fallbackNodeModules: platformNodeModules() });

  beforeAll(async () => {
    mkdirSync(path.join(repoRoot, 'tmp'), { recursive: true });
    work = mkdtempSync(path.join(repoRoot, 'tmp', 'introspection-'));
    cpSync(fixture, path.join(work, 'project'), { recursive: true });
    ({ graphs } = await loadLangGraphProject(path.join(work, 'project', 'langgraph.json')));
    registry = createGraphRegistry({ graphs, checkpointer: new MemorySaver(), typeSchemas: sourceFor(500_000) });
  });
  afterAll(() => rmSync(work, { recursive: true, force: true }));

  const schemaOf = async (graphId: string) => graphSchema(registry, graphId, await registry.get(graphId));

  it('reads an Annotation graph’s schemas from its TypeScript types, following imports of other files', async () => {
    const schema = await schemaOf('annotation');

    // As the reference: the state is what the compiled graph takes (its input annotation here), messages by reference.
    expect(propertiesOf(schema.state)).toEqual(['ticket', 'messages']);
    expect(schema.state).toMatchObject({
      $schema: 'http://json-schema.org/draft-07/schema#',
      properties: { messages: { type: 'array', items: { $ref: '#/definitions/BaseMessage<MessageStructure<MessageToolSet>,MessageType>' } } },
    });
    const definitions = schema.state?.definitions as Record<string, JsonSchema>;
    // Ticket and Priority come from shared-types.ts, its JSDoc included.
    expect(definitions.Priority).toEqual({ enum: ['high', 'low', 'normal'], type: 'string' });
    const ticket = Object.entries(definitions).find(([name]) => name.startsWith('{title:string;'))?.[1];
    expect(ticket).toMatchObject({ properties: { title: { type: 'string', description: "The ticket's title." }, priority: { $ref: '#/definitions/Priority' } } });
    expect(propertiesOf(schema.input)).toEqual(['ticket', 'messages']);
    expect(schema.output).toEqual({ type: 'object', properties: { answer: { type: 'string' }, attempts: { type: 'number' } }, $schema: 'http://json-schema.org/draft-07/schema#' });
    expect(schema.config).toMatchObject({ properties: { model: { enum: ['large', 'small'], type: 'string' }, temperature: { type: 'number' } } });
  });

  it('reads a graph factory’s types through what it returns', async () => {
    const schema = await schemaOf('factory');
    expect(propertiesOf(schema.state)).toEqual(['variant', 'messages']);
    expect(schema.config).toEqual({ type: 'object', $schema: 'http://json-schema.org/draft-07/schema#' });
  });

  it('prefers a graph’s runtime schemas (zod, StateSchema) to its types', async () => {
    expect((await schemaOf('zod3')).state).toMatchObject({ properties: { messages: { langgraph_type: 'messages' }, question: { type: 'string' } } });
    expect((await schemaOf('state_schema')).state).toMatchObject({ properties: { messages: { langgraph_type: 'messages' }, total: { type: 'number' } } });
    // zod 4 messages (z.custom) do not convert: only the context is known, as the reference answers.
    expect(await schemaOf('zod4')).toEqual({ state: undefined, input: undefined, output: undefined, config: expect.objectContaining({ required: ['model'] }) });
  });

  it('has no schemas for a graph whose source has no types (the reference answers 500 there)', async () => {
    expect(await schemaOf('untyped')).toEqual({});
    await expect(registry.typeSchemas('untyped')).rejects.toThrow(/untyped/);
  });

  it('gives subgraphs their own schemas, the root graph’s where the source does not name the subgraph', async () => {
    const graph = await registry.get('annotation');
    const direct = await subgraphSchemas(registry, 'annotation', graph);
    expect(Object.keys(direct)).toEqual(['research']);
    expect(propertiesOf(direct.research.state)).toEqual(['topic', 'notes']);
    expect(direct.research.state?.properties).toEqual({ topic: { type: 'string' }, notes: { type: 'array', items: { type: 'string' } } });

    const all = await subgraphSchemas(registry, 'annotation', graph, { recurse: true });
    expect(Object.keys(all)).toEqual(['research', 'research|digest']);
    // `digest` is built in research-graph.ts, which the extraction does not follow (nor does the reference's).
    expect(all['research|digest']).toEqual(await schemaOf('annotation'));
    expect(Object.keys(await subgraphSchemas(registry, 'annotation', graph, { namespace: 'research|digest', recurse: true }))).toEqual(['research|digest']);
    expect(await subgraphSchemas(registry, 'annotation', graph, { namespace: 'nowhere' })).toEqual({});
  });

  it('keeps the schemas on disk: another server reuses them while the sources are unchanged, and reads them again after a change', async () => {
    await registry.typeSchemas('annotation');
    expect(readdirSync(cacheDir()).filter((name) => name.endsWith('.json'))).toHaveLength(1);
    // No time at all to extract: the answer can only come from the cache.
    const cached = sourceFor(1);
    expect(propertiesOf((await cached.schemas('annotation')).graph?.output)).toEqual(['answer', 'attempts']);

    const file = path.join(work, 'project', 'annotation-graph.ts');
    writeFileSync(file, readFileSync(file, 'utf8').replace('attempts: Annotation<number>,', 'attempts: Annotation<number>,\n  cost: Annotation<number>,'));
    await expect(sourceFor(1).schemas('annotation')).rejects.toThrow(/timed out/);
    expect(propertiesOf((await sourceFor(500_000).schemas('annotation')).graph?.output)).toEqual(['answer', 'attempts', 'cost']);
  });
});
