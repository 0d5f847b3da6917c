// The sandbox's Power Up and Power Down events (issue 42) for the Intelligent Octopus Go household
// (sandboxDispatches.ts: region L). SYNTHETIC, not recorded: made up around the 2024 clock changes
// (a Power Up on the spring-forward day, one across the repeated hour of the fall-back night, one
// declined, one moved when the clock passes MOVED_AT), with saving sessions of its region and of
// another one, as customerFlexibilityCampaignEvents and savingSessions answer them.
import type { Json } from './SandboxCatalog.js';
import { EV_HOUSEHOLD } from './sandboxDispatches.js';

export interface SandboxFlexEvent {
  code: string;
  start: string;
  end: string;
  participant: boolean;
}

/** When the moved Power Up (PU-MOVED) moves from its first time to its second. */
export const MOVED_AT = '2024-10-20T00:00:00Z';

/** The household's Power Ups (campaign free_electricity) as served once the clock has passed MOVED_AT. */
export const POWER_UPS: readonly SandboxFlexEvent[] = [
  { code: 'PU-SPRING', start: '2024-03-31T13:00:00Z', end: '2024-03-31T14:00:00Z', participant: true },
  { code: 'PU-FALLBACK', start: '2024-10-27T00:30:00Z', end: '2024-10-27T01:30:00Z', participant: true },
  { code: 'PU-DECLINED', start: '2024-10-27T12:00:00Z', end: '2024-10-27T13:00:00Z', participant: false },
  { code: 'PU-MOVED', start: '2024-10-27T14:00:00Z', end: '2024-10-27T15:00:00Z', participant: true },
];
/** PU-MOVED before MOVED_AT. */
export const MOVED_FROM = { start: '2024-10-27T10:00:00Z', end: '2024-10-27T11:00:00Z' } as const;

/** Power Downs of the campaign octoplus-saving-sessions. */
export const POWER_DOWNS: readonly SandboxFlexEvent[] = [
  { code: 'PD-FALLBACK', start: '2024-10-27T17:00:00Z', end: '2024-10-27T18:00:00Z', participant: true },
];

/** savingSessions.events: one of the household's region (joined), one of region A only. */
export const SAVING_SESSIONS = [
  { id: 4101, code: 'EVENT_41_271024', eventType: 'TURN_DOWN', rewardPerKwhInOctoPoints: 100,
    startAt: '2024-10-27T17:00:00Z', endAt: '2024-10-27T18:00:00Z', targetRegion: [{ regionId: '_L' }], joinedReward: 240 },
  { id: 4102, code: 'EVENT_42_261024', eventType: 'TURN_DOWN', rewardPerKwhInOctoPoints: 90,
    startAt: '2024-10-26T17:00:00Z', endAt: '2024-10-26T18:00:00Z', targetRegion: [{ regionId: '_A' }], joinedReward: null },
] as const;

/** customerFlexibilityCampaignEvents for a supply point and campaign slug at `nowMs`; `powerUps`:
 *  that supply point's Power Ups in place of the EV household's (its Power Downs then none). */
export function campaignEventsAt(nowMs: number, mpan: string | undefined, slug: string | undefined, powerUps?: readonly SandboxFlexEvent[]): Json {
  const events = powerUps ? (slug === 'free_electricity' ? powerUps : [])
    : mpan !== EV_HOUSEHOLD.mpan ? []
      : slug === 'free_electricity' ? POWER_UPS.map((e) => (e.code === 'PU-MOVED' && nowMs < Date.parse(MOVED_AT) ? { ...e, ...MOVED_FROM } : e))
        : slug === 'octoplus-saving-sessions' ? POWER_DOWNS : [];
  return {
    edges: events.map((e) => ({
      node: { code: e.code, name: e.code.startsWith('PU') ? 'Power Up' : 'Power Down', startAt: kraken(e.start), endAt: kraken(e.end), isEventParticipant: e.participant },
    })),
  };
}

/** savingSessions for an account (only the household's has joined any). */
export function savingSessionsOf(household: boolean): Json {
  return {
    events: SAVING_SESSIONS.map(({ joinedReward: _r, ...e }) => ({ ...e, startAt: kraken(e.startAt), endAt: kraken(e.endAt) })),
    account: household
      ? {
        hasJoinedCampaign: true,
        joinedEvents: SAVING_SESSIONS.filter((e) => e.joinedReward !== null)
          .map((e) => ({ eventId: e.id, startAt: kraken(e.startAt), endAt: kraken(e.endAt), rewardGivenInOctoPoints: e.joinedReward })),
      }
      : { hasJoinedCampaign: false, joinedEvents: [] },
  };
}

function kraken(iso: string): string {
  return iso.replace(/Z$/, '+00:00');
}
