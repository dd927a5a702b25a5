import { EgressPolicy } from '@platform/egress';
import { remoteHostRefused, type DeploymentRules } from './deployment-rules';

// Issue 38: with GIT_ALLOWED_URLS=https:// a repo at https://10.0.0.1/... (or a name resolving to a private
// address) passed the API. Its host is checked with the control plane's egress policy.
describe('remoteHostRefused', () => {
  const names: Record<string, string> = { 'git.example.com': '140.82.112.3', 'intranet.example.com': '10.0.0.7', 'metadata.example.com': '169.254.169.254' };
  const resolver = async (host: string) => (names[host] ? [{ address: names[host], family: 4 }] : []);
  const rules = (allowedCidrs: string[] = [], allowedHosts: string[] = []): DeploymentRules => ({
    allowedRepoUrls: ['https://', 'file:///srv/repos'],
    egress: new EgressPolicy({ allowedCidrs, allowedHosts, resolver }),
  });

  it('refuses a non-public address, literal or by name, naming the rule', async () => {
    for (const url of ['https://10.0.0.1/org/repo.git', 'https://127.0.0.1:8080/repo.git', 'https://[::1]/repo.git', 'https://intranet.example.com/repo.git', 'https://metadata.example.com/repo.git']) {
      expect([url, await remoteHostRefused(url, rules())]).toEqual([url, expect.stringMatching(/^repo_url is refused: .* leads to a [a-z-]+ address \(.*\(EGRESS_ALLOWED_CIDRS, EGRESS_ALLOWED_HOSTS\)$/)]);
    }
  });

  it('passes public hosts, what the operator allows, names that do not resolve (the clone checks again) and local paths', async () => {
    expect(await remoteHostRefused('https://git.example.com/org/repo.git', rules())).toBeUndefined();
    expect(await remoteHostRefused('https://intranet.example.com/repo.git', rules(['10.0.0.0/8']))).toBeUndefined();
    expect(await remoteHostRefused('https://intranet.example.com/repo.git', rules([], ['intranet.example.com']))).toBeUndefined();
    expect(await remoteHostRefused('https://nowhere.example.com/repo.git', rules())).toBeUndefined();
    expect(await remoteHostRefused('file:///srv/repos/x', rules())).toBeUndefined();
    expect(await remoteHostRefused('https://10.0.0.1/repo.git', { allowedRepoUrls: ['https://'] })).toBeUndefined();
  });
});
