// Shapes of the GraphQL answers about Power Up and Power Down events. Only start and end are
// relied on; every other field is undocumented here and so optional (null or absent is fine).
import { z } from 'zod';

const optionalText = z.string().nullable().optional();
/** ids and rewards come as numbers or as strings */
const optionalScalar = z.union([z.number(), z.string()]).nullable().optional();

export const campaignNodeSchema = z.looseObject({
  code: optionalText,
  name: optionalText,
  startAt: z.string().min(1),
  endAt: z.string().min(1),
  isEventParticipant: z.boolean().nullable().optional(),
});

export const campaignDataSchema = z.looseObject({
  customerFlexibilityCampaignEvents: z.looseObject({
    edges: z.array(z.looseObject({ node: campaignNodeSchema.nullable().optional() })).nullable().optional(),
  }).nullable(),
});

export const savingEventSchema = z.looseObject({
  id: optionalScalar,
  code: optionalText,
  eventType: optionalText,
  rewardPerKwhInOctoPoints: optionalScalar,
  startAt: z.string().min(1),
  endAt: z.string().min(1),
  targetRegion: z.array(z.looseObject({ regionId: optionalScalar }).nullable()).nullable().optional(),
});

export const joinedEventSchema = z.looseObject({
  eventId: optionalScalar,
  startAt: z.string().min(1),
  endAt: z.string().min(1),
  rewardGivenInOctoPoints: optionalScalar,
});

export const savingSessionsDataSchema = z.looseObject({
  savingSessions: z.looseObject({
    events: z.array(savingEventSchema).nullable().optional(),
    account: z.looseObject({
      hasJoinedCampaign: z.boolean().nullable().optional(),
      joinedEvents: z.array(joinedEventSchema).nullable().optional(),
    }).nullable().optional(),
  }).nullable(),
});

export type CampaignNodeJson = z.infer<typeof campaignNodeSchema>;
export type SavingEventJson = z.infer<typeof savingEventSchema>;
export type JoinedEventJson = z.infer<typeof joinedEventSchema>;
