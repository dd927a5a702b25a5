const CHANNEL = /^[a-z_][a-z0-9_]{0,62}$/;

/** A LISTEN channel name, checked: it is spliced into `LISTEN "<channel>"`, which takes no parameters. */
export function checkedChannel(channel: string): string {
  if (!CHANNEL.test(channel)) throw new Error(`invalid notification channel "${channel}": use lower-case letters, digits and _`);
  return channel;
}
