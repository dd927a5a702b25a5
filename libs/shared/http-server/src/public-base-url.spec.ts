import { publicBaseUrl } from './public-base-url';

const headers = (values: Record<string, string>) => (name: string) => values[name.toLowerCase()];

describe('publicBaseUrl', () => {
  it('takes the public base URL from the forwarded headers, else from the request', () => {
    const own = { protocol: 'http', host: '10.0.0.5:8080' };
    expect(publicBaseUrl(headers({}), own)).toBe('http://10.0.0.5:8080');
    expect(
      publicBaseUrl(headers({ 'x-forwarded-proto': 'https, http', 'x-forwarded-host': 'api.example.com', 'x-forwarded-prefix': '/deployments/d-1/' }), own),
    ).toBe('https://api.example.com/deployments/d-1');
    // A prefix that is not a plain path is ignored.
    expect(publicBaseUrl(headers({ 'x-forwarded-prefix': '//evil.example.com' }), own)).toBe('http://10.0.0.5:8080');
    expect(publicBaseUrl(headers({ 'x-forwarded-prefix': 'no-slash' }), own)).toBe('http://10.0.0.5:8080');
  });
});
