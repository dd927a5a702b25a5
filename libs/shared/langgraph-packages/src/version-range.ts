// The subset of npm's semver ranges that package.json files use in practice: exact, ^, ~, comparators, x-ranges,
// hyphen ranges and ||. Anything else (tags, URLs, `file:`, `npm:` aliases) is "not satisfied", which only costs
// an `npm install`.
type Version = [number, number, number];

function parse(text: string): Version | undefined {
  const m = /^v?(\d+)\.(\d+)\.(\d+)(?:[-+].*)?$/.exec(text.trim());
  return m ? [Number(m[1]), Number(m[2]), Number(m[3])] : undefined;
}

function compare(a: Version, b: Version): number {
  return a[0] - b[0] || a[1] - b[1] || a[2] - b[2];
}

/** A partial version (`1`, `1.2`, `1.x`, `*`) as [lowest, exclusive upper bound]. */
function partial(text: string): { low: Version; high?: Version } | undefined {
  const m = /^v?(\d+|[xX*])(?:\.(\d+|[xX*]))?(?:\.(\d+|[xX*]))?(?:[-+].*)?$/.exec(text);
  if (!m) return undefined;
  const wild = (p?: string) => p === undefined || /^[xX*]$/.test(p);
  if (wild(m[1])) return { low: [0, 0, 0] };
  const major = Number(m[1]);
  if (wild(m[2])) return { low: [major, 0, 0], high: [major + 1, 0, 0] };
  const minor = Number(m[2]);
  if (wild(m[3])) return { low: [major, minor, 0], high: [major, minor + 1, 0] };
  const exact: Version = [major, minor, Number(m[3])];
  return { low: exact, high: [exact[0], exact[1], exact[2] + 1] };
}

function comparator(version: Version, token: string): boolean | undefined {
  const m = /^(\^|~|>=|<=|>|<|=)?(.+)$/.exec(token);
  if (!m) return undefined;
  const [, op = '', rest] = m;
  const p = partial(rest);
  if (!p) return undefined;
  const { low, high } = p;
  const below = (limit?: Version) => !limit || compare(version, limit) < 0;
  switch (op) {
    case '':
    case '=':
      return compare(version, low) >= 0 && below(high);
    case '^': {
      const upper: Version = low[0] > 0 ? [low[0] + 1, 0, 0] : low[1] > 0 ? [0, low[1] + 1, 0] : high ?? [1, 0, 0];
      return compare(version, low) >= 0 && compare(version, upper) < 0;
    }
    case '~': {
      const upper: Version = rest.split('.').length >= 2 ? [low[0], low[1] + 1, 0] : [low[0] + 1, 0, 0];
      return compare(version, low) >= 0 && compare(version, upper) < 0;
    }
    case '>=':
      return compare(version, low) >= 0;
    case '>':
      return high ? compare(version, high) >= 0 : false;
    case '<':
      return compare(version, low) < 0;
    case '<=':
      return below(high);
    default:
      return undefined;
  }
}

/** Whether `version` satisfies the npm range `range` (undefined forms count as not satisfied). */
export function satisfies(version: string, range: string): boolean {
  const v = parse(version);
  if (!v) return false;
  return range.split('||').some((alternative) => {
    const text = alternative.trim();
    if (text === '' || text === '*' || text === 'latest') return true;
    const hyphen = /^(\S+)\s+-\s+(\S+)$/.exec(text);
    if (hyphen) return comparator(v, `>=${hyphen[1]}`) === true && comparator(v, `<=${hyphen[2]}`) === true;
    const tokens = text.replace(/(\^|~|>=|<=|>|<|=)\s+/g, '$1').split(/\s+/);
    return tokens.every((token) => comparator(v, token) === true);
  });
}
