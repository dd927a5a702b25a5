import { resolveSharedPackages, unsupportedMessage, unsupportedPackages, type SharedPackage } from './deployment-packages';
import { packageTree, type PackageTree } from './package-tree.testing';

const summary = (packages: SharedPackage[]) => Object.fromEntries(packages.map((p) => [p.name, `${p.version} ${p.origin}`]));

describe('resolveSharedPackages', () => {
  let tree: PackageTree;
  beforeEach(() => {
    tree = packageTree();
    for (const [name, version] of Object.entries({
      '@langchain/langgraph': '1.7.3',
      '@langchain/core': '1.4.0',
      '@langchain/langgraph-checkpoint': '1.2.2',
      '@langchain/langgraph-sdk': '1.15.0',
      langsmith: '0.12.0',
    })) {
      tree.install('platform', name, version);
    }
  });
  afterEach(() => tree.remove());

  it('takes every package from the platform when the project installs none', () => {
    expect(summary(resolveSharedPackages(tree.path('project'), tree.path('platform')))).toEqual({
      '@langchain/langgraph': '1.7.3 platform',
      '@langchain/core': '1.4.0 platform',
      '@langchain/langgraph-checkpoint': '1.2.2 platform',
      '@langchain/langgraph-sdk': '1.15.0 platform',
      langsmith: '0.12.0 platform',
    });
  });

  it("counts a checkout under the platform's root, without node_modules of its own, as the platform's", () => {
    const packages = resolveSharedPackages(tree.path('platform', 'work', 'builds', 'x'), tree.path('platform'));
    expect(packages.every((p) => p.origin === 'platform')).toBe(true);
  });

  it("takes the project's copies, and LangGraph's own dependencies where it nests them", () => {
    tree.install('project', '@langchain/langgraph', '1.4.0');
    tree.install('project', '@langchain/core', '1.1.48');
    tree.install('project', '@langchain/langgraph-checkpoint', '1.2.0');
    tree.install('project/node_modules/@langchain/langgraph', '@langchain/langgraph-checkpoint', '1.1.0');
    tree.install('project/node_modules/@langchain/core', 'langsmith', '0.5.0');
    const packages = resolveSharedPackages(tree.path('project', 'src', '..'), tree.path('platform'));
    expect(summary(packages)).toEqual({
      '@langchain/langgraph': '1.4.0 project',
      '@langchain/core': '1.1.48 project',
      '@langchain/langgraph-checkpoint': '1.1.0 project',
      '@langchain/langgraph-sdk': '1.15.0 platform',
      langsmith: '0.5.0 project',
    });
    expect(packages.find((p) => p.name === '@langchain/langgraph-checkpoint')?.dir).toBe(
      tree.path('project', 'node_modules', '@langchain', 'langgraph', 'node_modules', '@langchain', 'langgraph-checkpoint'),
    );
  });

  it("follows pnpm's layout: LangGraph's peers and dependencies beside it in the store, not at the project's root", () => {
    const store = 'project/node_modules/.pnpm/@langchain+langgraph@1.4.0';
    tree.install(store, '@langchain/langgraph', '1.4.0');
    tree.install(store, '@langchain/core', '1.1.48');
    tree.install(store, '@langchain/langgraph-checkpoint', '1.1.0');
    tree.link(`${store}/node_modules/@langchain/langgraph`, 'project/node_modules/@langchain/langgraph');
    const packages = resolveSharedPackages(tree.path('project'), tree.path('platform'));
    expect(summary(packages)).toMatchObject({ '@langchain/core': '1.1.48 project', '@langchain/langgraph-checkpoint': '1.1.0 project' });
    const core = packages.find((p) => p.name === '@langchain/core');
    expect(core?.dir).toBe(tree.path(store, 'node_modules', '@langchain', 'core'));
  });
});

describe('unsupportedPackages', () => {
  const pkg = (name: string, version: string): SharedPackage => ({ name, version, location: '', dir: '', origin: 'project' });

  it('names each package outside its supported range with the version found and the range', () => {
    const problems = unsupportedPackages([
      pkg('@langchain/langgraph', '0.2.74'),
      pkg('@langchain/core', '0.3.80'),
      pkg('@langchain/langgraph-checkpoint', '1.1.0'),
      pkg('@langchain/langgraph-sdk', '0.0.112'),
    ]);
    expect(problems).toEqual([
      { name: '@langchain/core', version: '0.3.80', range: '^1.1.48' },
      { name: '@langchain/langgraph', version: '0.2.74', range: '^1.3.6' },
    ]);
    expect(unsupportedMessage(problems)).toBe(
      'Unsupported LangGraph.js versions: @langchain/core 0.3.80 (supported: ^1.1.48), @langchain/langgraph 0.2.74 (supported: ^1.3.6). ' +
        'Install a supported version (package.json and its lockfile).',
    );
  });

  it('accepts the bounds of the ranges, and a prerelease of a supported release', () => {
    expect(unsupportedPackages([pkg('@langchain/core', '1.1.48'), pkg('@langchain/langgraph', '1.99.0'), pkg('@langchain/langgraph-checkpoint', '1.2.3-rc.1')])).toEqual([]);
    expect(unsupportedPackages([pkg('@langchain/langgraph', '2.0.0')])).toHaveLength(1);
  });
});
