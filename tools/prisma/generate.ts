// `npm run prisma:generate` (and the root postinstall): generates every service's Prisma client
// into libs/<service>/data-access/src/generated. Offline and quick: WebAssembly engines only, all
// schemas in parallel.
import { runPrisma, services } from './prisma-cli';

async function main(): Promise<void> {
  const started = Date.now();
  const results = await Promise.all(services.map(async (service) => ({ service, ...(await runPrisma(service, ['generate'])) })));
  const failed = results.filter((result) => result.code !== 0);
  for (const { service, stdout, stderr } of failed) {
    console.error(`prisma generate failed for ${service}:\n${stdout}${stderr}`);
  }
  if (failed.length > 0) {
    process.exitCode = 1;
    return;
  }
  console.log(`generated Prisma clients for ${services.join(', ')} in ${Date.now() - started} ms`);
}

main().catch((err: unknown) => {
  console.error(err);
  process.exitCode = 1;
});
