import { Command, Send } from '@langchain/langgraph';

/** A command as requests carry it: `{goto, update, resume}`, with `goto` node names or `{node, input}` sends. */
export interface CommandJson {
  goto?: string | { node: string; input?: unknown } | (string | { node: string; input?: unknown })[] | null;
  update?: Record<string, unknown> | [string, unknown][] | null;
  resume?: unknown;
}

const toGoto = (target: string | { node: string; input?: unknown }) => (typeof target === 'string' ? target : new Send(target.node, target.input));

/** The LangGraph `Command` a request's command stands for. */
export function commandFromJson(command: CommandJson): Command {
  const goto = command.goto === null || command.goto === undefined ? undefined : Array.isArray(command.goto) ? command.goto.map(toGoto) : toGoto(command.goto);
  return new Command({
    ...(goto !== undefined ? { goto } : {}),
    ...(command.update !== null && command.update !== undefined ? { update: command.update } : {}),
    ...(command.resume !== undefined ? { resume: command.resume } : {}),
  });
}
