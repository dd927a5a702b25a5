// Integration and e2e tests start real services and databases; `testTimeout` is a global-only jest option,
// so the groups that need more time set it here (and tools/jest/heavy-unit.setup.js for the unit specs that do).
// Five minutes: a cap for a hung test, never reached by a passing one, however loaded the machine. On 2 CPUs at a
// load of ~25, an in-memory PGlite database with its migrations took 117 s to open (tracing-database.spec.ts) and
// more than 120 s (gateway-database.spec.ts), where it takes a few seconds on an idle machine.
jest.setTimeout(Number(process.env.JEST_LONG_TIMEOUT_MS ?? 300_000));
