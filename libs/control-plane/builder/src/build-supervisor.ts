/**
 * A small Node program that runs one build command and dies with the control plane. It is the leader of its own
 * process group and starts the command in that group (npm, shells and their children stay in it), so killing the
 * group ends the whole build. Its stdin is a pipe from the control plane that nothing writes to: end of file
 * means the control plane is gone (even by kill -9, when the kernel closes its end), and the supervisor then kills
 * its group, so no build outlives the control plane that started it and a successor never runs one beside it.
 * Run as `node -e SUPERVISOR_SOURCE '<json {command, args, shell}>'`: no file to ship beside a bundle.
 */
export const SUPERVISOR_SOURCE = `
const { spawn } = require('node:child_process');
const { constants } = require('node:os');
const { command, args, shell } = JSON.parse(process.argv[1]);
const killGroup = () => {
  try { process.kill(-process.pid, 'SIGKILL'); } catch { process.exit(137); }
};
process.stdin.on('end', killGroup);
process.stdin.on('error', killGroup);
process.stdin.resume();
const child = spawn(command, args, { stdio: ['ignore', 'inherit', 'inherit'], shell });
child.on('error', (err) => {
  process.stderr.write(err.message + '\\n');
  process.exit(127);
});
child.on('exit', (code, signal) => process.exit(code ?? 128 + (constants.signals[signal] ?? 0)));
`;
