import { MoonglassError } from './moonglass-error.js';

/** A second component claimed a signature that is already bound. */
export class SignatureCollisionError extends MoonglassError {
  /** The signature both components claim. */
  readonly signature: string;
  /** The plugin id that registered the signature first and keeps it. */
  readonly existingOwner: string;
  /** The plugin id whose registration was refused. */
  readonly newOwner: string;

  constructor(signature: string, existingOwner: string, newOwner: string, classes?: { existing: string; added: string }) {
    const existing = classes === undefined ? '' : ` (class ${classes.existing})`;
    const added = classes === undefined ? '' : ` (class ${classes.added})`;
    super(
      'MG_SIGNATURE_COLLISION',
      `signature "${signature}" is already registered by plugin "${existingOwner}"${existing}; ` +
        `plugin "${newOwner}"${added} cannot register it again. Rename the component, or override the ` +
        'existing binding on purpose with registry.override().',
    );
    this.signature = signature;
    this.existingOwner = existingOwner;
    this.newOwner = newOwner;
  }
}
