import { InputError } from '@platform/errors';
import type { Caller } from './authenticate.usecase';
import type { BrowserSession } from './browser-session';

export interface SignedIn {
  /** The cookie's value; only its hash is stored. */
  token: string;
  csrfToken: string;
  session: BrowserSession;
  caller: Caller;
}

export function sessionOf(caller: Caller): BrowserSession {
  if (!caller.session) throw new InputError('This request was not made with a browser session');
  return caller.session;
}
