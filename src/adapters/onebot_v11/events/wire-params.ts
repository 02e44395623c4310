import { toWireId } from '../wire-id.js';

/**
 * Action params as the wire wants them: the host's string ids (`group_id: "30001"`) become
 * numbers, as v11 specifies (Lagrange rejects strings). Only top-level `*_id` fields; other
 * values, and ids that are not decimal integers, go unchanged.
 */
export function toWireParams(params: Readonly<Record<string, unknown>>): Record<string, unknown> {
  const wire: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(params)) wire[key] = key.endsWith('_id') && typeof value === 'string' ? toWireId(value) : value;
  return wire;
}
