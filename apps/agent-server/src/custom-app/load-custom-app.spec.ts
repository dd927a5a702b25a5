import path from 'node:path';
import { InputError } from '@platform/errors';
import { loadCustomApp } from './load-custom-app';

const dir = path.join(__dirname, 'testing');

describe('loadCustomApp (langgraph.json http.app)', () => {
  it("loads the project's Hono app", async () => {
    const app = await loadCustomApp('./fixture-app.ts:app', dir);
    expect(await (await app.fetch(new Request('http://localhost/x'))).text()).toBe('x');
  });

  it('refuses what is missing, fails to import or is not a Hono app, naming it', async () => {
    await expect(loadCustomApp('./missing.ts:app', dir)).rejects.toThrow(new InputError('http.app: file ./missing.ts not found'));
    await expect(loadCustomApp('./fixture-app.ts:nope', dir)).rejects.toThrow("http.app: ./fixture-app.ts has no export 'nope'");
    await expect(loadCustomApp('./fixture-app.ts:notApp', dir)).rejects.toThrow("http.app: export 'notApp' of ./fixture-app.ts is not a Hono app");
    await expect(loadCustomApp('./failing-app.ts:app', dir)).rejects.toThrow('http.app: cannot load ./failing-app.ts: no database configured');
  });
});
