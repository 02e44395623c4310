import { SignatureError } from '../errors/signature-error.js';
import { COMPONENT_KINDS, isComponentKind } from './component-kind.js';
import type { Signature, SignatureParts } from './parse-signature.js';
import { signaturePartProblem } from './signature-part.js';

/** Joins validated parts into a signature; throws `SignatureError` naming the bad part. */
export function formatSignature(parts: SignatureParts): Signature {
  const shown = `${String(parts.pluginId)}:${String(parts.kind)}:${String(parts.name)}`;
  const pluginProblem = signaturePartProblem(parts.pluginId);
  if (pluginProblem !== undefined) throw new SignatureError(shown, 'plugin_id', pluginProblem);
  if (!isComponentKind(parts.kind)) {
    throw new SignatureError(shown, 'kind', `"${String(parts.kind)}" is not one of ${COMPONENT_KINDS.join(', ')}`);
  }
  const nameProblem = signaturePartProblem(parts.name);
  if (nameProblem !== undefined) throw new SignatureError(shown, 'name', nameProblem);
  return shown as Signature;
}
