// Power Up (free electricity) and Power Down (saving sessions) events over GraphQL, with the
// queries public clients send: `customerFlexibilityCampaignEvents(accountNumber,
// supplyPointIdentifier, campaignSlug)` per campaign slug (springfall2008/batpred
// apps/predbat/octopus.py: `free_electricity`, `octoplus-saving-sessions`) and `savingSessions {
// events account(accountNumber) { joinedEvents } }` (BottlecapDave/HomeAssistant-OctopusEnergy,
// batpred). None of it is in the spec: a server that rejects the fuller query (a field it lacks)
// is asked again with the fields those clients rely on only (docs/decisions/power-up-power-down.md).
import { DispatchClient } from './DispatchClient.js';
import { GraphqlError } from './errors.js';
import {
  campaignDataSchema, savingSessionsDataSchema, type CampaignNodeJson, type JoinedEventJson, type SavingEventJson,
} from './flexibilitySchemas.js';

/** Campaign slugs asked about, and which kind of event each lists. */
export const CAMPAIGNS = [
  { slug: 'free_electricity', kind: 'power_up' },
  { slug: 'octoplus-saving-sessions', kind: 'power_down' },
] as const;
export type FlexKind = 'power_up' | 'power_down';

const campaignQuery = (node: string) => `query FlexibilityCampaignEvents($accountNumber: String!, $supplyPointIdentifier: String!, $campaignSlug: String!) {
  customerFlexibilityCampaignEvents(accountNumber: $accountNumber, supplyPointIdentifier: $supplyPointIdentifier, campaignSlug: $campaignSlug, first: 50) {
    edges { node { ${node} } }
  }
}`;
export const CAMPAIGN_EVENTS_QUERY = campaignQuery('code name startAt endAt isEventParticipant');
export const CAMPAIGN_EVENTS_MINIMAL_QUERY = campaignQuery('code startAt endAt');
export const SAVING_SESSIONS_QUERY = `query SavingSessions($accountNumber: String!) {
  savingSessions {
    events { id code eventType rewardPerKwhInOctoPoints startAt endAt targetRegion { regionId } }
    account(accountNumber: $accountNumber) { hasJoinedCampaign joinedEvents { eventId startAt endAt rewardGivenInOctoPoints } }
  }
}`;
export const SAVING_SESSIONS_MINIMAL_QUERY = `query SavingSessions($accountNumber: String!) {
  savingSessions {
    account(accountNumber: $accountNumber) { hasJoinedCampaign joinedEvents { eventId startAt endAt } }
  }
}`;

export interface FlexEvent {
  code: string;
  /** ms since the epoch */
  start: number;
  end: number;
  name: string | null;
  eventType: string | null;
  /** the regions the event names, as given */
  regions: string[];
  joined: boolean | null;
  reward: number | null;
}

export class FlexibilityClient extends DispatchClient {
  /** One campaign's events for a supply point (MPAN). */
  async campaignEvents(accountNumber: string, mpan: string, slug: string, signal?: AbortSignal): Promise<FlexEvent[]> {
    const variables = { accountNumber, supplyPointIdentifier: mpan, campaignSlug: slug };
    const data = await this.withFallback(
      () => this.query(CAMPAIGN_EVENTS_QUERY, variables, campaignDataSchema, signal),
      () => this.query(CAMPAIGN_EVENTS_MINIMAL_QUERY, variables, campaignDataSchema, signal));
    const nodes = (data.customerFlexibilityCampaignEvents?.edges ?? []).flatMap((e) => (e.node ? [e.node] : []));
    return nodes.map((n: CampaignNodeJson, i: number) => ({
      ...this.span(n.startAt, n.endAt, `customerFlexibilityCampaignEvents.edges[${i}].node`),
      code: n.code ?? '', name: n.name ?? null, eventType: null, regions: [], joined: n.isEventParticipant ?? null, reward: null,
    }));
  }

  /** The saving sessions: every event listed (joined: whether the account joined it) and any
   *  joined event the list lacks. */
  async savingSessions(accountNumber: string, signal?: AbortSignal): Promise<FlexEvent[]> {
    const data = await this.withFallback(
      () => this.query(SAVING_SESSIONS_QUERY, { accountNumber }, savingSessionsDataSchema, signal),
      () => this.query(SAVING_SESSIONS_MINIMAL_QUERY, { accountNumber }, savingSessionsDataSchema, signal));
    const events = data.savingSessions?.events ?? [];
    const joined = data.savingSessions?.account?.joinedEvents ?? [];
    const joinedIds = new Map(joined.filter((j) => j.eventId != null).map((j) => [String(j.eventId), j]));
    const listed = events.map((e: SavingEventJson, i: number) => {
      const mine = e.id != null ? joinedIds.get(String(e.id)) : undefined;
      return {
        ...this.span(e.startAt, e.endAt, `savingSessions.events[${i}]`),
        code: e.code ?? (e.id != null ? String(e.id) : ''), name: null, eventType: e.eventType ?? null,
        regions: (e.targetRegion ?? []).flatMap((r) => (r?.regionId != null ? [String(r.regionId)] : [])),
        joined: mine !== undefined, reward: number(mine?.rewardGivenInOctoPoints) ?? number(e.rewardPerKwhInOctoPoints),
      };
    });
    const listedIds = new Set(events.map((e) => String(e.id)));
    const unlisted = joined.filter((j) => j.eventId == null || !listedIds.has(String(j.eventId))).map((j: JoinedEventJson, i: number) => ({
      ...this.span(j.startAt, j.endAt, `savingSessions.account.joinedEvents[${i}]`),
      code: j.eventId != null ? String(j.eventId) : '', name: null, eventType: null, regions: [], joined: true,
      reward: number(j.rewardGivenInOctoPoints),
    }));
    return [...listed, ...unlisted];
  }

  /** The fuller query, else (a validation error: a field this server lacks) the minimal one. */
  private async withFallback<T>(full: () => Promise<T>, minimal: () => Promise<T>): Promise<T> {
    try {
      return await full();
    } catch (error) {
      if (!(error instanceof GraphqlError) || !isValidationError(error)) throw error;
      return minimal();
    }
  }
}

function isValidationError(error: GraphqlError): boolean {
  return error.errorType === 'VALIDATION' || /Cannot query field/i.test(error.message);
}

function number(value: number | string | null | undefined): number | null {
  if (value === null || value === undefined || value === '') return null;
  const n = Number(value);
  return Number.isFinite(n) ? n : null;
}
