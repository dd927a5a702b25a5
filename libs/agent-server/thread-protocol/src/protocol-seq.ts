/**
 * Per-thread `seq` of the streaming protocol (`@langchain/protocol`), derived from the durable run event log so every
 * replica numbers an event the same way: the run's place among its thread's runs (`ordinal`, from 0), the slot of
 * the stored event it came from (its seq in the run + 1; slot 0 is the run's start, the last slot its end), and its
 * place among the protocol events that stored event became (`sub`).
 */
const SUB_SPAN = 64;
const SLOT_SPAN = 2 ** 26;
const RUN_SPAN = SLOT_SPAN * SUB_SPAN;
const END_SLOT = SLOT_SPAN - 1;
export const MAX_SUB = SUB_SPAN - 1;

export interface SeqPosition {
  ordinal: number;
  slot: number;
  sub: number;
}

const encode = (ordinal: number, slot: number, sub: number) => ordinal * RUN_SPAN + slot * SUB_SPAN + Math.min(sub, MAX_SUB);

/** The seq of the `sub`-th protocol event made of the run's stored event `eventSeq` (-1: the run's start). */
export const eventSeq = (ordinal: number, storedSeq: number, sub: number) => encode(ordinal, Math.min(storedSeq + 1, END_SLOT - 1), sub);

/** The seq of the `sub`-th event of the run's end. */
export const endSeq = (ordinal: number, sub: number) => encode(ordinal, END_SLOT, sub);

export function decodeSeq(seq: number): SeqPosition {
  const ordinal = Math.floor(seq / RUN_SPAN);
  const rest = seq - ordinal * RUN_SPAN;
  return { ordinal, slot: Math.floor(rest / SUB_SPAN), sub: rest % SUB_SPAN };
}

/** Whether `seq` is one this encoding can give (a non-negative safe integer). */
export const isProtocolSeq = (seq: unknown): seq is number => typeof seq === 'number' && Number.isSafeInteger(seq) && seq >= 0;
