import { SignatureError } from '../errors/signature-error.js';
import { COMPONENT_KINDS, type ComponentKind, isComponentKind } from './component-kind.js';
import { signaturePartProblem } from './signature-part.js';

/** A component signature split into its three parts. */
export interface SignatureParts {
  /** The id of the plugin that owns the component. */
  pluginId: string;
  /** The component's kind, the signature's middle part. */
  kind: ComponentKind;
  /** The component's name within its plugin and kind. */
  name: string;
}

/** A signature string, `<plugin_id>:<kind>:<name>`. */
export type Signature = `${string}:${ComponentKind}:${string}`;

/** Splits and validates a signature; throws `SignatureError` naming the bad part. */
export function parseSignature(signature: unknown): SignatureParts {
  if (typeof signature !== 'string') throw new SignatureError(signature, 'signature', `must be a string, got ${typeof signature}`);
  const parts = signature.split(':');
  if (parts.length !== 3) {
    throw new SignatureError(signature, 'signature', `has ${parts.length} part(s) separated by ":", needs exactly 3`);
  }
  const [pluginId, kind, name] = parts as [string, string, string];
  const pluginProblem = signaturePartProblem(pluginId);
  if (pluginProblem !== undefined) throw new SignatureError(signature, 'plugin_id', pluginProblem);
  if (!isComponentKind(kind)) {
    throw new SignatureError(
      signature,
      'kind',
      kind === '' ? 'is empty' : `"${kind}" is not one of ${COMPONENT_KINDS.join(', ')}`,
    );
  }
  const nameProblem = signaturePartProblem(name);
  if (nameProblem !== undefined) throw new SignatureError(signature, 'name', nameProblem);
  return { pluginId, kind, name };
}

/** True when `value` is a well-formed signature string. */
export function isSignature(value: unknown): value is Signature {
  try {
    parseSignature(value);
    return true;
  } catch {
    return false;
  }
}
