import { closestNames } from '../../core/closest.js';
import type { ToolContext } from './types.js';

/** Names listed in the hint at most: the closest, enough to spot a typo. */
const SHOWN = 6;

/**
 * For an empty answer about `service`: a line saying the colony knows no service by that name, with
 * the names it does know, closest first; undefined when it knows the service (the answer is simply
 * empty), knows no service at all (nothing to suggest), or no service was asked for.
 */
export async function unknownServiceLine(ctx: ToolContext, service: string | undefined): Promise<string | undefined> {
  if (!service) return undefined;
  const known = (await ctx.store.listServices()).map((s) => s.serviceName);
  if (known.includes(service) || known.length === 0) return undefined;
  const names = closestNames(service, known);
  const more = names.length > SHOWN ? `, and ${names.length - SHOWN} more (coral_get_service_health lists them)` : '';
  return `No service in this colony is named "${service}". Known services, closest first: ${names.slice(0, SHOWN).join(', ')}${more}.`;
}
