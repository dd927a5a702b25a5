import { Command, Send } from '@langchain/langgraph';
import type { CommandJson } from '@platform/agent-server-run-records';

type GotoTarget = string | { node: string; input?: unknown };
const toGoto = (target: GotoTarget) => (typeof target === 'string' ? target : new Send(target.node, target.input));

/** The LangGraph `Command` a request's `command` stands for (`goto` targets may be `{node, input}` sends). */
export function toCommand(command: CommandJson): Command {
  const goto = command.goto == null ? undefined : Array.isArray(command.goto) ? command.goto.map(toGoto) : toGoto(command.goto);
  return new Command({
    ...(goto !== undefined ? { goto } : {}),
    ...(command.update != null ? { update: command.update } : {}),
    ...(command.resume !== undefined ? { resume: command.resume } : {}),
  });
}
