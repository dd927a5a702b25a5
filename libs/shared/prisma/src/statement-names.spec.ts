import { StatementNames } from './statement-names';

describe('StatementNames', () => {
  it('gives one text the same name every time and different texts different names', () => {
    const names = new StatementNames();
    const a = names.nameOf('SELECT $1');
    expect(a).toBeDefined();
    expect(names.nameOf('SELECT $1')).toBe(a);
    expect(names.nameOf('SELECT $1, $2')).not.toBe(a);
  });

  it('stops naming new texts at its capacity but keeps the names it gave', () => {
    const names = new StatementNames(2);
    const first = names.nameOf('SELECT 1');
    const second = names.nameOf('SELECT 2');
    expect(names.nameOf('SELECT 3')).toBeUndefined();
    expect([names.nameOf('SELECT 1'), names.nameOf('SELECT 2')]).toEqual([first, second]);
  });
});
