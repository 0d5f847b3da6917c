// Intelligent Octopus Go dispatches over the platform's GraphQL endpoint (`{base_url}graphql/`),
// the only place they are served: an account's devices (`devices(accountNumber)`), a device's
// planned dispatches (`flexPlannedDispatches(deviceId)`, which replaced the account-wide
// `plannedDispatches`) and the account's completed ones (`completedDispatches(accountNumber)`).
// Authenticated with a token from ObtainToken (the spec's authentication section; basic auth is a
// REST alternative only). GraphQL errors come back with HTTP 200 and `errors[]`: they become a
// GraphqlError that keeps `extensions.errorCode` (KT-CT-4340, KT-CT-1199 …), never parsing the
// message; KT-CT-1199 is first retried like a 429 (HttpClient). Query shapes as the peers send them (BottlecapDave/HomeAssistant-OctopusEnergy,
// springfall2008/batpred and others: `flexPlannedDispatches { start end type energyAddedKwh }`,
// `completedDispatches { start end delta meta { source location } }`).
import type { Credentials, HttpClient } from './HttpClient.js';
import {
  completedDataSchema, devicesDataSchema, graphqlAnswerSchema, plannedDataSchema,
  type CompletedDispatchJson, type DeviceJson, type PlannedDispatchJson,
} from './dispatchSchemas.js';
import { AuthError, GraphqlError, RecordValidationError, RetriesExhaustedError } from './errors.js';
import { issuePath } from './schemas.js';
import { redactUrl } from './urls.js';
import type { z } from 'zod';

export const DEVICES_QUERY = `query Devices($accountNumber: String!) {
  devices(accountNumber: $accountNumber) { id deviceType provider __typename }
}`;
export const PLANNED_DISPATCHES_QUERY = `query FlexPlannedDispatches($deviceId: String!) {
  flexPlannedDispatches(deviceId: $deviceId) { start end type energyAddedKwh }
}`;
export const COMPLETED_DISPATCHES_QUERY = `query CompletedDispatches($accountNumber: String!) {
  completedDispatches(accountNumber: $accountNumber) { start end delta meta { source location } }
}`;

export interface SmartDevice {
  deviceId: string;
  deviceType: string | null;
  provider: string | null;
}

export interface Dispatch {
  /** ms since the epoch */
  start: number;
  end: number;
  deltaKwh: number | null;
  /** planned: SMART, BOOST … when given */
  type: string | null;
  /** completed: meta.source / meta.location when given */
  source: string | null;
  location: string | null;
}

export class DispatchClient {
  readonly url: URL;

  constructor(private readonly http: HttpClient, baseUrl: URL, private readonly credentials: Credentials | undefined) {
    this.url = new URL('graphql/', baseUrl);
  }

  async devices(accountNumber: string, signal?: AbortSignal): Promise<SmartDevice[]> {
    const data = await this.query(DEVICES_QUERY, { accountNumber }, devicesDataSchema, signal);
    return (data.devices ?? []).map((d: DeviceJson) => ({ deviceId: d.id, deviceType: d.deviceType ?? null, provider: d.provider ?? null }));
  }

  async plannedDispatches(deviceId: string, signal?: AbortSignal): Promise<Dispatch[]> {
    const data = await this.query(PLANNED_DISPATCHES_QUERY, { deviceId }, plannedDataSchema, signal);
    return (data.flexPlannedDispatches ?? []).map((d: PlannedDispatchJson, i: number) => ({
      ...this.span(d.start, d.end, `flexPlannedDispatches[${i}]`),
      deltaKwh: kwh(d.energyAddedKwh), type: d.type ?? null, source: null, location: null,
    }));
  }

  async completedDispatches(accountNumber: string, signal?: AbortSignal): Promise<Dispatch[]> {
    const data = await this.query(COMPLETED_DISPATCHES_QUERY, { accountNumber }, completedDataSchema, signal);
    return (data.completedDispatches ?? []).map((d: CompletedDispatchJson, i: number) => ({
      ...this.span(d.start, d.end, `completedDispatches[${i}]`),
      deltaKwh: kwh(d.delta), type: null, source: d.meta?.source ?? null, location: d.meta?.location ?? null,
    }));
  }

  protected async query<T extends z.ZodType>(
    query: string, variables: Record<string, unknown>, dataSchema: T, signal: AbortSignal | undefined,
  ): Promise<z.infer<T>> {
    const context = { method: 'POST', url: redactUrl(this.url) };
    if (!this.credentials) {
      throw new AuthError('dispatches need credentials: set TARIFFS_API_KEY, --api-key-file or TARIFFS_TOKEN', context);
    }
    let response;
    try {
      response = await this.http.postJson(this.url, { query, variables }, { credentials: this.credentials, signal });
    } catch (error) {
      // KT-CT-1199 is retried by the HTTP client like a 429; when its retries run out, the answer's
      // own GraphqlError is what a caller reads (rateLimited), as for any other errors[] answer
      if (error instanceof RetriesExhaustedError && error.cause instanceof GraphqlError) throw error.cause;
      throw error;
    }
    const parsed = graphqlAnswerSchema(dataSchema).safeParse(response.json);
    if (!parsed.success) {
      const issue = parsed.error.issues[0]!;
      throw new RecordValidationError(issuePath(issue), issue.message, undefined, { ...context, attempts: response.attempts });
    }
    const answer = parsed.data as { data?: z.infer<T> | null; errors?: ConstructorParameters<typeof GraphqlError>[0] };
    if (answer.errors && answer.errors.length > 0) {
      throw new GraphqlError(answer.errors, { ...context, attempts: response.attempts });
    }
    if (!answer.data) throw new RecordValidationError('data', 'no data and no errors in the answer', undefined, { ...context, attempts: response.attempts });
    return answer.data;
  }

  protected span(start: string, end: string, where: string): { start: number; end: number } {
    const s = Date.parse(start);
    const e = Date.parse(end);
    const context = { method: 'POST', url: redactUrl(this.url) };
    if (!Number.isFinite(s)) throw new RecordValidationError(`${where}.start`, `not an instant: '${start}'`, undefined, context);
    if (!Number.isFinite(e)) throw new RecordValidationError(`${where}.end`, `not an instant: '${end}'`, undefined, context);
    if (e <= s) throw new RecordValidationError(`${where}.end`, `end ${end} is not after start ${start}`, undefined, context);
    return { start: s, end: e };
  }
}

function kwh(value: number | string | null | undefined): number | null {
  if (value === null || value === undefined || value === '') return null;
  const n = Number(value);
  return Number.isFinite(n) ? n : null;
}
