/** The types of ./payload-checks.js, which scripts/gen-payload-checks.ts generates from these same schemas. */
import type { z } from 'zod';
import type { SERVER_EVENT_PAYLOADS } from '@shared/socket-events';

export type ServerEventName = keyof typeof SERVER_EVENT_PAYLOADS;
export type ServerEventPayload<E extends ServerEventName> = z.output<(typeof SERVER_EVENT_PAYLOADS)[E]>;

/** The payload of `event` as its shared schema parses it (unknown keys dropped), or null when it breaks it. */
export function checkPayload<E extends ServerEventName>(event: E, input: unknown): ServerEventPayload<E> | null;
