import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { SchemaCache } from './schema-cache';
import type { GraphTypeSchemas } from './typescript-graph-schemas';

const GRAPHS: Record<string, GraphTypeSchemas> = { agent: { schemas: { agent: { state: { type: 'object' } } } } };

/** A project folder as a build makes it: a graph source and one installed package. */
function project(root: string, source: string): string {
  fs.mkdirSync(path.join(root, 'src'), { recursive: true });
  fs.mkdirSync(path.join(root, 'node_modules', '@langchain', 'core'), { recursive: true });
  fs.writeFileSync(path.join(root, 'src', 'graph.ts'), source);
  fs.writeFileSync(path.join(root, 'node_modules', '@langchain', 'core', 'package.json'), JSON.stringify({ name: '@langchain/core', version: '1.4.0' }));
  fs.writeFileSync(path.join(root, 'node_modules', '@langchain', 'core', 'index.d.ts'), 'export {};');
  return root;
}

const filesOf = (root: string) => [path.join(root, 'src', 'graph.ts'), path.join(root, 'node_modules', '@langchain', 'core', 'index.d.ts')];
const specsOf = (root: string) => ({ agent: { sourceFile: path.join(root, 'src', 'graph.ts'), exportName: 'graph' } });

describe('SchemaCache', () => {
  let tmp: string;
  beforeEach(() => {
    tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'schema-cache-'));
  });
  afterEach(() => fs.rmSync(tmp, { recursive: true, force: true }));

  it("is reused by a new revision's copy of the project whose sources and packages did not change", () => {
    const cacheDir = path.join(tmp, 'cache');
    const first = project(path.join(tmp, 'rev-1'), 'export const graph = 1;');
    new SchemaCache(cacheDir, first).write(specsOf(first), filesOf(first), GRAPHS);
    const second = project(path.join(tmp, 'rev-2'), 'export const graph = 1;');
    expect(new SchemaCache(cacheDir, second).read(specsOf(second))).toEqual(GRAPHS);
  });

  it('is not reused when a source or a package version changed', () => {
    const cacheDir = path.join(tmp, 'cache');
    const first = project(path.join(tmp, 'rev-1'), 'export const graph = 1;');
    new SchemaCache(cacheDir, first).write(specsOf(first), filesOf(first), GRAPHS);
    const edited = project(path.join(tmp, 'rev-2'), 'export const graph = 2;');
    expect(new SchemaCache(cacheDir, edited).read(specsOf(edited))).toBeUndefined();
    const upgraded = project(path.join(tmp, 'rev-3'), 'export const graph = 1;');
    fs.writeFileSync(path.join(upgraded, 'node_modules', '@langchain', 'core', 'package.json'), JSON.stringify({ name: '@langchain/core', version: '1.5.0' }));
    expect(new SchemaCache(cacheDir, upgraded).read(specsOf(upgraded))).toBeUndefined();
  });

  it('without a project folder, names files by their absolute paths (a copy elsewhere extracts again)', () => {
    const cacheDir = path.join(tmp, 'cache');
    const first = project(path.join(tmp, 'rev-1'), 'export const graph = 1;');
    new SchemaCache(cacheDir).write(specsOf(first), filesOf(first), GRAPHS);
    expect(new SchemaCache(cacheDir).read(specsOf(first))).toEqual(GRAPHS);
    const second = project(path.join(tmp, 'rev-2'), 'export const graph = 1;');
    expect(new SchemaCache(cacheDir).read(specsOf(second))).toBeUndefined();
  });
});
