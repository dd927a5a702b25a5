// Integration and e2e tests start real services and databases; `testTimeout` is a global-only jest option,
// so the groups that need more time set it here.
jest.setTimeout(Number(process.env.JEST_LONG_TIMEOUT_MS ?? 120_000));
